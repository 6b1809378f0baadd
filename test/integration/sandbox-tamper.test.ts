// A generated attack on the sandbox's own code: for every global and every
// property of every built-in (and of its prototype) that a snippet can reach,
// a snippet replaces it with a throwing function, a Proxy whose every trap
// throws, or a throwing getter, then exercises console, page events and
// dialogs, timers and intervals, page and frame calls, locators, service
// globals, results and errors. Every replacement probes whatever it is handed
// (`this`, arguments, trap arguments) for a host object: one that leads to the
// host's Function would run a payload that counts itself on the host's global.
// The sandbox must never hand one over, and every run must still end; the
// session's `state` is then exported and, when carried, rebuilt elsewhere.
import { afterAll, describe, expect, it } from "vitest";
import { errorText, isOwnRealmError } from "../../shared/protocol/error-text.js";
import { STATE_CARRY_MAX_CHARS } from "../../daemon/browser-worker/realm/session-realm.js";
import { StandInSession } from "../helpers/sandbox-host.js";

const ESCAPES = "__bwTamperEscapes";
type Kind = "throw" | "proxy" | "getter";
const KINDS: Kind[] = ["throw", "proxy", "getter"];

/** Runs before the tampering: captures what the probe itself needs. */
const PROBE = `
const __payload = ${JSON.stringify(`globalThis.${ESCAPES} = (globalThis.${ESCAPES} || 0) + 1; return process`)};
const __get = Reflect.get, __apply = Reflect.apply, __define = Object.defineProperty, __descriptor = Object.getOwnPropertyDescriptor;
const __ProxyCtor = Proxy, __ErrorCtor = Error;
const __seen = (v) => {
  if (v === null || (typeof v !== "object" && typeof v !== "function")) return;
  try {
    const F = __get(__get(v, "constructor"), "constructor");
    if (typeof F === "function") F(__payload)();
  } catch {}
};
const __probe = (self, args) => { __seen(self); for (let i = 0; i < args.length; i++) __seen(args[i]); };
const __fail = () => { throw new __ErrorCtor("tampered"); };
const __handler = {};
for (const trap of ["getPrototypeOf", "setPrototypeOf", "isExtensible", "preventExtensions", "getOwnPropertyDescriptor", "defineProperty", "has", "get", "set", "deleteProperty", "ownKeys", "apply", "construct"]) {
  __handler[trap] = function () { __probe(this, arguments); __fail(); };
}
const __tamper = (holder, key, kind) => {
  const d = __descriptor(holder, key);
  if (!d || !d.configurable) return false;
  const original = d.value;
  if (kind === "getter") {
    __define(holder, key, { get() { __probe(this, arguments); __fail(); }, set() { __probe(this, arguments); __fail(); }, configurable: true });
  } else if (kind === "proxy" && original !== null && (typeof original === "object" || typeof original === "function")) {
    __define(holder, key, { value: new __ProxyCtor(original, __handler), writable: true, configurable: true });
  } else {
    __define(holder, key, { value: function () { __probe(this, arguments); __fail(); }, writable: true, configurable: true });
  }
  return true;
};
`;

/** What every case does once the built-in is replaced; each step may fail, none may hang the run or leak. */
const EXERCISE = `
const __step = async (f) => { try { await f(); } catch {} };
await __step(() => console.log("x", { a: 1 }, [1, 2], new Map([[1, 2]]), new Set([3]), new Date(0), /r/g, new Error("e"), 1n));
await __step(() => page.on("console", (m) => { state.console = m.text() + m.type() + m.location().url; }));
await __step(() => page.once("dialog", (d) => d.accept("ok")));
await __step(() => page.on("pageerror", (e) => { state.pageerror = e.message; }));
await __step(() => setTimeout((a) => { state.timer = a; }, 1, "t"));
await __step(() => { const id = setInterval(() => { state.ticks = (state.ticks || 0) + 1; clearInterval(id); }, 10); });
await __step(() => page.evaluate((x) => x, 1, /re/g, { deep: [1, { f: 2 }] }, undefined));
await __step(() => page.url());
await __step(() => page.locator("a").getByRole("button", { name: /go/i }).filter({ has: page.locator("b") }).click());
await __step(() => page.mainFrame().childFrames()[0].evaluate(() => 1));
await __step(() => page.frames());
await __step(() => page.goto("http://127.0.0.1:1/"));
await __step(async () => { const p = await openPage(); usePage("p1"); await closePage(p.pageId); });
await __step(() => credentials.fill({ a: 1 }));
await __step(() => artifactPath("a.txt"));
await __step(() => new URL("http://example.test/a?b=c").searchParams.get("b"));
await __step(() => pages());
await __step(() => new Promise((resolve) => setTimeout(resolve, 15)));
`;

function caseCode(holder: string, key: string, kind: Kind, ending: "return" | "throw"): string {
  const end = ending === "return"
    ? `return { m: new Map([[1, { d: new Date(0) }]]), s: new Set(["s"]), e: new TypeError("t"), r: /x/g, f() {}, n: NaN, b: 2n, page, list: [1, [2, [3]]] };`
    : `throw new RangeError("thrown on purpose");`;
  // Plain data for state export to read (and carry, when the global is unchanged) after the tampering.
  const plain = `state.plain = { m: new Map([[1, { d: new Date(0) }]]), s: new Set(["s"]), r: /x/g, a: [1, , 3], n: NaN, b: 2n, z: -0 };`;
  return `${PROBE}\n${plain}\n__tamper(${holder}, ${key}, ${JSON.stringify(kind)});\n${EXERCISE}\n${end}`;
}

interface Target { holder: string; key: string; label: string }

/** Every own property of the global, of each built-in on it and of each built-in's prototype, as seen inside a context. */
async function targets(): Promise<Target[]> {
  const session = new StandInSession("enumerate");
  const run = await session.run(`
    const out = [];
    const keyText = (k) => typeof k === "symbol" ? "Symbol." + String(k.description).replace(/^Symbol\\./, "") : JSON.stringify(k);
    const add = (holder, object) => {
      for (const k of Reflect.ownKeys(object)) {
        if (typeof k === "symbol" && !String(k.description).startsWith("Symbol.")) continue;
        out.push([holder, keyText(k)]);
      }
    };
    add("globalThis", globalThis);
    for (const name of Object.getOwnPropertyNames(globalThis)) {
      const v = globalThis[name];
      if (v === null || (typeof v !== "object" && typeof v !== "function") || name === "globalThis") continue;
      add("globalThis[" + JSON.stringify(name) + "]", v);
      if (typeof v === "function" && v.prototype && typeof v.prototype === "object") add("globalThis[" + JSON.stringify(name) + "].prototype", v.prototype);
    }
    add("Object.getPrototypeOf(function* () {})", Object.getPrototypeOf(function* () {}));
    add("Object.getPrototypeOf(async function () {})", Object.getPrototypeOf(async function () {}));
    add("Object.getPrototypeOf([][Symbol.iterator]())", Object.getPrototypeOf([][Symbol.iterator]()));
    add("Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()))", Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
    add("Object.getPrototypeOf(new Map().entries())", Object.getPrototypeOf(new Map().entries()));
    add("Object.getPrototypeOf(Int8Array)", Object.getPrototypeOf(Int8Array));
    return out;`);
  session.end();
  if (run.outcome === "timeout" || !run.outcome.ok) throw new Error(`could not enumerate: ${JSON.stringify(run.outcome)}`);
  return (run.outcome.value as [string, string][]).map(([holder, key]) => ({ holder, key, label: `${holder}[${key}]` }));
}

/**
 * While `body` runs, the process reacts to leftover rejections and exceptions
 * as the worker does (daemon/browser-worker/main.ts): one of our own realm is a defect
 * of the host code; one from a context is the snippet's own, counted and let go.
 */
async function asTheWorkerDoes(body: () => Promise<void>): Promise<{ ours: string[]; snippets: number }> {
  const seen = { ours: [] as string[], snippets: 0 };
  const note = (value: unknown) => {
    if (isOwnRealmError(value)) seen.ours.push(errorText(value));
    else seen.snippets++;
  };
  const events = ["unhandledRejection", "uncaughtException"] as const;
  const saved = events.map((event) => process.rawListeners(event));
  for (const event of events) {
    process.removeAllListeners(event);
    process.on(event, note);
  }
  try {
    await body();
    // Rejections are reported after a turn of the event loop.
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    events.forEach((event, i) => {
      process.removeAllListeners(event);
      for (const listener of saved[i]!) process.on(event, listener as (...args: unknown[]) => void);
    });
  }
  return seen;
}

describe("a snippet that replaces any built-in the sandbox's code could touch", () => {
  afterAll(() => {
    delete (globalThis as Record<string, unknown>)[ESCAPES];
  });

  it("never hands the snippet a host object, and every run still ends with an outcome", async () => {
    const all = await targets();
    expect(all.length).toBeGreaterThan(500);
    const hung: string[] = [];
    const broken: string[] = [];
    const cases = all.flatMap((t) => KINDS.map((kind) => ({ t, kind })));
    const BATCH = 40;
    const leftovers = await asTheWorkerDoes(async () => {
      for (let i = 0; i < cases.length; i += BATCH) {
        await Promise.all(cases.slice(i, i + BATCH).map(async ({ t, kind }, j) => {
          const ending = (i + j) % 2 === 0 ? "return" : "throw";
          const session = new StandInSession(`tamper-${i + j}`);
          const first = await session.run(caseCode(t.holder, t.key, kind, ending));
          if (first.outcome === "timeout") hung.push(`${t.label} ${kind}`);
          // The session answers the next run too, whatever the first left behind.
          const second = await session.run("return 1");
          if (second.outcome === "timeout") broken.push(`${t.label} ${kind}`);
          // State export reads what the snippet left (never running its code); what it carries rebuilds in a fresh
          // context (every tenth case: a fresh context costs more than the rest of a case).
          const exported = session.context.exportState(STATE_CARRY_MAX_CHARS);
          if (exported.carry && exported.state !== undefined && (i + j) % 10 === 0) {
            const fresh = new StandInSession(`carried-${i + j}`);
            const third = fresh.context.importState(exported.state) ? await fresh.run("return state.plain.m.get(1).d.getTime()") : undefined;
            if (third?.outcome === "timeout" || (third && !third.outcome.ok)) broken.push(`${t.label} ${kind}: carried state`);
          }
        }));
      }
    });
    expect((globalThis as Record<string, unknown>)[ESCAPES]).toBeUndefined();
    expect(hung).toEqual([]);
    expect(broken).toEqual([]);
    expect(leftovers.ours).toEqual([]);
  }, 300_000);
});
