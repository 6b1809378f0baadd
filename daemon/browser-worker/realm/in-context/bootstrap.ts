// Code that runs INSIDE the snippet's vm context. Its source text is compiled
// in the context (`sandboxBootstrap.toString()`), so it must not refer to
// anything outside its own body. The host hands it two host functions, which
// it keeps in this closure and only ever calls with strings (and one check,
// `kindOf`, that looks at what a value is and runs none of it); every value
// it gives the snippet is made here, in the context's realm. Snippet code
// (the run, timer callbacks, event handlers) is always started from a
// context promise job, so no host frame sits below it on the stack.
//
// The rules of code in this position (docs/architecture.md, "The sandbox"):
// only the primordials captured before any snippet ran, never a global or a
// prototype method looked up later; records we make have a null prototype;
// no iteration protocol, no Array species, no `then` lookups on our paths;
// every entry the host calls returns normally whatever the snippet did.
/* eslint-disable */
import type { contextBuiltins } from "./context-builtins.js";
import type { contextEvents } from "./context-events.js";
import type { contextFacades, RunFacades } from "./context-facades.js";
import type { Primordials } from "./context-primordials.js";
import type { contextState, ObjectKind } from "./context-state.js";
import type { contextValues } from "./context-values.js";

export type HostSync = (message: string) => string;
export type HostAsync = (message: string, resolve: (json: string) => void, reject: (json: string) => void) => void;

/** Context-realm functions compiled from their own source text, handed to the bootstrap. */
export interface ContextParts {
  primordials: Primordials;
  values: typeof contextValues;
  builtins: typeof contextBuiltins;
  facades: typeof contextFacades;
  events: typeof contextEvents;
  state: typeof contextState;
  /**
   * The one host function that takes a context value (util.types checks, see context.ts): it runs no trap, getter or
   * other code of the value and returns a boolean. Kept in this closure like the other two.
   */
  kindOf(value: object): ObjectKind;
}

export interface ContextApi {
  /** Starts a compiled snippet (its `args` as JSON text, or null); completion arrives at the host as a `done` message. */
  run(compiled: (scope: object) => unknown, token: string, argsJson: string | null): void;
  /** The run is over: its timers and event handlers are dropped and never called again. */
  end(token: string): void;
  /** An Error made in the context's realm, for host code that must throw into it. */
  error(message: string): Error;
  /** Delivers a host timer firing into the context. */
  fire(timerId: number): void;
  /** Delivers a page event (JSON) to the run's handlers; false when it has none for it. */
  emit(token: string, eventJson: string): boolean;
  /**
   * `state` as text to rebuild in a fresh context (context-state.ts), "" when it is empty; null when the context
   * holds what cannot be carried: a run, a changed global, or a value in `state` that is not plain data or passes `maxChars`.
   */
  exportState(maxChars: number): string | null;
  /** Rebuilds exported `state` in this fresh context; throws on text export did not write. */
  importState(text: string): void;
}

export function sandboxBootstrap(hostSync: HostSync, hostAsync: HostAsync, specJson: string, parts: ContextParts): ContextApi {
  "use strict";
  const P = parts.primordials;
  const { apply, ObjectCreate: create, ObjectFreeze: freeze, ObjectDefineProperty: defineProperty, ObjectKeys: keysOf, ObjectHasOwn: hasOwn } = P;
  const { JSONParse: parse, JSONStringify: stringify, String: toStr, Number: toNum, PromiseCtor, ErrorCtor } = P;
  const { StringPrototypeIndexOf, StringPrototypeSlice } = P;
  const { MapCtor, MapPrototypeGet, MapPrototypeSet, MapPrototypeDelete, MapPrototypeHas, MapPrototypeEntriesArray, MapPrototypeGetSize } = P;
  const V = parts.values(P);
  const { record, parseData, later } = V;
  const spec = parseData(specJson);

  function makeError(shape: { name?: unknown; message?: unknown; code?: unknown }): Error {
    const field = (key: string) => (hasOwn(shape, key) ? (shape as Record<string, unknown>)[key] : undefined);
    const message = field("message"), name = field("name"), code = field("code");
    const error = new ErrorCtor(typeof message === "string" ? message : "error");
    if (typeof name === "string" && name !== "") defineProperty(error, "name", { value: name, configurable: true, writable: true });
    if (typeof code === "string" && code !== "") {
      defineProperty(error, "code", { value: code, configurable: true, writable: true, enumerable: true });
      // Kept apart from the property the snippet can rewrite: a refusal it lets through keeps its code.
      V.markCode(error, code);
    }
    return error;
  }
  const mk = (name: string, message: string) => makeError(record({ name, message }));

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
    const reply = parse(host(stringify(message)!));
    if (hasOwn(reply, "error")) throw makeError(reply.error);
    return reply.value;
  }

  function callAsync(message: object): Promise<any> {
    return new PromiseCtor((resolve, reject) => {
      const text = stringify(message)!;
      try {
        hostAsync(text, (json) => resolve(parse(json)), (json) => reject(makeError(parseData(json))));
      } catch {
        reject(mk("Error", "the call did not reach the browser (stack exhausted?)"));
      }
    });
  }

  const builtins = parts.builtins((name, args) => callSync(record({ ask: "pure", name, args })), mk);
  const argsCap = spec.argsCap ? record({ max: spec.argsCap.max as number, error: () => makeError(record({ name: "Error", message: spec.argsCap.message, code: "LIMIT_EXCEEDED" })) }) : undefined;
  const facades = parts.facades({ P, V, spec, callSync, callAsync, makeError: mk, URLCtor: builtins.URL as unknown as new (url: string) => object, argsCap });

  // The context's global: null prototype, plus the session-wide pure built-ins.
  P.ObjectSetPrototypeOf(globalThis, null);
  const builtinNames = keysOf(builtins);
  for (let i = 0; i < builtinNames.length; i++) {
    defineProperty(globalThis, builtinNames[i]!, { value: (builtins as Record<string, unknown>)[builtinNames[i]!], writable: true, configurable: true });
  }

  // The global as snippets first see it: a realm whose global and `state` still match holds nothing of theirs.
  const baseline = new MapCtor<PropertyKey, PropertyDescriptor | undefined>();
  const globalKeys = P.ReflectOwnKeys(globalThis);
  for (let i = 0; i < globalKeys.length; i++) MapPrototypeSet(baseline, globalKeys[i]!, P.ObjectGetOwnPropertyDescriptor(globalThis, globalKeys[i]!));
  // A descriptor's field read as its own: one it lacks is never looked up on a prototype a snippet may have changed.
  const field = (d: PropertyDescriptor, key: string): unknown => (hasOwn(d, key) ? (d as Record<string, unknown>)[key] : undefined);
  // Node builds a descriptor of the global's own properties through its context interceptor, and V8 reads it like
  // any object: with one of these on Object.prototype the descriptor is invalid and V8 aborts the process.
  const DESCRIPTOR_FIELDS = ["get", "set", "value", "writable", "enumerable", "configurable"];
  function globalUnchanged(): boolean {
    for (let i = 0; i < DESCRIPTOR_FIELDS.length; i++) if (hasOwn(P.ObjectPrototype, DESCRIPTOR_FIELDS[i]!)) return false;
    const keys = P.ReflectOwnKeys(globalThis);
    if (keys.length !== P.MapPrototypeGetSize(baseline)) return false;
    for (let i = 0; i < keys.length; i++) {
      const was = MapPrototypeGet(baseline, keys[i]!), now = P.ObjectGetOwnPropertyDescriptor(globalThis, keys[i]!);
      if (was === undefined || now === undefined) return false;
      const before = field(was, "value"), after = field(now, "value");
      // NaN is the one value not equal to itself.
      if (before !== after && (before === before || after === after)) return false;
      if (field(was, "get") !== field(now, "get") || field(was, "set") !== field(now, "set")) return false;
    }
    return true;
  }

  interface RunState { facades: RunFacades | null }
  interface Timer { token: string; fn: () => void; repeat: boolean }
  const runs = new MapCtor<string, RunState>();
  const timers = new MapCtor<number, Timer>();
  const state = create(null);
  const carried = parts.state(record({ P, parseData, kindOf: parts.kindOf }));

  function live(token: string): RunState | undefined {
    return MapPrototypeGet(runs, token);
  }

  function report(token: string, what: string, error: unknown): void {
    let message: string;
    try {
      message = error !== null && typeof error === "object" ? toStr((error as Error).message) : toStr(error);
    } catch {
      message = "(an error that cannot be read)";
    }
    try { callSync(record({ ask: "console", token, type: "error", text: `${what} threw: ${message}` })); } catch { /* the run is over */ }
  }

  const events = parts.events({ P, V, callSync, callAsync, makeError, report, facadesOf: (token) => live(token)?.facades ?? null });

  // The snippet's scope (the object of its `with`): one frozen object a run on a prototype made once per context, whose
  // getters find the run through a WeakMap and make what the snippet reaches for on first use, bound to that run. A run
  // that touches only `page` makes no console, timers or service functions; each one made still works for its run only.
  interface ScopeRun { token: string; argsJson: string | null; pages: RunFacades; made: Record<string, unknown> }
  const scopeRuns = new P.WeakMapCtor<object, ScopeRun>();
  const scopeProto = create(null);
  function runOf(self: unknown): ScopeRun {
    const run = self !== null && typeof self === "object" ? P.WeakMapPrototypeGet(scopeRuns, self) : undefined;
    if (run === undefined) throw mk("TypeError", "not a snippet's scope");
    return run;
  }
  /** A scope name whose value `make` builds once per run, on first use. */
  function perRun(name: string, make: (run: ScopeRun) => unknown): void {
    defineProperty(scopeProto, name, {
      get(this: unknown) {
        const run = runOf(this);
        return hasOwn(run.made, name) ? run.made[name] : (run.made[name] = make(run));
      },
      enumerable: true,
    });
  }
  defineProperty(scopeProto, "page", { get(this: unknown) { const run = runOf(this); return run.pages.page(callSync(record({ ask: "activePage", token: run.token }))); }, enumerable: true });
  defineProperty(scopeProto, "state", { value: state, enumerable: true });
  // The run's JSON data: ordinary objects of the context, the snippet's own to change.
  perRun("args", (run) => (run.argsJson === null ? undefined : parse(run.argsJson)));
  perRun("pages", ({ token }) => () => callSync(record({ ask: "pages", token })));
  perRun("openPage", ({ token, pages }) => async (url?: string) => pages.page(await callAsync(record({ ask: "openPage", token, url: url === undefined ? null : toStr(url) }))));
  perRun("usePage", ({ token, pages }) => (pageId: string) => pages.page(callSync(record({ ask: "usePage", token, pageId: toStr(pageId) }))));
  perRun("closePage", ({ token }) => (pageId?: string) => callAsync(record({ ask: "closePage", token, pageId: pageId === undefined ? null : toStr(pageId) })));
  const CONSOLE = ["log", "info", "warn", "error", "debug", "dir", "table", "trace"];
  perRun("console", ({ token }) => {
    const con = create(null);
    // Past the run's cap the entries would be dropped anyway: a console call then costs next to nothing.
    let logged = 0;
    for (let i = 0; i < CONSOLE.length; i++) {
      const type = CONSOLE[i]!;
      const as = type === "dir" || type === "table" || type === "trace" ? "log" : type;
      con[type] = (...args: unknown[]) => {
        if (logged >= spec.consoleCap) return;
        logged++;
        callSync(record({ ask: "console", token, type: as, text: V.format(args) }));
      };
    }
    return freeze(con);
  });
  // Service globals (credentials.fill, screenshot, snapshot…), generated from their names; dotted ones in groups.
  const serviceFn = (token: string, kind: string, name: string) => kind === "async"
    ? (...args: unknown[]) => callAsync(record({ ask: "scope", token, name, args: V.encodeArgs(args) }))
    : (...args: unknown[]) => callSync(record({ ask: "scope", token, name, args: V.encodeArgs(args) }));
  const groups = create(null);
  const KINDS = ["async", "sync"];
  for (let k = 0; k < KINDS.length; k++) {
    const kind = KINDS[k]!;
    const names = spec.scope[kind] as string[];
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const dot = StringPrototypeIndexOf(name, ".");
      if (dot === -1) perRun(name, ({ token }) => serviceFn(token, kind, name));
      else {
        const group = StringPrototypeSlice(name, 0, dot);
        groups[group] ??= create(null);
        groups[group][StringPrototypeSlice(name, dot + 1)] = record({ kind, name });
      }
    }
  }
  const groupNames = keysOf(groups);
  for (let i = 0; i < groupNames.length; i++) {
    const members = groups[groupNames[i]!] as Record<string, { kind: string; name: string }>;
    perRun(groupNames[i]!, ({ token }) => {
      const group = create(null);
      const keys = keysOf(members);
      for (let j = 0; j < keys.length; j++) group[keys[j]!] = serviceFn(token, members[keys[j]!]!.kind, members[keys[j]!]!.name);
      return freeze(group);
    });
  }
  // Timeouts and intervals share one id space, as in browsers: either clear function clears either.
  const timer = (kind: "setTimeout" | "setInterval") => ({ token }: ScopeRun) => (fn: unknown, ms?: number, ...args: unknown[]) => {
    if (typeof fn !== "function") throw mk("TypeError", `${kind} needs a function`);
    const id = callSync(record({ ask: kind, token, ms: toNum(ms) || 0 })) as number;
    MapPrototypeSet(timers, id, record({ token, fn: () => apply(fn, undefined, args), repeat: kind === "setInterval" }) as Timer);
    return id;
  };
  const clear = ({ token }: ScopeRun) => (id: number) => {
    MapPrototypeDelete(timers, id);
    callSync(record({ ask: "clearTimeout", token, id }));
  };
  perRun("setTimeout", timer("setTimeout"));
  perRun("setInterval", timer("setInterval"));
  perRun("clearTimeout", clear);
  perRun("clearInterval", clear);
  freeze(scopeProto);

  function makeScope(token: string, rs: RunState, argsJson: string | null): object {
    const pages = facades.forRun(token, events.hooks(token));
    rs.facades = pages;
    const scope = freeze(create(scopeProto));
    P.WeakMapPrototypeSet(scopeRuns, scope, record({ token, argsJson, pages, made: create(null) }));
    return scope;
  }

  function outcome(token: string, ok: boolean, value: unknown): string {
    if (ok) return stringify(record({ ask: "done", token, ok: true, value: value === undefined ? record({ __bwUndefined: true }) : V.safe(value) }))!;
    return stringify(record({ ask: "done", token, ok: false, error: V.errorShape(value) }))!;
  }

  function finish(token: string, ok: boolean, value: unknown): void {
    let payload: string;
    try {
      payload = outcome(token, ok, value);
    } catch {
      payload = stringify(record({ ask: "done", token, ok: false, error: record({ name: "Error", message: "the snippet's outcome could not be read" }) }))!;
    }
    try { host(payload); } catch { /* the stack is exhausted: the run ends at its deadline */ }
  }

  return freeze(record({
    run(compiled: (scope: object) => unknown, token: string, argsJson: string | null) {
      const rs: RunState = record({ facades: null });
      MapPrototypeSet(runs, token, rs);
      later(async () => {
        if (!live(token)) return;
        let result: unknown;
        try {
          result = await compiled(makeScope(token, rs, argsJson));
        } catch (error) {
          finish(token, false, error);
          return;
        }
        finish(token, true, result);
      });
    },
    end(token: string) {
      MapPrototypeDelete(runs, token);
      events.drop(token);
      const all = MapPrototypeEntriesArray(timers);
      for (let i = 0; i < all.length; i++) if ((all[i]![1] as Timer).token === token) MapPrototypeDelete(timers, all[i]![0] as number);
    },
    error(message: string) {
      return mk("Error", message);
    },
    fire(timerId: number) {
      const t = MapPrototypeGet(timers, timerId);
      if (!t) return;
      if (!t.repeat) MapPrototypeDelete(timers, timerId);
      later(() => {
        // A cleared interval may still have had a tick queued.
        if (!live(t.token) || (t.repeat && !MapPrototypeHas(timers, timerId))) return;
        try { t.fn(); } catch (e) { report(t.token, t.repeat ? "a setInterval callback" : "a setTimeout callback", e); }
      });
    },
    emit: (token: string, eventJson: string) => events.emit(token, eventJson),
    exportState(maxChars: number) {
      if (MapPrototypeGetSize(runs) !== 0 || !globalUnchanged()) return null;
      return carried.exportState(state, maxChars);
    },
    importState: (text: string) => carried.importState(state, text),
  }) as ContextApi);
}
