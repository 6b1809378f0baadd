// The one schema kit for values that cross a boundary: RPC params, files on
// disk, and operation arguments, whose declared kinds (operations/spec.ts) are
// checked with these same validators. Each returns the typed value or throws
// INVALID_ARGUMENT naming the path, what was expected and what came.
import { BwError } from "./errors.js";

export type Validator<T> = (value: unknown, path?: string) => T;
export type Infer<V> = V extends Validator<infer T> ? T : never;

/** What came, in words: its kind, or the value itself where the kind alone would mislead (NaN is a number). */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") return "a string";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return String(value);
  return `a ${typeof value}`;
}

function bad(path: string, expected: string, value: unknown): never {
  throw new BwError("INVALID_ARGUMENT", `${path}: expected ${expected}, got ${shown(value)}`);
}

function refuse(path: string, message: string): never {
  throw new BwError("INVALID_ARGUMENT", `${path}: ${message}`);
}

export const str = (opts: { max?: number; min?: number; pattern?: RegExp; choices?: readonly string[] } = {}): Validator<string> => (value, path = "value") => {
  if (typeof value !== "string") return bad(path, "a string", value);
  if (opts.min !== undefined && value.length < opts.min) refuse(path, "must not be empty");
  if (opts.max !== undefined && value.length > opts.max) refuse(path, `longer than ${opts.max} characters`);
  if (opts.pattern && !opts.pattern.test(value)) refuse(path, "malformed");
  if (opts.choices && !opts.choices.includes(value)) refuse(path, `expected one of ${opts.choices.join(", ")}`);
  return value;
};

export const num = (opts: { min?: number; max?: number; integer?: boolean } = {}): Validator<number> => (value, path = "value") => {
  if (typeof value !== "number" || !Number.isFinite(value)) return bad(path, "a finite number", value);
  if (opts.integer && !Number.isInteger(value)) return bad(path, "a whole number", value);
  if (opts.min !== undefined && value < opts.min) refuse(path, `must be at least ${opts.min}`);
  if (opts.max !== undefined && value > opts.max) refuse(path, `must be at most ${opts.max}`);
  return value;
};

export const bool = (): Validator<boolean> => (value, path = "value") =>
  typeof value === "boolean" ? value : bad(path, "a boolean", value);

export const custom = <T>(check: (value: unknown, path: string) => T): Validator<T> => (value, path = "value") => check(value, path);

export const optional = <T>(inner: Validator<T>): Validator<T | undefined> => (value, path) =>
  value === undefined || value === null ? undefined : inner(value, path);

/** `what`: how the expected array is named ("an array of strings"). */
export const arr = <T>(inner: Validator<T>, opts: { max?: number; what?: string } = {}): Validator<T[]> => (value, path = "value") => {
  if (!Array.isArray(value)) return bad(path, opts.what ?? "an array", value);
  if (opts.max !== undefined && value.length > opts.max) refuse(path, `more than ${opts.max} items`);
  return value.map((item, i) => inner(item, `${path}[${i}]`));
};

/** A key as the caller sent it, quoted and cut short: a hostile key must not fill the error. */
function shownKey(key: string): string {
  const quoted = JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
  return `'${quoted.slice(1, -1)}'`;
}

type Shape = Record<string, Validator<unknown>>;
type ObjectOf<S extends Shape> = { [K in keyof S as undefined extends Infer<S[K]> ? never : K]: Infer<S[K]> } & {
  [K in keyof S as undefined extends Infer<S[K]> ? K : never]?: Infer<S[K]>;
};

/** A plain object with exactly these keys; unknown keys are refused so typos do not pass silently. */
export const obj = <S extends Shape>(shape: S): Validator<ObjectOf<S>> => (value, path = "params") => {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return bad(path, "an object", value);
  const input = value as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(shape, key)) refuse(path, `unknown field ${shownKey(key)}`);
  }
  const out: Record<string, unknown> = {};
  for (const [key, check] of Object.entries(shape)) {
    const v = check(input[key], `${path}.${key}`);
    if (v !== undefined) out[key] = v;
  }
  return out as ObjectOf<S>;
};

/** For results and settings we pass through after checking the container only. */
export const anyObject = (): Validator<Record<string, unknown>> => (value, path = "value") =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : bad(path, "an object", value);
