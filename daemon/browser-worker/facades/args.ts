// Arguments from the context arrive as JSON. Functions arrive as source text
// and become host functions whose toString() is that text: Playwright only
// ever serialises them to send to the page, so model code is never compiled
// in the worker's realm. RegExps arrive as source and flags, locators as
// their builder chains (rebuilt by the caller's resolver).

import { BwError } from "../../../shared/protocol/errors.js";

export type LocatorResolver = (descriptor: unknown) => unknown;

function refuseLocator(): never {
  throw new Error("a locator cannot be passed here");
}

/**
 * `patterns`: whether a RegExp may be rebuilt here: for locator builders (getByText(/re/), filter({ hasText })), which
 * Playwright turns into selector text, and for evaluate's arguments, which it serialises; both are matched in the
 * page. Anywhere else one could be matched on this thread, where a pattern that backtracks for ever holds every
 * session's calls (url-waits.ts matches URLs in the realm).
 */
export function decodeArg(value: unknown, resolveLocator: LocatorResolver = refuseLocator, patterns = false): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => decodeArg(v, resolveLocator, patterns));
  const record = value as Record<string, unknown>;
  if (typeof record.__bwFn === "string") {
    const source = record.__bwFn;
    const carrier = function pageFunction() {
      throw new Error("page functions run in the page, not in the worker");
    };
    Object.defineProperty(carrier, "toString", { value: () => source });
    return carrier;
  }
  if (record.__bwUndefined === true) return undefined;
  if (Array.isArray(record.__bwRegExp)) {
    if (!patterns) throw new BwError("INVALID_ARGUMENT", "a RegExp is taken only by locators (getByText, getByRole's name, filter), evaluate's arguments, page.waitForURL and page.frame({ url })");
    const [source, flags] = record.__bwRegExp as unknown[];
    return new RegExp(String(source), String(flags));
  }
  if (record.__bwLocator !== undefined) return resolveLocator(record.__bwLocator);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    // A "__proto__" key from JSON is data, never a prototype.
    Object.defineProperty(out, k, { value: decodeArg(v, resolveLocator, patterns), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export function decodeArgs(value: unknown, resolveLocator?: LocatorResolver, patterns = false): unknown[] {
  return Array.isArray(value) ? value.map((v) => decodeArg(v, resolveLocator, patterns)) : [];
}

/** Clamp any `timeout` option to what is left of the run's budget (0 means "no timeout" to Playwright). */
export function clampTimeouts(args: unknown[], remainingMs: number): unknown[] {
  const limit = Math.max(1, Math.floor(remainingMs));
  return args.map((arg) => {
    if (arg === null || typeof arg !== "object" || Array.isArray(arg) || typeof arg === "function" || arg instanceof RegExp) return arg;
    const options = arg as Record<string, unknown>;
    if (!("timeout" in options)) return arg;
    const t = options.timeout;
    const clamped = typeof t === "number" && t > 0 ? Math.min(t, limit) : limit;
    return { ...options, timeout: clamped };
  });
}

/** Playwright returns Responses, handles and other live objects; only data may cross back. */
export function toWireResult(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value !== "object") return value;
  const ctor = (value as object).constructor?.name;
  if (ctor === "Response" && typeof (value as { status?: unknown }).status === "function") {
    const r = value as { url(): string; status(): number; ok(): boolean };
    return { url: r.url(), status: r.status(), ok: r.ok() };
  }
  if (Array.isArray(value) || ctor === "Object" || ctor === undefined) return JSON.parse(JSON.stringify(value) ?? "null");
  return null;
}
