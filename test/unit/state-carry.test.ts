// `state` carried across a retired realm (daemon/browser-worker/realm/in-context/context-state.ts): plain
// data leaves one context as text and is rebuilt in a fresh one exactly, with
// its cycles and shared references; anything else keeps the realm (export
// answers `carry: false`), and export never runs a snippet's getter, trap or
// replaced built-in while it reads.
import { describe, expect, it } from "vitest";
import { STATE_CARRY_MAX_CHARS } from "../../daemon/browser-worker/realm/session-realm.js";
import { StandInSession } from "../helpers/sandbox-host.js";

async function ran(session: StandInSession, code: string): Promise<unknown> {
  const run = await session.run(code);
  if (run.outcome === "timeout" || !run.outcome.ok) throw new Error(`run failed: ${JSON.stringify(run.outcome)}`);
  return run.outcome.value;
}

/** A session whose one run was `code`. */
async function after(code: string): Promise<StandInSession> {
  const session = new StandInSession();
  await ran(session, `${code}; return 1`);
  return session;
}

/** Runs `write` in one context, carries its `state` to a fresh one, and returns what `read` returns there. */
async function carried(write: string, read: string, maxChars = STATE_CARRY_MAX_CHARS): Promise<unknown> {
  const from = new StandInSession("from");
  await ran(from, `${write}; return 1`);
  const exported = from.context.exportState(maxChars);
  if (!exported.carry) throw new Error("not carried");
  const to = new StandInSession("to");
  if (exported.state !== undefined) expect(to.context.importState(exported.state)).toBe(true);
  return ran(to, read);
}

describe("state carried to a fresh context", () => {
  it("leaves nothing to carry from a fresh context, or after runs that kept nothing", async () => {
    const session = new StandInSession();
    expect(session.context.exportState(STATE_CARRY_MAX_CHARS)).toEqual({ carry: true });
    await ran(session, "const local = { a: 1 }; console.log(local); return page.url()");
    expect(session.context.exportState(STATE_CARRY_MAX_CHARS)).toEqual({ carry: true });
  });

  it("keeps every primitive, NaN, -0, the infinities, undefined and bigint included", async () => {
    const result = await carried(
      "Object.assign(state, { s: 'x\\u2028é', n: 1.5, nan: NaN, z: -0, inf: Infinity, ninf: -Infinity, t: true, f: false, nul: null, u: undefined, big: 2n ** 70n, neg: -5n })",
      "return [state.s === 'x\\u2028é', state.n === 1.5, Number.isNaN(state.nan), Object.is(state.z, -0), state.inf === Infinity, state.ninf === -Infinity, state.t === true, state.f === false, state.nul === null, 'u' in state && state.u === undefined, state.big === 2n ** 70n, state.neg === -5n, Object.keys(state).join()]",
    );
    expect(result).toEqual([...Array(12).fill(true), "s,n,nan,z,inf,ninf,t,f,nul,u,big,neg"]);
  });

  it("keeps objects, arrays (holes and extra keys), Maps, Sets, Dates and RegExps, as the fresh context's own", async () => {
    const result = await carried(
      `const h = [1, , 3]; h.extra = "e";
       state.o = { a: { b: [1, "two", { c: null }] } };
       state.np = Object.create(null); state.np.k = 1;
       state.h = h;
       state.m = new Map([[1, "one"], ["k", { v: 2 }], [{ key: true }, new Set([1, "s"])]]);
       state.d = new Date(86400000); state.bad = new Date(NaN);
       state.r = /a.b/gimsuy; state.r.lastIndex = 3; state.dr = /x/dv;
       state.pp = JSON.parse('{"__proto__": {"polluted": 1}}')`,
      `const keyObj = [...state.m.keys()][2];
       return [
         Object.getPrototypeOf(state.o) === Object.prototype, state.o.a.b[2].c === null, state.o.a.b[1],
         Object.getPrototypeOf(state.np) === null, state.np.k,
         Array.isArray(state.h), state.h.length, 1 in state.h, state.h[2], state.h.extra,
         state.m instanceof Map, state.m.get(1), state.m.get("k").v, keyObj.key, state.m.get(keyObj) instanceof Set, [...state.m.get(keyObj)].join(),
         state.d instanceof Date, state.d.getTime(), Number.isNaN(state.bad.getTime()),
         state.r instanceof RegExp, state.r.source, state.r.flags, state.r.lastIndex, state.dr.flags,
         Object.getPrototypeOf(state.pp) === Object.prototype, Object.keys(state.pp).join(), state.pp.__proto__.polluted, ({}).polluted,
       ]`,
    );
    expect(result).toEqual([
      true, true, "two", true, 1, true, 3, false, 3, "e",
      true, "one", 2, true, true, "1,s", true, 86400000, true,
      true, "a.b", "gimsuy", 3, "dv", true, "__proto__", 1, null,
    ]);
  });

  it("keeps cycles and shared references", async () => {
    const result = await carried(
      `const shared = { v: 1 }; const a = { x: shared, y: shared }; a.self = a;
       state.a = a; state.list = [shared, a]; state.m = new Map([[shared, a]]); state.s = new Set([a]); state.me = state`,
      `const a = state.a;
       return [a.x === a.y, a.self === a, state.list[0] === a.x, state.list[1] === a, state.m.get(a.x) === a, state.s.has(a), state.me === state]`,
    );
    expect(result).toEqual([true, true, true, true, true, true, true]);
  });

  it("carries a 30,000-deep chain without recursion", async () => {
    const result = await carried(
      "let n = null; for (let i = 0; i < 30000; i++) n = { n }; state.chain = n",
      "let d = 0; for (let n = state.chain; n; n = n.n) d++; return d",
    );
    expect(result).toBe(30000);
  });
});

describe("state that is not plain data keeps its realm", () => {
  it.each([
    ["a function", "state.f = () => 1"],
    ["a class instance", "state.c = new (class A { constructor() { this.x = 1; } })()"],
    ["a Map subclass", "state.m = new (class M extends Map {})()"],
    ["a symbol key", "state[Symbol('s')] = 1"],
    ["a symbol value", "state.sym = Symbol('x')"],
    ["a hidden key", "Object.defineProperty(state, 'hidden', { value: 1 })"],
    ["a read-only key", "Object.defineProperty(state, 'ro', { value: 1, enumerable: true, configurable: true })"],
    ["a frozen object", "state.f = Object.freeze({ a: 1 })"],
    ["a frozen array", "state.f = Object.freeze([1])"],
    ["a getter", "state.o = { get g() { return 1; } }"],
    ["a setter", "state.o = { set g(v) {} }"],
    ["a Proxy", "state.p = new Proxy({}, {})"],
    ["a revoked Proxy", "const r = Proxy.revocable({}, {}); r.revoke(); state.p = r.proxy"],
    ["an Error", "state.e = new Error('x')"],
    ["a typed array", "state.t = new Uint8Array(4)"],
    ["a typed array made to look plain", "state.t = Object.setPrototypeOf(new Uint8Array(4), Object.prototype)"],
    ["a boxed number made to look plain", "state.n = Object.setPrototypeOf(new Number(7), null)"],
    ["a Promise made to look plain", "state.p = Object.setPrototypeOf(Promise.resolve(1), Object.prototype)"],
    ["a WeakMap", "state.w = new WeakMap()"],
    ["a Map with a key of its own", "state.m = new Map(); state.m.extra = 1"],
    ["a RegExp made to look plain", "state.r = Object.setPrototypeOf(/x/, Object.prototype)"],
    ["an array made to look plain", "state.a = Object.setPrototypeOf([1], Object.prototype)"],
    ["arguments", "state.a = (function () { return arguments; })(1)"],
    ["a page facade", "state.page = page"],
    ["a locator", "state.l = page.locator('a')"],
    ["a prototype given to state", "Object.setPrototypeOf(state, {})"],
    ["the global", "state.g = globalThis"],
    ["a new global", "globalThis.helper = 1"],
    ["a replaced global", "globalThis.URL = class {}"],
    ["a getter on the global", "Object.defineProperty(globalThis, 'atob', { get: () => 1, configurable: true })"],
    ["a deleted global", "delete globalThis.btoa"],
  ])("%s", async (_what, code) => {
    expect((await after(code)).context.exportState(STATE_CARRY_MAX_CHARS)).toEqual({ carry: false });
  });

  it.each([
    ["a long string", "state.s = 'x'.repeat(5000)"],
    ["many keys", "for (let i = 0; i < 2000; i++) state['k' + i] = i"],
    ["a long array", "state.a = new Array(3000).fill(0)"],
    ["a big Map", "state.m = new Map(); for (let i = 0; i < 2000; i++) state.m.set(i, i)"],
    ["a big Set", "state.s = new Set(); for (let i = 0; i < 2000; i++) state.s.add(i)"],
    ["a long bigint", "state.b = 10n ** 5000n"],
  ])("past the cap: %s", async (_what, code) => {
    const session = await after(code);
    expect(session.context.exportState(4000)).toEqual({ carry: false });
    expect(session.context.exportState(STATE_CARRY_MAX_CHARS).carry).toBe(true);
  });
});

describe("Object.prototype", () => {
  it("takes no new property: a descriptor field inherited from it would abort the worker when Node reads the global", async () => {
    const session = await after("");
    const result = await ran(session, `const out = [];
      for (const key of ["get", "set", "value", "writable", "enumerable", "configurable", "then"]) {
        try { Object.defineProperty(Object.prototype, key, { get() {}, configurable: true }); out.push("defined"); } catch { out.push("refused"); }
      }
      return [out, Object.isExtensible(Object.prototype), Object.keys({ ...globalThis }).length >= 0]`);
    expect(result).toEqual([["refused", "refused", "refused", "refused", "refused", "refused", "refused"], false, true]);
    expect(session.context.exportState(STATE_CARRY_MAX_CHARS).carry).toBe(true);
  });
});

describe("export among hostile code", () => {
  /** Traps and getters that count on a prototype the check does not look at, so that a run afterwards can tell whether they ran. */
  const COUNTER = "const hits = Date.prototype.hits = { n: 0 }; const hit = () => { hits.n++; };";

  it.each([
    ["a Proxy in state", "state.p = new Proxy({}, { getPrototypeOf() { hit(); return null; }, ownKeys() { hit(); return []; }, getOwnPropertyDescriptor() { hit(); }, get() { hit(); }, isExtensible() { hit(); return true; } })"],
    ["a Proxy as state's prototype", "Object.setPrototypeOf(state, new Proxy({}, { get() { hit(); }, has() { hit(); return false; }, getPrototypeOf() { hit(); return null; } }))"],
    ["a getter in state", "state.g = 1; Object.defineProperty(state, 'g', { get() { hit(); return 1; }, enumerable: true, configurable: true })"],
    ["a nested getter", "state.o = { a: [1, { get g() { hit(); return 2; } }] }"],
    ["a getter on an array index", "state.a = [1]; Object.defineProperty(state.a, '0', { get() { hit(); return 1; }, enumerable: true, configurable: true })"],
  ])("runs no trap or getter of %s, and keeps the realm", async (_what, code) => {
    const session = await after(`${COUNTER} ${code}`);
    expect(session.context.exportState(STATE_CARRY_MAX_CHARS)).toEqual({ carry: false });
    expect(await ran(session, "return Date.prototype.hits.n")).toBe(0);
  });

  it("reads plain state exactly when every built-in it could call or look up throws", async () => {
    const result = await carried(
      `state.v = { m: new Map([[1, { d: new Date(0) }]]), s: new Set(["s"]), r: /x/gi, a: [1, , 3], n: NaN, b: 2n, z: -0, list: [[[]]] };
       const fail = () => { throw new Error("tampered"); };
       const def = Object.defineProperty;
       const trap = { __proto__: null, get: fail, set: fail, configurable: true };
       const tamper = (holder, keys) => { for (let i = 0; i < keys.length; i++) def(holder, keys[i], trap); };
       tamper(JSON, ["stringify", "parse"]);
       tamper(Reflect, ["ownKeys", "apply", "getPrototypeOf"]);
       tamper(Array, ["isArray", "from"]);
       tamper(Number, ["isNaN", "isFinite"]);
       tamper(Object, ["getPrototypeOf", "isExtensible", "getOwnPropertyDescriptor", "hasOwn", "setPrototypeOf", "create", "keys", "freeze"]);
       tamper(Map.prototype, ["forEach", "entries", "get", "set", "size", Symbol.iterator]);
       tamper(Set.prototype, ["forEach", "values", "add", "has", "size", Symbol.iterator]);
       tamper(Date.prototype, ["getTime", "toISOString", "toJSON", "valueOf"]);
       tamper(RegExp.prototype, ["source", "flags", "global", "ignoreCase", "sticky", "unicode", "dotAll", "multiline", "hasIndices"]);
       tamper(String.prototype, ["toString", "valueOf", Symbol.iterator]);
       tamper(Number.prototype, ["toString", "valueOf"]);
       tamper(BigInt.prototype, ["toString", "valueOf"]);
       tamper(Function.prototype, ["apply", "call"]);
       const everywhere = ["0", "1", "2", "3", "toJSON", "get", "set", "value", "writable", "enumerable", "configurable", "__proto__", "constructor", "then"];
       tamper(Array.prototype, ["push", "pop", "indexOf", "join", ...everywhere, Symbol.iterator]);
       // Object.prototype takes no new key (a descriptor field there would abort the process): its own are tampered.
       tamper(Object.prototype, ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"]);
       tamper(Object, ["defineProperty"])`,
      `const v = state.v;
       return [v.m.get(1).d.getTime(), [...v.s].join(), v.r.flags, v.a.length, 1 in v.a, Number.isNaN(v.n), v.b === 2n, Object.is(v.z, -0), v.list[0][0].length]`,
    );
    expect(result).toEqual([0, "s", "gi", 3, false, true, true, true, 0]);
  });

  it("keeps a sparse array of huge length (its keys are never listed)", async () => {
    expect((await after("state.a = []; state.a.length = 2 ** 32 - 1")).context.exportState(STATE_CARRY_MAX_CHARS)).toEqual({ carry: false });
  });

  it("refuses text it did not write, in a fresh context", () => {
    for (const text of ["", "{", "[]", '[["x"]]', '[["o", 0, "k", ["?"]]]', "1"]) {
      expect(new StandInSession().context.importState(text)).toBe(false);
    }
  });
});
