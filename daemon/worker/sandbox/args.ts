// Arguments from the context arrive as JSON; functions arrive as source text
// and become host functions whose toString() is that text. Playwright only
// ever serialises them to send to the page, so model code is never compiled
// in the worker's realm.

export function decodeArg(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(decodeArg);
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
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) out[k] = decodeArg(v);
  return out;
}

export function decodeArgs(value: unknown): unknown[] {
  return Array.isArray(value) ? value.map(decodeArg) : [];
}

/** Clamp any `timeout` option to what is left of the run's budget (0 means "no timeout" to Playwright). */
export function clampTimeouts(args: unknown[], remainingMs: number): unknown[] {
  const limit = Math.max(1, Math.floor(remainingMs));
  return args.map((arg) => {
    if (arg === null || typeof arg !== "object" || Array.isArray(arg) || typeof arg === "function") return arg;
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
