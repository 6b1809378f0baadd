// How values cross the context's edge, made INSIDE the context (its source
// text is compiled there and refers to nothing outside its body): records
// with a null prototype, data parsed into null-prototype trees, snippet
// arguments encoded for the host, results and errors made JSON-safe, console
// arguments formatted. Everything here uses the primordials captured before
// any snippet ran; a snippet's own getters, toJSON and toString may run while
// its values are read, never ours.
/* eslint-disable */
import type { Primordials } from "./context-primordials.js";

export interface ContextValues {
  /** The same object with a null prototype: no inherited toJSON, getter or setter can touch it. */
  record<T extends object>(o: T): T;
  /** JSON.parse whose objects and arrays all have a null prototype (data for our code, never for the snippet). */
  parseData(text: string): any;
  /** Calls `fn` from a context promise job, after the current host call has returned; never throws. */
  later(fn: () => unknown): void;
  /**
   * Snippet arguments as JSON data: functions as source text, RegExps as source and flags, facades as their descriptors.
   * Past `cap` characters of JSON it throws `cap.error()` before anything larger than that text is made.
   */
  encodeArgs(args: readonly unknown[], cap?: { max: number; error(): Error }): unknown[];
  /** Records what a facade stands for: a label for results, a descriptor when passed as an argument. */
  tag(facade: object, label: string, descriptor?: object): void;
  /** A result made JSON-safe (depth and size bounds, cycles, errors as {name, message}). */
  safe(value: unknown): unknown;
  /** Console arguments as one line. */
  format(args: readonly unknown[]): string;
  /** Records the stable code of an error made from a host refusal. */
  markCode(error: object, code: string): void;
  /** A thrown value as {name, message}, and the code of a host refusal it is. */
  errorShape(value: unknown): { name: string; message: string; code?: string };
}

export function contextValues(P: Primordials): ContextValues {
  "use strict";
  const { apply, ObjectCreate: create, ObjectFreeze: freeze, ObjectKeys: keysOf, ObjectSetPrototypeOf: setProto } = P;
  const { JSONParse: parse, JSONStringify: stringify, String: toStr, NumberIsFinite, NumberIsNaN, ErrorCtor, isInstance } = P;
  const { ArrayIsArray: isArray, ArrayPrototypePush: push, ArrayPrototypeIndexOf: indexOf, ArrayPrototypePop: pop, ArrayPrototypeJoin: join } = P;
  const { WeakMapCtor, WeakMapPrototypeGet: wmGet, WeakMapPrototypeSet: wmSet, MapPrototypeGetSize, SetPrototypeGetSize } = P;

  const record = <T extends object>(o: T): T => setProto(o, null) as T;

  function nullProto(_key: string, value: unknown): unknown {
    return value !== null && typeof value === "object" ? setProto(value, null) : value;
  }
  const parseData = (text: string): any => apply(parse, undefined, [text, nullProto]);

  function later(fn: () => unknown): void {
    // `await undefined` schedules a job of the context's own Promise without looking up any `then`.
    const job = async () => {
      await undefined;
      try { await fn(); } catch { /* fn reports its own failures */ }
    };
    job();
  }

  const brand = (check: (v: unknown) => unknown, v: unknown): boolean => {
    try { check(v); return true; } catch { return false; }
  };
  const isMap = (v: unknown) => brand(MapPrototypeGetSize, v);
  const isSet = (v: unknown) => brand(SetPrototypeGetSize, v);
  const isDate = (v: unknown) => brand(P.DatePrototypeGetTime, v);
  const isRegExp = (v: unknown) => brand(P.RegExpPrototypeGetSource, v);

  // Facades are tagged: a label when one ends up in a result, a descriptor when passed as an argument.
  const labels = new WeakMapCtor<object, string>();
  const descriptors = new WeakMapCtor<object, object>();
  function tag(facade: object, label: string, descriptor?: object): void {
    wmSet(labels, facade, label);
    if (descriptor) wmSet(descriptors, facade, descriptor);
  }

  // Functions (page.evaluate callbacks) travel as source text, RegExps as source and flags,
  // locators as their chains; everything else as JSON.
  /** What is left of the cap of the encoding in progress (its strings are counted before they are copied). */
  let capLeft = Infinity;
  let capError: (() => Error) | undefined;
  function replacer(_key: string, value: unknown): unknown {
    if (typeof value === "string" && (capLeft -= value.length) < 0 && capError) throw capError();
    if (typeof value === "function") return record({ __bwFn: P.FunctionPrototypeToString(value) });
    if (value === undefined) return record({ __bwUndefined: true });
    if (value !== null && typeof value === "object") {
      const d = wmGet(descriptors, value);
      if (d) return d;
      const label = wmGet(labels, value);
      if (label) return label;
      if (isRegExp(value)) return record({ __bwRegExp: record([P.RegExpPrototypeGetSource(value), toStr(P.RegExpPrototypeGetFlags(value))]) });
    }
    return value;
  }
  function encodeArgs(args: readonly unknown[], cap?: { max: number; error(): Error }): unknown[] {
    const out: unknown[] = record([]);
    // A snippet's toJSON may make a call of its own while this one is encoded: its cap is its own.
    const outer = [capLeft, capError] as const;
    capLeft = cap ? cap.max : Infinity;
    capError = cap?.error;
    try {
      let chars = 0;
      for (let i = 0; i < args.length; i++) {
        const text = stringify(args[i], replacer) ?? "null";
        chars += text.length;
        if (cap !== undefined && chars > cap.max) throw cap.error();
        push(out, parseData(text));
      }
    } finally {
      [capLeft, capError] = outer;
    }
    return out;
  }

  function safeObject(value: object, depth: number, seen: unknown[]): unknown {
    if (isInstance(value, ErrorCtor)) return record({ name: toStr((value as Error).name), message: toStr((value as Error).message) });
    if (isArray(value)) {
      const out: unknown[] = record([]);
      for (let i = 0; i < value.length && i < 10000; i++) push(out, safeAt(value[i], depth + 1, seen));
      return out;
    }
    if (isMap(value)) return safeAt(P.MapPrototypeEntriesArray(value as Map<unknown, unknown>), depth, seen);
    if (isSet(value)) return safeAt(P.SetPrototypeValuesArray(value as Set<unknown>), depth, seen);
    if (isDate(value)) return NumberIsNaN(P.DatePrototypeGetTime(value)) ? null : P.DatePrototypeToISOString(value);
    if (isRegExp(value)) return `/${P.RegExpPrototypeGetSource(value)}/${toStr(P.RegExpPrototypeGetFlags(value))}`;
    const out = create(null) as Record<string, unknown>;
    const keys = keysOf(value);
    for (let i = 0; i < keys.length && i < 10000; i++) out[keys[i]!] = safeAt((value as Record<string, unknown>)[keys[i]!], depth + 1, seen);
    return out;
  }

  function safeAt(value: unknown, depth: number, seen: unknown[]): unknown {
    if (value === null || typeof value === "boolean" || typeof value === "string") return value;
    if (typeof value === "number") return NumberIsFinite(value) ? value : toStr(value);
    if (typeof value === "bigint") return `${toStr(value)}n`;
    if (typeof value === "undefined") return null;
    if (typeof value === "symbol") return toStr(value);
    if (typeof value === "function") {
      try { return `[Function ${toStr((value as { name?: unknown }).name) || "anonymous"}]`; } catch { return "[Function]"; }
    }
    const label = wmGet(labels, value as object);
    if (label) return label;
    if (depth > 20) return "[MaxDepth]";
    if (indexOf(seen, value) !== -1) return "[Circular]";
    push(seen, value);
    try {
      return safeObject(value as object, depth, seen);
    } catch (error) {
      let why: string;
      try { why = toStr(error !== null && typeof error === "object" ? (error as Error).message : error); } catch { why = "unreadable"; }
      return `[Unserializable: ${why}]`;
    } finally {
      pop(seen);
    }
  }

  function format(args: readonly unknown[]): string {
    const parts: string[] = record([]);
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      push(parts, typeof a === "string" ? a : toStr(stringify(safeAt(a, 0, record([])))));
    }
    return join(parts, " ");
  }

  const codes = new WeakMapCtor<object, string>();
  function errorShape(value: unknown): { name: string; message: string; code?: string } {
    if (value === null || typeof value !== "object") return record({ name: "Error", message: toStr(value) });
    const e = value as { name?: unknown; message?: unknown };
    const shape: { name: string; message: string; code?: string } = record({ name: toStr(e.name ?? "Error"), message: toStr(e.message ?? "") });
    const code = wmGet(codes, value);
    if (code !== undefined) shape.code = code;
    return shape;
  }

  const markCode = (error: object, code: string) => { wmSet(codes, error, code); };
  return freeze(record({ record, parseData, later, encodeArgs, tag, safe: (value: unknown) => safeAt(value, 0, record([])), format, markCode, errorShape }));
}
