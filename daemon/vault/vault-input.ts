// Validation of what callers hand the vault. Errors name the field, never echo
// its value: a mistyped field may hold a password.
import { randomBytes } from "node:crypto";
import { BwError } from "../../shared/protocol/errors.js";
import { VAULT_LIMITS } from "../../shared/protocol/methods/vault.js";

export const MAX_USERNAME_CHARS = VAULT_LIMITS.usernameChars;
export const MAX_PASSWORD_CHARS = VAULT_LIMITS.passwordChars;
export const MAX_LABEL_CHARS = VAULT_LIMITS.labelChars;
const ID_PATTERN = VAULT_LIMITS.idPattern;

/**
 * Opaque, unguessable (96 bits), URL- and shell-safe, and never starting with
 * "-": an id is typed as a command-line word (`vault show ID`), where a leading
 * dash would read as a flag.
 */
export function newEntryId(): string {
  return randomBytes(12).toString("hex");
}

export function checkId(id: unknown): string {
  if (typeof id !== "string" || !ID_PATTERN.test(id)) {
    throw new BwError("INVALID_ARGUMENT", "id must be a vault entry id (letters, digits, - and _)");
  }
  return id;
}

export function isValidId(id: unknown): id is string {
  return typeof id === "string" && ID_PATTERN.test(id);
}

export function checkText(field: string, value: unknown, options: { min?: number; max: number }): string {
  const min = options.min ?? 0;
  if (typeof value !== "string") throw new BwError("INVALID_ARGUMENT", `${field} must be a string`);
  if (value.length < min || value.length > options.max) {
    throw new BwError("INVALID_ARGUMENT", `${field} must be ${min} to ${options.max} characters long`);
  }
  if (value.includes("\0")) throw new BwError("INVALID_ARGUMENT", `${field} must not contain NUL`);
  return value;
}

export function checkUsername(value: unknown): string {
  return checkText("username", value, { max: MAX_USERNAME_CHARS });
}

export function checkPassword(value: unknown): string {
  return checkText("password", value, { min: 1, max: MAX_PASSWORD_CHARS });
}

/** Undefined or empty means "no label". */
export function checkLabel(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const label = checkText("label", value, { max: MAX_LABEL_CHARS });
  return label === "" ? undefined : label;
}

export function checkObject(name: string, value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new BwError("INVALID_ARGUMENT", `${name} must be an object`);
  }
  return value as Record<string, unknown>;
}
