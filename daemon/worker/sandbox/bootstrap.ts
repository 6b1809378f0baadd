// Code that runs INSIDE the snippet's vm context. Its source text is compiled
// in the context (`sandboxBootstrap.toString()`), so it must not refer to
// anything outside its own body. The host hands it exactly two host functions,
// which it keeps in this closure and only ever calls with strings; every value
// it gives the snippet is made here, in the context's realm. Snippet code
// (the run, timer callbacks, event handlers) is always started from a
// context promise job, so no host frame sits below it on the stack.
/* eslint-disable */
import type { contextBuiltins } from "./context-builtins.js";
import type { contextEvents } from "./context-events.js";
import type { contextFacades, RunFacades } from "./context-facades.js";

export type HostSync = (message: string) => string;
export type HostAsync = (message: string, resolve: (json: string) => void, reject: (json: string) => void) => void;

/** Context-realm functions compiled from their own source text, handed to the bootstrap. */
export interface ContextParts {
  builtins: typeof contextBuiltins;
  facades: typeof contextFacades;
  events: typeof contextEvents;
}

export interface ContextApi {
  /** Starts a compiled snippet; completion arrives at the host as a `done` message. */
  run(compiled: (scope: object) => unknown, token: string): void;
  /** The run is over: its timers and event handlers are dropped and never called again. */
  end(token: string): void;
  /** An Error made in the context's realm, for host code that must throw into it. */
  error(message: string): Error;
  /** Delivers a host timer firing into the context. */
  fire(timerId: number): void;
  /** Delivers a page event (JSON) to the run's handlers; false when the run has none for it. */
  emit(token: string, eventJson: string): boolean;
}

export function sandboxBootstrap(hostSync: HostSync, hostAsync: HostAsync, specJson: string, parts: ContextParts): ContextApi {
  "use strict";
  const { parse, stringify } = JSON;
  const spec = parse(specJson);
  const PromiseCtor = Promise;
  const promiseThen = Promise.prototype.then;
  const resolved = Promise.resolve();
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const create = Object.create;
  const keysOf = Object.keys;
  const ErrorCtor = Error;
  const RegExpCtor = RegExp;
  const fnToString = Function.prototype.toString;
  const isArray = Array.isArray;
  const arrayFrom = Array.from;
  const MapCtor = Map, SetCtor = Set, DateCtor = Date;
  const mapGet = Map.prototype.get, mapSet = Map.prototype.set, mapDelete = Map.prototype.delete, mapHas = Map.prototype.has;
  const WeakMapCtor = WeakMap;
  const wmGet = WeakMap.prototype.get, wmSet = WeakMap.prototype.set;
  const isFiniteNumber = Number.isFinite;

  function makeError(shape: { name?: string; message?: string; code?: string }): Error {
    const error = new ErrorCtor(String(shape.message ?? "error"));
    if (shape.name) defineProperty(error, "name", { value: String(shape.name), configurable: true, writable: true });
    if (shape.code) defineProperty(error, "code", { value: String(shape.code), configurable: true, writable: true, enumerable: true });
    return error;
  }
  const mk = (name: string, message: string) => makeError({ name, message });

  // A host function can still throw (a stack overflow inside it makes a host
  // RangeError): never let that object through, replace it with ours.
  function host(text: string): string {
    try {
      return hostSync(text);
    } catch {
      throw mk("Error", "the call did not reach the browser (stack exhausted?)");
    }
  }

  function callSync(message: object): any {
    const reply = parse(host(stringify(message)));
    if (reply.error) throw makeError(reply.error);
    return reply.value;
  }

  function callAsync(message: object): Promise<any> {
    return new PromiseCtor((resolve, reject) => {
      const text = stringify(message);
      try {
        hostAsync(text, (json) => resolve(parse(json)), (json) => reject(makeError(parse(json))));
      } catch {
        reject(mk("Error", "the call did not reach the browser (stack exhausted?)"));
      }
    });
  }

  const then = (p: unknown, onOk: (v: any) => unknown, onErr?: (e: unknown) => unknown) => apply(promiseThen, p, [onOk, onErr]);
  /** Runs `fn` from a context promise job, after the current host call has returned. */
  const later = (fn: () => void) => { then(resolved, fn); };

  // Facades are tagged: a label when one ends up in a result, a descriptor when passed as an argument.
  const labels = new WeakMapCtor<object, string>();
  const descriptors = new WeakMapCtor<object, object>();
  function tag(facade: object, label: string, descriptor?: object): void {
    apply(wmSet, labels, [facade, label]);
    if (descriptor) apply(wmSet, descriptors, [facade, descriptor]);
  }

  // Functions (page.evaluate callbacks) travel as source text, RegExps as source and flags,
  // locators as their chains; everything else as JSON.
  function replacer(_key: string, value: unknown): unknown {
    if (typeof value === "function") return { __bwFn: apply(fnToString, value, []) };
    if (value === undefined) return { __bwUndefined: true };
    if (value !== null && typeof value === "object") {
      const d = apply(wmGet, descriptors, [value]);
      if (d) return d;
      const label = apply(wmGet, labels, [value]);
      if (label) return label;
      if (value instanceof RegExpCtor) return { __bwRegExp: [String(value.source), String(value.flags)] };
    }
    return value;
  }
  function encodeArgs(args: unknown[]): unknown[] {
    const out: unknown[] = [];
    for (let i = 0; i < args.length; i++) out[i] = parse(stringify(args[i], replacer) ?? "null");
    return out;
  }

  function safe(value: unknown, depth: number, seen: unknown[]): unknown {
    if (value === null || typeof value === "boolean" || typeof value === "string") return value;
    if (typeof value === "number") return isFiniteNumber(value) ? value : String(value);
    if (typeof value === "bigint") return `${value}n`;
    if (typeof value === "undefined") return null;
    if (typeof value === "symbol") return String(value);
    if (typeof value === "function") return `[Function ${(value as { name?: string }).name || "anonymous"}]`;
    const label = apply(wmGet, labels, [value]);
    if (label) return label;
    if (depth > 20) return "[MaxDepth]";
    if (seen.indexOf(value) !== -1) return "[Circular]";
    seen.push(value);
    try {
      if (value instanceof ErrorCtor) return { name: String(value.name), message: String(value.message) };
      if (isArray(value)) {
        const out: unknown[] = [];
        for (let i = 0; i < value.length && i < 10000; i++) out[i] = safe(value[i], depth + 1, seen);
        return out;
      }
      if (value instanceof MapCtor) return safe(arrayFrom(value.entries()), depth, seen);
      if (value instanceof SetCtor) return safe(arrayFrom(value.values()), depth, seen);
      if (value instanceof DateCtor) return Number.isNaN(value.getTime()) ? null : value.toISOString();
      if (value instanceof RegExpCtor) return String(value);
      const out: Record<string, unknown> = {};
      let count = 0;
      for (const key of keysOf(value as object)) {
        if (++count > 10000) break;
        out[key] = safe((value as Record<string, unknown>)[key], depth + 1, seen);
      }
      return out;
    } catch (error) {
      return `[Unserializable: ${String((error as Error)?.message ?? error)}]`;
    } finally {
      seen.pop();
    }
  }

  function format(args: unknown[]): string {
    const parts: string[] = [];
    for (const a of args) parts.push(typeof a === "string" ? a : stringify(safe(a, 0, [])));
    return parts.join(" ");
  }

  const builtins = parts.builtins((name, args) => callSync({ op: "pure", name, args }), mk);
  const facades = parts.facades({ spec, callSync, callAsync, encodeArgs, tag, makeError: mk });

  // The context's global: null prototype, plus the session-wide pure built-ins.
  Object.setPrototypeOf(globalThis, null);
  for (const name of keysOf(builtins)) defineProperty(globalThis, name, { value: (builtins as Record<string, unknown>)[name], writable: true, configurable: true });

  interface RunState { facades: RunFacades | null }
  const runs = new MapCtor<string, RunState>();
  const timers = new MapCtor<number, { token: string; fn: () => void; repeat: boolean }>();
  const state = create(null);

  function live(token: string): RunState | undefined {
    return apply(mapGet, runs, [token]) as RunState | undefined;
  }

  function report(token: string, what: string, error: unknown): void {
    const message = error !== null && typeof error === "object" ? String((error as Error).message) : String(error);
    try { callSync({ op: "console", token, type: "error", text: `${what} threw: ${message}` }); } catch { /* the run is over */ }
  }

  const events = parts.events({ callSync, callAsync, makeError, report, facadesOf: (token) => live(token)?.facades ?? null });

  function makeScope(token: string, rs: RunState): object {
    const pages = facades.forRun(token, events.hooks(token));
    rs.facades = pages;
    const scope = create(null);
    defineProperty(scope, "page", { get: () => pages.page(callSync({ op: "activePage", token })), enumerable: true });
    scope.state = state;
    scope.pages = () => callSync({ op: "pages", token });
    scope.openPage = (url?: string) => then(callAsync({ op: "openPage", token, url: url === undefined ? null : String(url) }), (id: string) => pages.page(id));
    scope.usePage = (pageId: string) => pages.page(callSync({ op: "usePage", token, pageId: String(pageId) }));
    scope.closePage = (pageId?: string) => callAsync({ op: "closePage", token, pageId: pageId === undefined ? null : String(pageId) });
    const con = create(null);
    for (const type of ["log", "info", "warn", "error", "debug", "dir", "table", "trace"]) {
      const as = type === "dir" || type === "table" || type === "trace" ? "log" : type;
      con[type] = (...args: unknown[]) => { callSync({ op: "console", token, type: as, text: format(args) }); };
    }
    scope.console = freeze(con);
    // Service globals (credentials.fill, screenshot, snapshot…), generated from their names.
    const groups = create(null);
    for (const kind of ["async", "sync"]) {
      for (const name of spec.scope[kind] as string[]) {
        const dot = name.indexOf(".");
        const fn = kind === "async"
          ? (...args: unknown[]) => callAsync({ op: "scope", token, name, args: encodeArgs(args) })
          : (...args: unknown[]) => callSync({ op: "scope", token, name, args: encodeArgs(args) });
        if (dot === -1) scope[name] = fn;
        else {
          const group = name.slice(0, dot);
          groups[group] ??= create(null);
          groups[group][name.slice(dot + 1)] = fn;
        }
      }
    }
    for (const group of keysOf(groups)) scope[group] = freeze(groups[group]);
    // Timeouts and intervals share one id space, as in browsers: either clear function clears either.
    const timer = (kind: "setTimeout" | "setInterval") => (fn: unknown, ms?: number, ...args: unknown[]) => {
      if (typeof fn !== "function") throw mk("TypeError", `${kind} needs a function`);
      const id = callSync({ op: kind, token, ms: Number(ms) || 0 }) as number;
      apply(mapSet, timers, [id, { token, fn: () => apply(fn, undefined, args), repeat: kind === "setInterval" }]);
      return id;
    };
    const clear = (id: number) => {
      apply(mapDelete, timers, [id]);
      callSync({ op: "clearTimeout", token, id });
    };
    scope.setTimeout = timer("setTimeout");
    scope.setInterval = timer("setInterval");
    scope.clearTimeout = clear;
    scope.clearInterval = clear;
    return freeze(scope);
  }

  function finish(token: string, ok: boolean, value: unknown): void {
    let payload: unknown;
    try {
      if (ok) {
        payload = { op: "done", token, ok: true, value: value === undefined ? { __bwUndefined: true } : safe(value, 0, []) };
      } else {
        const e = value as { name?: unknown; message?: unknown; stack?: unknown } | null;
        const isErr = e !== null && typeof e === "object";
        payload = {
          op: "done", token, ok: false,
          error: { name: isErr ? String(e.name ?? "Error") : "Error", message: isErr ? String(e.message ?? "") : String(value) },
        };
      }
      payload = stringify(payload);
    } catch (error) {
      payload = stringify({ op: "done", token, ok: false, error: { name: "Error", message: "the snippet's outcome could not be read" } });
    }
    host(payload as string);
  }

  return freeze({
    run(compiled: (scope: object) => unknown, token: string) {
      const rs: RunState = { facades: null };
      apply(mapSet, runs, [token, rs]);
      later(() => {
        if (!live(token)) return;
        let result: unknown;
        try {
          result = compiled(makeScope(token, rs));
        } catch (error) {
          finish(token, false, error);
          return;
        }
        then(PromiseCtor.resolve(result), (v: unknown) => finish(token, true, v), (e: unknown) => finish(token, false, e));
      });
    },
    end(token: string) {
      apply(mapDelete, runs, [token]);
      events.drop(token);
      for (const [id, t] of arrayFrom(timers.entries())) if (t.token === token) apply(mapDelete, timers, [id]);
    },
    error(message: string) {
      return mk("Error", message);
    },
    fire(timerId: number) {
      const t = apply(mapGet, timers, [timerId]) as { token: string; fn: () => void; repeat: boolean } | undefined;
      if (!t) return;
      if (!t.repeat) apply(mapDelete, timers, [timerId]);
      later(() => {
        // A cleared interval may still have had a tick queued.
        if (!live(t.token) || (t.repeat && !apply(mapHas, timers, [timerId]))) return;
        try { t.fn(); } catch (e) { report(t.token, t.repeat ? "a setInterval callback" : "a setTimeout callback", e); }
      });
    },
    emit: (token: string, eventJson: string) => events.emit(token, eventJson),
  });
}
