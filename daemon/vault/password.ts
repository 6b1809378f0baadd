// Generated passwords: uniform draws from crypto.randomInt over an alphabet most
// sign-up forms accept. No quotes, backslash, backtick or space, so the value
// survives shells, form encoders and JSON unchanged.
import { randomInt } from "node:crypto";
import { BwError } from "../../shared/protocol/errors.js";
import { VAULT_LIMITS } from "../../shared/protocol/methods/vault.js";

export const PASSWORD_CLASSES = [
  "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
  "abcdefghijklmnopqrstuvwxyz",
  "0123456789",
  "!#$%&()*+,-./:;<=>?@[]^_{|}~",
] as const;
export const PASSWORD_ALPHABET = PASSWORD_CLASSES.join("");
export const DEFAULT_PASSWORD_LENGTH = 24;
export const MIN_PASSWORD_LENGTH = VAULT_LIMITS.minGeneratedLength;
export const MAX_PASSWORD_LENGTH = VAULT_LIMITS.maxGeneratedLength;

/**
 * A password of `length` characters containing every class (sites often demand
 * it). Redrawing the whole string until that holds keeps every qualifying
 * string equally likely; at length >= 12 a redraw is rare.
 */
export function generatePassword(length: number = DEFAULT_PASSWORD_LENGTH): string {
  if (!Number.isInteger(length) || length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    throw new BwError(
      "INVALID_ARGUMENT",
      `password length must be an integer from ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH}`,
    );
  }
  for (;;) {
    let password = "";
    for (let i = 0; i < length; i++) password += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
    if (PASSWORD_CLASSES.every((chars) => [...password].some((c) => chars.includes(c)))) return password;
  }
}
