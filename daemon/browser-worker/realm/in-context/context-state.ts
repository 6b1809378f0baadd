// Carries a session's `state` across a retired realm, INSIDE the context (its
// source text is compiled there and refers to nothing outside its body).
// Export writes the graph under `state` as typed JSON text when every value in
// it is plain data (what structured clone carries); import rebuilds it in a
// fresh context. Export reads a snippet's objects without running any of its
// code: what kind of object each is (a Proxy, an array, a Map…) is asked of
// the host's util.types checks before it is touched (they run no trap, and
// throw nothing), accessors are
// never read, nothing is looked up on a prototype (every array and record of
// ours has none), and every other read is a brand-checking intrinsic. Anything it
// cannot carry exactly (a function, a class instance, a symbol, an accessor, a
// frozen or hidden property, a value past the size cap) makes it answer null:
// the realm then stays, and nothing is lost.
/* eslint-disable */
import type { Primordials } from "./context-primordials.js";

export interface ContextState {
  /** `state` as JSON text ("" when it is empty), or null when some of it cannot be carried exactly or the text would pass `maxChars`. */
  exportState(state: object, maxChars: number): string | null;
  /** Rebuilds exported text into `state` (a fresh, empty one); throws on text it did not write. */
  importState(state: object, text: string): void;
}

/**
 * The text: an array of nodes, node 0 being `state`. A node is
 * ["o", 1 | 0 (Object.prototype | null), key, value, …], ["a", length, key, value, …],
 * ["m", key, value, …], ["s", value, …], ["d", time] or ["r", source, flags, lastIndex].
 * A value is a string, boolean, null, a finite number other than -0, or
 * ["u"] (undefined), ["n", "NaN" | "Infinity" | "-Infinity" | "-0"], ["b", digits] (bigint), ["@", node].
 */
export interface ContextStateParts {
  P: Primordials;
  /** JSON.parse into null-prototype trees (context-values.ts). */
  parseData(text: string): any;
  /** A host check that runs no code of the value (daemon/browser-worker/realm/context.ts): "opaque" for a Proxy, or an object whose data lies in slots export does not carry. */
  kindOf(value: object): ObjectKind;
}

export type ObjectKind = "opaque" | "array" | "map" | "set" | "date" | "regexp" | "object";

export function contextState(parts: ContextStateParts): ContextState {
  "use strict";
  const { P, parseData, kindOf } = parts;
  // Taken before any snippet ran. The global is no data: its properties are read through Node's interceptor.
  const theGlobal: object = globalThis;
  const { ObjectCreate: create, ObjectDefineProperty: defineProperty, ObjectGetOwnPropertyDescriptor: describe, ObjectHasOwn: hasOwn } = P;
  const { ObjectGetPrototypeOf: protoOf, ObjectIsExtensible: isExtensible, ReflectOwnKeys: ownKeys, ArrayPrototypePush: push } = P;
  const { MapCtor, MapPrototypeGet: mapGet, MapPrototypeSet: mapSet, MapPrototypeGetSize, SetPrototypeGetSize, ArrayIsArray: isArray } = P;
  /** The prototype each kind of object must have to be carried: another one makes it a class instance, or a trick. */
  const PROTO = create(null) as Record<ObjectKind, unknown>;
  PROTO.array = P.ArrayPrototype; PROTO.map = P.MapPrototype; PROTO.set = P.SetPrototype; PROTO.date = P.DatePrototype; PROTO.regexp = P.RegExpPrototype;
  const { JSONStringify: stringify, String: toStr, NumberIsNaN, ObjectSetPrototypeOf: setProto } = P;
  /** An array with a null prototype: neither a push nor JSON.stringify meets anything a snippet put on Array.prototype. */
  const tuple = (...items: unknown[]): unknown[] => setProto(items, null);

  /** Returned by the walk when the graph holds something it cannot carry. */
  const NO = create(null);

  function exportState(state: object, maxChars: number): string | null {
    const nodes: unknown[] = tuple();
    const index = new MapCtor<object, number>();
    const queue: object[] = tuple() as object[];
    let head = 0;
    let chars = 0;
    /** Counts `n` more characters of the text; false once past the cap. */
    const spend = (n: number) => (chars += n) <= maxChars;

    function ref(obj: object): unknown {
      const known = mapGet(index, obj);
      if (known !== undefined) return tuple("@", known);
      const at = nodes.length;
      mapSet(index, obj, at);
      push(nodes, null);
      push(queue, obj);
      return tuple("@", at);
    }

    function value(v: unknown): unknown {
      if (!spend(8)) return NO;
      switch (typeof v) {
        case "string": return spend(v.length) ? v : NO;
        case "boolean": return v;
        case "undefined": return tuple("u");
        case "number":
          if (NumberIsNaN(v)) return tuple("n", "NaN");
          if (v === 0 && 1 / v < 0) return tuple("n", "-0");
          if (v === 1 / 0 || v === -1 / 0) return tuple("n", toStr(v));
          return v;
        case "bigint": {
          const digits = toStr(v);
          return spend(digits.length) ? tuple("b", digits) : NO;
        }
        case "object":
          return v === null ? null : ref(v);
        default:
          // Functions and symbols are not data.
          return NO;
      }
    }

    /** Appends the own data properties of `obj` to `out` as key, value, …; false for a symbol key, an accessor, or a hidden, read-only or fixed property. */
    function properties(obj: object, out: unknown[], skip: string | null): boolean {
      if (!isExtensible(obj)) return false;
      const keys = ownKeys(obj);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (typeof key !== "string") return false;
        if (key === skip) continue;
        const d = describe(obj, key)!;
        if (hasOwn(d, "get") || !d.enumerable || !d.writable || !d.configurable) return false;
        const v = value(d.value);
        if (v === NO || !spend(key.length + 4)) return false;
        push(out, key);
        push(out, v);
      }
      return true;
    }

    /** The node of one object reached from `state`; NO when it is not plain data. */
    function node(obj: object, root: boolean): unknown[] | typeof NO {
      const kind = kindOf(obj);
      if (kind === "opaque" || obj === theGlobal) return NO;
      const proto = protoOf(obj);
      if (root) {
        const out = tuple("o", 0);
        return kind === "object" && proto === null && properties(obj, out, null) ? out : NO;
      }
      if (kind === "object") {
        if (proto !== P.ObjectPrototype && proto !== null) return NO;
        const out = tuple("o", proto === null ? 0 : 1);
        return properties(obj, out, null) ? out : NO;
      }
      if (proto !== PROTO[kind] || !isExtensible(obj)) return NO;
      // An array's keys are listed only once its length is known to fit.
      const keys = kind === "array" ? tuple() : ownKeys(obj);
      switch (kind) {
        case "array": {
          const length = (obj as unknown[]).length;
          // A length past the cap could not be carried anyway: its keys are never listed.
          if (!describe(obj, "length")!.writable || !spend(length)) return NO;
          const out = tuple("a", length);
          return properties(obj, out, "length") ? out : NO;
        }
        case "map": {
          if (keys.length !== 0 || !spend(16 * MapPrototypeGetSize(obj))) return NO;
          const entries = P.MapPrototypeEntriesArray(obj as Map<unknown, unknown>);
          const out = tuple("m");
          for (let i = 0; i < entries.length; i++) {
            const k = value(entries[i]![0]), v = value(entries[i]![1]);
            if (k === NO || v === NO) return NO;
            push(out, k);
            push(out, v);
          }
          return out;
        }
        case "set": {
          if (keys.length !== 0 || !spend(8 * SetPrototypeGetSize(obj))) return NO;
          const values = P.SetPrototypeValuesArray(obj as Set<unknown>);
          const out = tuple("s");
          for (let i = 0; i < values.length; i++) {
            const v = value(values[i]);
            if (v === NO) return NO;
            push(out, v);
          }
          return out;
        }
        case "date":
          return keys.length === 0 ? tuple("d", value(P.DatePrototypeGetTime(obj))) : NO;
        default: {
          // A RegExp: its one own property is lastIndex.
          if (keys.length !== 1 || keys[0] !== "lastIndex") return NO;
          const d = describe(obj, "lastIndex")!;
          const source = P.RegExpPrototypeGetSource(obj);
          if (hasOwn(d, "get") || !d.writable || typeof d.value !== "number" || !spend(source.length + 16)) return NO;
          return tuple("r", source, P.RegExpOwnFlags(obj), value(d.value));
        }
      }
    }

    try {
      ref(state);
      while (head < queue.length) {
        const at = head++;
        const n = node(queue[at]!, at === 0);
        if (n === NO) return null;
        nodes[at] = n;
      }
      // An empty `state` with nothing behind it: there is nothing to carry.
      if (nodes.length === 1 && (nodes[0] as unknown[]).length === 2) return "";
      const text = stringify(nodes)!;
      return text.length <= maxChars ? text : null;
    } catch {
      // Whatever went wrong (a stack or heap near its end), the realm stays and keeps its state.
      return null;
    }
  }

  function importState(state: object, text: string): void {
    const nodes = parseData(text) as unknown[][];
    if (!isArray(nodes) || nodes.length === 0) throw new P.ErrorCtor("not exported state");
    const objs = tuple() as object[];
    const put = (obj: object, key: string, v: unknown) =>
      defineProperty(obj, key, { __proto__: null, value: v, writable: true, enumerable: true, configurable: true } as PropertyDescriptor);
    // Made, not read from the global (whose properties go through Node's interceptor).
    const number = (tag: string) => (tag === "NaN" ? 0 / 0 : tag === "-0" ? -0 : tag === "Infinity" ? 1 / 0 : -1 / 0);
    function decode(v: unknown): unknown {
      if (!isArray(v)) return v;
      switch (v[0]) {
        case "u": return undefined;
        case "n": return number(v[1] as string);
        case "b": return P.BigInt(v[1] as string);
        case "@": return objs[v[1] as number];
        default: throw new P.ErrorCtor("not exported state");
      }
    }
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i]!;
      switch (n[0]) {
        case "o": push(objs, i === 0 ? state : n[1] === 1 ? {} : create(null)); break;
        case "a": push(objs, []); break;
        case "m": push(objs, new MapCtor()); break;
        case "s": push(objs, new P.SetCtor()); break;
        case "d": push(objs, new P.DateCtor(decode(n[1]) as number)); break;
        case "r": push(objs, new P.RegExpCtor(n[1] as string, n[2] as string)); break;
        default: throw new P.ErrorCtor("not exported state");
      }
    }
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i]!, obj = objs[i]!;
      switch (n[0]) {
        case "o":
          for (let j = 2; j < n.length; j += 2) put(obj, n[j] as string, decode(n[j + 1]));
          break;
        case "a":
          defineProperty(obj, "length", { __proto__: null, value: n[1] } as PropertyDescriptor);
          for (let j = 2; j < n.length; j += 2) put(obj, n[j] as string, decode(n[j + 1]));
          break;
        case "m":
          for (let j = 1; j < n.length; j += 2) mapSet(obj as Map<unknown, unknown>, decode(n[j]), decode(n[j + 1]));
          break;
        case "s":
          for (let j = 1; j < n.length; j++) P.SetPrototypeAdd(obj as Set<unknown>, decode(n[j]));
          break;
        case "r":
          (obj as RegExp).lastIndex = decode(n[3]) as number;
          break;
      }
    }
  }

  return P.ObjectFreeze({ __proto__: null, exportState, importState } as unknown as ContextState);
}
