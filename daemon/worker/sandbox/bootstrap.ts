// Code that runs INSIDE the snippet's vm context. Its source text is compiled
// in the context (`sandboxBootstrap.toString()`), so it must not refer to
// anything outside its own body. The host hands it exactly two host functions,
// which it keeps in this closure and only ever calls with strings; every value
// it gives the snippet is made here, in the context's realm.
/* eslint-disable */

export type HostSync = (message: string) => string;
export type HostAsync = (message: string, resolve: (json: string) => void, reject: (json: string) => void) => void;

export interface ContextApi {
  /** Starts a compiled snippet; completion arrives at the host as a `done` message. */
  run(compiled: (scope: object) => unknown, token: string): void;
  /** An Error made in the context's realm, for host code that must throw into it. */
  error(message: string): Error;
  /** Delivers a host timer firing into the context. */
  fire(timerId: number): void;
}

export function sandboxBootstrap(hostSync: HostSync, hostAsync: HostAsync, specJson: string): ContextApi {
  "use strict";
  const { parse, stringify } = JSON;
  const spec = parse(specJson);
  const PromiseCtor = Promise;
  const promiseThen = Promise.prototype.then;
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const create = Object.create;
  const ErrorCtor = Error;
  const fnToString = Function.prototype.toString;
  const isArray = Array.isArray;
  const MapCtor = Map;
  const mapGet = Map.prototype.get, mapSet = Map.prototype.set, mapDelete = Map.prototype.delete;

  function makeError(shape: { name?: string; message?: string; code?: string }): Error {
    const error = new ErrorCtor(String(shape.message ?? "error"));
    if (shape.name) defineProperty(error, "name", { value: String(shape.name), configurable: true, writable: true });
    if (shape.code) defineProperty(error, "code", { value: String(shape.code), configurable: true, writable: true, enumerable: true });
    return error;
  }

  function callSync(message: object): any {
    const reply = parse(hostSync(stringify(message)));
    if (reply.error) throw makeError(reply.error);
    return reply.value;
  }

  function callAsync(message: object): Promise<any> {
    return new PromiseCtor((resolve, reject) => {
      hostAsync(stringify(message), (json) => resolve(parse(json)), (json) => reject(makeError(parse(json))));
    });
  }

  // Functions (page.evaluate callbacks) travel as source text; everything else as JSON.
  function encodeArgs(args: unknown[]): unknown[] {
    const out: unknown[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      out[i] = typeof a === "function" ? { __bwFn: apply(fnToString, a, []) } : a === undefined ? { __bwUndefined: true } : a;
    }
    return out;
  }

  function safe(value: unknown, depth: number, seen: unknown[]): unknown {
    if (value === null || typeof value === "boolean" || typeof value === "string") return value;
    if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
    if (typeof value === "bigint") return `${value}n`;
    if (typeof value === "undefined") return null;
    if (typeof value === "symbol") return String(value);
    if (typeof value === "function") return `[Function ${(value as { name?: string }).name || "anonymous"}]`;
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
      if (value instanceof MapCtor) return safe(Array.from(value.entries()), depth, seen);
      if (value instanceof Set) return safe(Array.from(value.values()), depth, seen);
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
      const out: Record<string, unknown> = {};
      let count = 0;
      for (const key of Object.keys(value as object)) {
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

  function makeScope(token: string): object {
    function call(target: string, pageId: string, method: string, args: unknown[], chain?: unknown[]): Promise<unknown> {
      return callAsync({ op: "call", token, target, pageId, method, args: encodeArgs(args), chain });
    }
    function locatorFacade(pageId: string, chain: { m: string; a: unknown[] }[]): object {
      const loc = create(null);
      for (const m of spec.locator.builders) {
        loc[m] = (...args: unknown[]) => locatorFacade(pageId, [...chain, { m, a: encodeArgs(args) }]);
      }
      for (const m of spec.locator.async) loc[m] = (...args: unknown[]) => call("locator", pageId, m, args, chain);
      return freeze(loc);
    }
    const pageFacades = new MapCtor<string, object>();
    function pageFacade(pageId: string): object {
      const known = apply(mapGet, pageFacades, [pageId]);
      if (known) return known as object;
      const p = create(null);
      for (const m of spec.page.async) p[m] = (...args: unknown[]) => call("page", pageId, m, args);
      for (const m of spec.page.sync) p[m] = (...args: unknown[]) => callSync({ op: "callSync", token, target: "page", pageId, method: m, args: encodeArgs(args) });
      for (const m of spec.locator.builders) {
        if (m === "locator" || m.startsWith("getBy")) p[m] = (...args: unknown[]) => locatorFacade(pageId, [{ m, a: encodeArgs(args) }]);
      }
      const keyboard = create(null), mouse = create(null);
      for (const m of spec.keyboard.async) keyboard[m] = (...args: unknown[]) => call("keyboard", pageId, m, args);
      for (const m of spec.mouse.async) mouse[m] = (...args: unknown[]) => call("mouse", pageId, m, args);
      p.keyboard = freeze(keyboard);
      p.mouse = freeze(mouse);
      p.pageId = pageId;
      freeze(p);
      apply(mapSet, pageFacades, [pageId, p]);
      return p;
    }
    const scope = create(null);
    defineProperty(scope, "page", { get: () => pageFacade(callSync({ op: "activePage", token })), enumerable: true });
    scope.state = state;
    scope.pages = () => callSync({ op: "pages", token });
    scope.openPage = (url?: string) => apply(promiseThen, callAsync({ op: "openPage", token, url }), [(id: string) => pageFacade(id)]);
    scope.usePage = (pageId: string) => pageFacade(callSync({ op: "usePage", token, pageId }));
    scope.closePage = (pageId?: string) => callAsync({ op: "closePage", token, pageId });
    const con = create(null);
    for (const type of ["log", "info", "warn", "error", "debug"]) {
      con[type] = (...args: unknown[]) => { callSync({ op: "console", token, type, text: format(args) }); };
    }
    scope.console = freeze(con);
    // Service globals (credentials.fill, screenshot…), generated from their names.
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
    for (const group of Object.keys(groups)) scope[group] = freeze(groups[group]);
    scope.setTimeout = (fn: unknown, ms?: number, ...args: unknown[]) => {
      if (typeof fn !== "function") throw makeError({ name: "TypeError", message: "setTimeout needs a function" });
      const id = callSync({ op: "setTimeout", token, ms: Number(ms) || 0 }) as number;
      apply(mapSet, liveTimers, [id, () => apply(fn, undefined, args)]);
      return id;
    };
    scope.clearTimeout = (id: number) => {
      apply(mapDelete, liveTimers, [id]);
      callSync({ op: "clearTimeout", token, id });
    };
    return freeze(scope);
  }

  const state = create(null);
  const liveTimers = new MapCtor<number, () => void>();

  function finish(token: string, ok: boolean, value: unknown): void {
    let payload: unknown;
    if (ok) {
      payload = { op: "done", token, ok: true, value: value === undefined ? { __bwUndefined: true } : safe(value, 0, []) };
    } else {
      const e = value as { name?: unknown; message?: unknown; stack?: unknown } | null;
      const isErr = e !== null && typeof e === "object";
      payload = {
        op: "done", token, ok: false,
        error: { name: isErr ? String(e.name ?? "Error") : "Error", message: isErr ? String(e.message ?? "") : String(value), stack: isErr && typeof e.stack === "string" ? e.stack : undefined },
      };
    }
    hostSync(stringify(payload));
  }

  return freeze({
    run(compiled: (scope: object) => unknown, token: string) {
      let result: unknown;
      try {
        result = compiled(makeScope(token));
      } catch (error) {
        finish(token, false, error);
        return;
      }
      apply(promiseThen, PromiseCtor.resolve(result), [(v: unknown) => finish(token, true, v), (e: unknown) => finish(token, false, e)]);
    },
    error(message: string) {
      return makeError({ name: "Error", message });
    },
    fire(timerId: number) {
      const fn = apply(mapGet, liveTimers, [timerId]) as (() => void) | undefined;
      if (!fn) return;
      apply(mapDelete, liveTimers, [timerId]);
      try { fn(); } catch { /* a throwing timer callback cannot reach the run's result */ }
    },
  });
}
