// One vm context per session: code generation off, the error hooks pinned and
// the primordials captured before anything else, the bootstrap installed, and
// the two host functions that are its only way out. Messages from the context
// are strings in both directions; a host error never crosses as an object
// (its constructor chain would lead to the host's Function), and nothing the
// context returns or throws is ever read, formatted or inspected here.
import { types } from "node:util";
import vm from "node:vm";
import { sandboxBootstrap, type ContextApi, type ContextParts, type HostAsync, type HostSync } from "./in-context/bootstrap.js";
import { compileScript, type CompiledSnippet } from "./compile.js";
import { contextBuiltins } from "./in-context/context-builtins.js";
import { contextEvents } from "./in-context/context-events.js";
import { contextFacades } from "./in-context/context-facades.js";
import { contextPrimordials } from "./in-context/context-primordials.js";
import { contextState, type ObjectKind } from "./in-context/context-state.js";
import { contextValues } from "./in-context/context-values.js";
import { withoutColours } from "../../../shared/safe-text.js";
import { FACADE_SPEC } from "../facades/facade-spec.js";
import { pureCall } from "./host-pure.js";
import { checkContextRequest, type HostRequest, type PureRequest } from "./realm-messages.js";
import { ScriptCache } from "./script-cache.js";

export interface ErrorReply {
  name: string;
  message: string;
  code?: string;
}

export interface SnippetContextOptions {
  /** The service globals' dotted names (scope-functions.ts). */
  scope?: { async: string[]; sync: string[] };
  /** Console calls a run passes to the host; past it they return at once. */
  consoleCap?: number;
  /** A page call's arguments past `max` characters of JSON are refused in the context with `message` (lane-budget.ts). */
  argsCap?: { max: number; message: string };
}

const DEFAULT_CONSOLE_CAP = 200;

export interface SandboxHost {
  sync(message: HostRequest): unknown;
  async(message: HostRequest): Promise<unknown>;
}

export function toErrorReply(error: unknown): ErrorReply {
  if (error && typeof error === "object") {
    const e = error as { name?: unknown; message?: unknown; code?: unknown };
    // Playwright colours its call logs; a snippet (and its envelope) gets the plain text.
    const reply: ErrorReply = { name: String(e.name ?? "Error"), message: withoutColours(String(e.message ?? "")) };
    if (typeof e.code === "string") reply.code = e.code;
    return reply;
  }
  return { name: "Error", message: String(error) };
}

/** A host value as it enters a context: JSON text, `undefined` as null. */
export function valueJson(value: unknown): string {
  return JSON.stringify(value === undefined ? null : value);
}

function parseMessage(text: unknown): HostRequest | PureRequest {
  if (typeof text !== "string") throw new TypeError("sandbox message must be a string");
  return checkContextRequest(JSON.parse(text));
}

export class SnippetContext {
  private readonly context: vm.Context;
  private readonly api: ContextApi;
  private readonly scripts = new ScriptCache();

  constructor(name: string, host: SandboxHost, options: SnippetContextOptions = {}) {
    const scope = options.scope ?? { async: [], sync: [] };
    this.context = vm.createContext(Object.create(null), {
      name: `betterwright session ${name}`,
      codeGeneration: { strings: false, wasm: false },
    });
    const hostSync: HostSync = (text) => {
      try {
        const message = parseMessage(text);
        const value = message.ask === "pure" ? pureCall(message.name, message.args) : host.sync(message);
        return JSON.stringify({ value: value === undefined ? null : value });
      } catch (error) {
        return JSON.stringify({ error: toErrorReply(error) });
      }
    };
    const hostAsync: HostAsync = (text, resolve, reject) => {
      let message: HostRequest;
      try {
        const parsed = parseMessage(text);
        if (parsed.ask === "pure") throw new TypeError("pure requests are synchronous");
        message = parsed;
      } catch (error) {
        reject(JSON.stringify(toErrorReply(error)));
        return;
      }
      host.async(message).then(
        (value) => resolve(valueJson(value)),
        (error: unknown) => reject(JSON.stringify(toErrorReply(error))),
      );
    };
    // Each part is compiled from its own source text, so everything it makes belongs to the context.
    const compileInContext = <T>(fn: T, filename: string): T =>
      new vm.Script(`(${String(fn)})`, { filename }).runInContext(this.context) as T;
    // The primordials run first: they pin the error hooks before any other code of the context exists.
    const primordials = compileInContext(contextPrimordials, "betterwright-primordials.js")();
    const parts: ContextParts = {
      primordials,
      values: compileInContext(contextValues, "betterwright-values.js"),
      builtins: compileInContext(contextBuiltins, "betterwright-builtins.js"),
      facades: compileInContext(contextFacades, "betterwright-facades.js"),
      events: compileInContext(contextEvents, "betterwright-events.js"),
      state: compileInContext(contextState, "betterwright-state.js"),
      kindOf,
    };
    const bootstrap = compileInContext(sandboxBootstrap, "betterwright-sandbox.js");
    this.api = bootstrap(hostSync, hostAsync, JSON.stringify({ ...FACADE_SPEC, scope, consoleCap: options.consoleCap ?? DEFAULT_CONSOLE_CAP, argsCap: options.argsCap ?? null }), parts);
  }

  compile(code: string, filename: string): CompiledSnippet {
    const options = { context: this.context, filename, rejectImport: () => this.api.error("import() is not available in snippets") };
    return this.scripts.get(`${filename}\n${code}`, () => compileScript(code, options)).runInContext(this.context) as CompiledSnippet;
  }

  // Each entry below calls into the context, where a snippet may have left
  // getters, proxies or replaced built-ins behind. They return normally
  // whatever happens there, and never look at what was thrown.

  /** Starts the run; false when the context refused to (the run then ends at its deadline). */
  /** `argsJson`: the snippet's `args` as JSON text, parsed inside the context. */
  run(compiled: CompiledSnippet, token: string, argsJson?: string): boolean {
    return contained(() => this.api.run(compiled, token, argsJson ?? null));
  }

  fireTimer(id: number): void {
    contained(() => this.api.fire(id));
  }

  /** Drops the run's timers and event handlers inside the context. */
  endRun(token: string): void {
    contained(() => this.api.end(token));
  }

  /**
   * What a retired realm would leave behind: `state` as text (absent when it is empty), or `carry: false` when the
   * context holds what cannot be carried (a run, a changed global, a value that is not plain data, past `maxChars`).
   */
  exportState(maxChars: number): { carry: false } | { carry: true; state?: string } {
    let text: unknown = null;
    contained(() => { text = this.api.exportState(maxChars); });
    if (typeof text !== "string") return { carry: false };
    return text === "" ? { carry: true } : { carry: true, state: text };
  }

  /** Rebuilds exported `state` in this fresh context; false when it could not. */
  importState(text: string): boolean {
    return contained(() => this.api.importState(text));
  }

  /** Hands a page event to the run's handlers; false when it has none for it. */
  emit(token: string, event: Record<string, unknown>): boolean {
    let delivered = false;
    contained(() => { delivered = this.api.emit(token, JSON.stringify(event)) === true; });
    return delivered;
  }
}

/**
 * What kind of object a context value is, for state export (context-state.ts): "opaque" for a Proxy or an object
 * whose data lies in slots export does not carry. Each check looks at what the object is, never at what it holds.
 */
function kindOf(value: object): ObjectKind {
  if (types.isProxy(value)) return "opaque";
  if (Array.isArray(value)) return "array";
  if (types.isMap(value)) return "map";
  if (types.isSet(value)) return "set";
  if (types.isDate(value)) return "date";
  if (types.isRegExp(value)) return "regexp";
  const opaque = types.isExternal(value) || types.isPromise(value) || types.isBoxedPrimitive(value) || types.isAnyArrayBuffer(value)
    || types.isArrayBufferView(value) || types.isWeakMap(value) || types.isWeakSet(value) || types.isNativeError(value)
    || types.isGeneratorObject(value) || types.isArgumentsObject(value) || types.isMapIterator(value) || types.isSetIterator(value)
    || types.isModuleNamespaceObject(value) || typeof value === "function";
  return opaque ? "opaque" : "object";
}

/** Runs a call into the context; true when it returned. What it threw stays unread. */
function contained(call: () => void): boolean {
  try {
    call();
    return true;
  } catch {
    return false;
  }
}
