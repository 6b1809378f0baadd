// How one setting's value is read, whatever its source (config.json, the
// environment, a flag): checked, made canonical, and refused with
// INVALID_ARGUMENT naming the setting and where it came from. Pure: the one
// config module (config.ts) reads the sources and calls these.
import { boolWord } from "./bool-words.js";
import { BwError } from "./protocol/errors.js";
import { parseHostPattern } from "./guard/policy/host-pattern.js";

/** The longest budget or timeout any setting may state. */
export const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export type Source = string;

export function fail(source: Source, what: string, problem: string): never {
  throw new BwError("INVALID_ARGUMENT", `${what} (${source}): ${problem}`);
}

export function asBool(value: unknown, source: Source, what: string): boolean {
  if (typeof value === "boolean") return value;
  const word = typeof value === "string" ? boolWord(value) : undefined;
  if (word !== undefined) return word;
  return fail(source, what, `expected a boolean, got ${JSON.stringify(value)}`);
}

export function asSeconds(value: unknown, source: Source, what: string, { allowZero = false } = {}): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    return fail(source, what, `expected a positive number of seconds, got ${typeof value === "string" ? JSON.stringify(value) : String(value)}`);
  }
  if (n * 1000 > MAX_TIMEOUT_MS) return fail(source, what, "must be at most one day");
  return n;
}

/** Budgets travel as whole milliseconds: 1e-9 or 0.0015 seconds must not reach the daemon as a fraction. */
export function asMilliseconds(value: unknown, source: Source, what: string): number {
  return Math.max(1, Math.round(asSeconds(value, source, what) * 1000));
}

export function asStringList(value: unknown, source: Source, what: string): string[] {
  if (typeof value === "string") return value.split(",").map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.map((v) => v.trim()).filter(Boolean);
  return fail(source, what, "expected a list of host names");
}

/** Host entries are checked and made canonical here, so a typo fails before a daemon starts. */
export function asHostList(value: unknown, source: Source, what: string): string[] {
  return asStringList(value, source, what).map((entry) => {
    try {
      return parseHostPattern(entry, what).text;
    } catch (error) {
      return fail(source, what, (error as Error).message);
    }
  });
}

/** A whole number of at least 1 and at most `max` (`unit` names what it counts in the error). */
export function asCount(value: unknown, source: Source, what: string, unit: string, max = Number.MAX_SAFE_INTEGER): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 1) {
    return fail(source, what, `expected a whole number of ${unit}, got ${typeof value === "string" ? JSON.stringify(value) : String(value)}`);
  }
  if (n > max) return fail(source, what, `must be at most ${max}`);
  return n;
}

export function asPath(value: unknown, source: Source, what: string): string {
  if (typeof value !== "string" || value.trim() === "" || value.includes("\0")) {
    return fail(source, what, "expected a path");
  }
  return value;
}
