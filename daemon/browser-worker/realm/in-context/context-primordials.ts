// The first code compiled into every snippet context, before anything else
// runs there. It pins the context's error hooks, so that no snippet can ever
// install the function V8 and Node call with host-realm call sites, and it
// captures the intrinsics the bootstrap, facades and events use, so that a
// snippet replacing a global or a prototype method changes nothing our code
// does (the "primordials" of Node's own core). Like every part compiled in
// the context, its source text runs there: it refers to nothing outside its body.
/* eslint-disable */

type Uncurried<F> = F extends (this: infer T, ...args: infer A) => infer R ? (self: T, ...args: A) => R : never;

export interface Primordials {
  apply: typeof Reflect.apply;
  ObjectCreate: typeof Object.create;
  ObjectFreeze: typeof Object.freeze;
  ObjectDefineProperty: typeof Object.defineProperty;
  ObjectKeys: typeof Object.keys;
  ObjectHasOwn: (o: object, key: PropertyKey) => boolean;
  ObjectSetPrototypeOf: typeof Object.setPrototypeOf;
  ObjectGetOwnPropertyDescriptor: typeof Object.getOwnPropertyDescriptor;
  ReflectOwnKeys: typeof Reflect.ownKeys;
  JSONParse: (text: string) => any;
  JSONStringify: (value: unknown, replacer?: (this: unknown, key: string, value: unknown) => unknown) => string | undefined;
  /** String(v): never throws for symbols; an object's own toString may still run. */
  String: (value: unknown) => string;
  Number: (value: unknown) => number;
  NumberIsFinite: (n: unknown) => boolean;
  NumberIsNaN: (n: unknown) => boolean;
  StringPrototypeSlice: Uncurried<typeof String.prototype.slice>;
  StringPrototypeIndexOf: Uncurried<typeof String.prototype.indexOf>;
  ArrayIsArray: typeof Array.isArray;
  ArrayPrototypePush: (array: unknown[], ...items: unknown[]) => number;
  ArrayPrototypeIndexOf: (array: readonly unknown[], item: unknown) => number;
  ArrayPrototypeJoin: (array: readonly unknown[], separator: string) => string;
  ArrayPrototypePop: (array: unknown[]) => unknown;
  MapCtor: MapConstructor;
  MapPrototypeGet: <K, V>(map: Map<K, V>, key: K) => V | undefined;
  MapPrototypeSet: <K, V>(map: Map<K, V>, key: K, value: V) => Map<K, V>;
  MapPrototypeHas: <K>(map: Map<K, unknown>, key: K) => boolean;
  MapPrototypeDelete: <K>(map: Map<K, unknown>, key: K) => boolean;
  /** The size getter of Map.prototype: throws for anything but a real Map (a brand check). */
  MapPrototypeGetSize: (map: unknown) => number;
  SetPrototypeGetSize: (set: unknown) => number;
  MapPrototypeEntriesArray: (map: Map<unknown, unknown>) => unknown[][];
  SetPrototypeValuesArray: (set: Set<unknown>) => unknown[];
  WeakMapCtor: WeakMapConstructor;
  WeakMapPrototypeGet: <K extends object, V>(map: WeakMap<K, V>, key: K) => V | undefined;
  WeakMapPrototypeSet: <K extends object, V>(map: WeakMap<K, V>, key: K, value: V) => WeakMap<K, V>;
  PromiseCtor: PromiseConstructor;
  ErrorCtor: ErrorConstructor;
  /** Function.prototype[Symbol.hasInstance]: `instanceof` without a lookup a snippet can replace. */
  isInstance: (value: unknown, ctor: Function) => boolean;
  /** Date.prototype.getTime: throws for anything but a Date (a brand check). */
  DatePrototypeGetTime: (date: unknown) => number;
  DatePrototypeToISOString: (date: unknown) => string;
  /** The source getter of RegExp.prototype: throws for anything but a RegExp (a brand check). */
  RegExpPrototypeGetSource: (re: unknown) => string;
  RegExpPrototypeGetFlags: (re: unknown) => string;
  FunctionPrototypeToString: (fn: unknown) => string;
  // What carrying `state` across a retired realm needs (context-state.ts): the intrinsic prototypes to compare with,
  // reads that run no code on anything but a Proxy, and the constructors that rebuild the values.
  ObjectGetPrototypeOf: typeof Object.getPrototypeOf;
  ObjectIsExtensible: typeof Object.isExtensible;
  ObjectPrototype: object;
  ArrayPrototype: object;
  MapPrototype: object;
  SetPrototype: object;
  DatePrototype: object;
  RegExpPrototype: object;
  SetCtor: SetConstructor;
  SetPrototypeAdd: <T>(set: Set<T>, value: T) => Set<T>;
  DateCtor: DateConstructor;
  RegExpCtor: RegExpConstructor;
  BigInt: (text: string) => bigint;
  /** A RegExp's flags from its own slots, one brand-checking getter each (the `flags` getter would read them as properties). */
  RegExpOwnFlags: (re: unknown) => string;
}

export function contextPrimordials(): Primordials {
  "use strict";
  const g = globalThis as any;
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;

  // The error hooks, pinned: Node calls `globalThis.Error.prepareStackTrace`
  // of the context with call sites made in the host's realm whenever host code
  // formats a context error's stack. No snippet may ever set it.
  const pinned = { writable: false, configurable: false, enumerable: false };
  const ERRORS = ["Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError", "AggregateError"];
  for (let i = 0; i < ERRORS.length; i++) defineProperty(g, ERRORS[i]!, { ...pinned, value: g[ERRORS[i]!] });
  const ErrorCtor = g.Error as ErrorConstructor;
  defineProperty(ErrorCtor, "prepareStackTrace", { ...pinned, value: undefined });
  defineProperty(ErrorCtor, "captureStackTrace", { ...pinned, value: ErrorCtor.captureStackTrace });
  defineProperty(ErrorCtor, "stackTraceLimit", { ...pinned, value: ErrorCtor.stackTraceLimit });
  // Its cleanup callbacks run from the host's event loop: a throwing one would be the host's uncaught exception.
  delete g.FinalizationRegistry;
  // Node reads descriptors of the context's global through an interceptor; V8 aborts the whole process
  // (a fatal error, no exception) when a descriptor it builds inherits `get`, `value`… from here. Nothing
  // may be added to Object.prototype, so nothing can be inherited that way (docs/architecture.md).
  Object.preventExtensions(Object.prototype);

  const uncurry = <F extends Function>(fn: F): any => (self: unknown, ...args: unknown[]) => apply(fn, self, args);
  const getter = (proto: object, key: PropertyKey): any => uncurry(getOwnPropertyDescriptor(proto, key)!.get!);

  const MapProto = Map.prototype, SetProto = Set.prototype;
  const mapForEach = uncurry(MapProto.forEach);
  const setForEach = uncurry(SetProto.forEach);
  const push = uncurry(Array.prototype.push);
  const hasInstance = (Function.prototype as any)[Symbol.hasInstance];
  const setPrototypeOf = Object.setPrototypeOf;
  const nullProto = <T extends object>(o: T): T => setPrototypeOf(o, null);
  const FLAGS: [string, (re: unknown) => boolean][] = [];
  const FLAG_NAMES = [["d", "hasIndices"], ["g", "global"], ["i", "ignoreCase"], ["m", "multiline"], ["s", "dotAll"], ["u", "unicode"], ["v", "unicodeSets"], ["y", "sticky"]];
  for (let i = 0; i < FLAG_NAMES.length; i++) {
    const d = getOwnPropertyDescriptor(RegExp.prototype, FLAG_NAMES[i]![1]!);
    if (d && d.get) push(FLAGS, [FLAG_NAMES[i]![0]!, uncurry(d.get)]);
  }

  const p: Primordials = {
    apply,
    ObjectCreate: Object.create,
    ObjectFreeze: Object.freeze,
    ObjectDefineProperty: defineProperty,
    ObjectKeys: Object.keys,
    ObjectHasOwn: Object.hasOwn,
    ObjectSetPrototypeOf: Object.setPrototypeOf,
    ObjectGetOwnPropertyDescriptor: getOwnPropertyDescriptor,
    ReflectOwnKeys: Reflect.ownKeys,
    JSONParse: JSON.parse,
    JSONStringify: JSON.stringify,
    String: g.String,
    Number: g.Number,
    NumberIsFinite: Number.isFinite,
    NumberIsNaN: Number.isNaN,
    StringPrototypeSlice: uncurry(String.prototype.slice),
    StringPrototypeIndexOf: uncurry(String.prototype.indexOf),
    ArrayIsArray: Array.isArray,
    ArrayPrototypePush: push,
    ArrayPrototypeIndexOf: uncurry(Array.prototype.indexOf),
    ArrayPrototypeJoin: uncurry(Array.prototype.join),
    ArrayPrototypePop: uncurry(Array.prototype.pop),
    MapCtor: Map,
    MapPrototypeGet: uncurry(MapProto.get),
    MapPrototypeSet: uncurry(MapProto.set),
    MapPrototypeHas: uncurry(MapProto.has),
    MapPrototypeDelete: uncurry(MapProto.delete),
    MapPrototypeGetSize: getter(MapProto, "size"),
    SetPrototypeGetSize: getter(SetProto, "size"),
    // forEach walks a collection without the iterator protocol, which a snippet can replace.
    // Null-prototype arrays: a push then meets no setter a snippet put on Array.prototype.
    MapPrototypeEntriesArray: (map) => { const out: unknown[][] = nullProto([]); mapForEach(map, (v: unknown, k: unknown) => { push(out, nullProto([k, v])); }); return out; },
    SetPrototypeValuesArray: (set) => { const out: unknown[] = nullProto([]); setForEach(set, (v: unknown) => { push(out, v); }); return out; },
    WeakMapCtor: WeakMap,
    WeakMapPrototypeGet: uncurry(WeakMap.prototype.get),
    WeakMapPrototypeSet: uncurry(WeakMap.prototype.set),
    PromiseCtor: Promise,
    ErrorCtor,
    isInstance: (value, ctor) => apply(hasInstance, ctor, [value]) as boolean,
    DatePrototypeGetTime: uncurry(Date.prototype.getTime),
    DatePrototypeToISOString: uncurry(Date.prototype.toISOString),
    RegExpPrototypeGetSource: getter(RegExp.prototype, "source"),
    RegExpPrototypeGetFlags: getter(RegExp.prototype, "flags"),
    FunctionPrototypeToString: uncurry(Function.prototype.toString),
    ObjectGetPrototypeOf: Object.getPrototypeOf,
    ObjectIsExtensible: Object.isExtensible,
    ObjectPrototype: Object.prototype,
    ArrayPrototype: Array.prototype,
    MapPrototype: MapProto,
    SetPrototype: SetProto,
    DatePrototype: Date.prototype,
    RegExpPrototype: RegExp.prototype,
    SetCtor: Set,
    SetPrototypeAdd: uncurry(SetProto.add),
    DateCtor: Date,
    RegExpCtor: RegExp,
    BigInt: g.BigInt,
    RegExpOwnFlags: (re) => {
      let flags = "";
      for (let i = 0; i < FLAGS.length; i++) if (FLAGS[i]![1](re)) flags += FLAGS[i]![0];
      return flags;
    },
  };
  Object.setPrototypeOf(p, null);
  return Object.freeze(p);
}
