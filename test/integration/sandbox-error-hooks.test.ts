// The stack-trace hook route out of the sandbox: when host code formats a
// context error's stack, Node calls the context's `Error.prepareStackTrace`
// with call sites made in the host's realm, whose constructor chain leads to
// the host's Function. Every way a snippet could install that hook is tried,
// then host code reads the stack of the snippet's error exactly as Node's
// own printing of an unhandled rejection would.
import { afterEach, describe, expect, it } from "vitest";
import { StandInSession } from "../helpers/sandbox-host.js";

const ESCAPES = "__bwHookEscapes";

/** The hook a snippet wants Node to call: it tries the constructor chain of everything it is handed. */
const HOOK = `(error, sites) => {
  state.hookCalls = (state.hookCalls || 0) + 1;
  const payload = ${JSON.stringify(`globalThis.${ESCAPES} = (globalThis.${ESCAPES} || 0) + 1; return process`)};
  for (const v of [sites, ...(Array.isArray(sites) ? sites : [])]) {
    try { v.constructor.constructor(payload)(); } catch {}
  }
  return "forged stack";
}`;

const ROUTES: Record<string, string> = {
  "assigning Error.prepareStackTrace": `Error.prepareStackTrace = ${HOOK};`,
  "defining Error.prepareStackTrace as an accessor": `Object.defineProperty(Error, "prepareStackTrace", { get: () => ${HOOK}, configurable: true });`,
  "replacing globalThis.Error with a plain object": `globalThis.Error = { prepareStackTrace: ${HOOK} };`,
  "defining globalThis.Error as an accessor": `Object.defineProperty(globalThis, "Error", { get: () => ({ prepareStackTrace: ${HOOK} }), configurable: true });`,
  "deleting globalThis.Error, then defining it again": `delete globalThis.Error; globalThis.Error = { prepareStackTrace: ${HOOK} };`,
  "a prepareStackTrace on Function.prototype": `Function.prototype.prepareStackTrace = ${HOOK};`,
  "a prepareStackTrace on Object.prototype": `Object.prototype.prepareStackTrace = ${HOOK};`,
  "a Proxy for Error": `globalThis.Error = new Proxy(Error, { get: (t, k) => k === "prepareStackTrace" ? (${HOOK}) : t[k] });`,
  "Reflect.defineProperty on Error": `Reflect.defineProperty(Error, "prepareStackTrace", { value: ${HOOK} });`,
};

/** Collects the reasons of unhandled rejections while `body` runs, in place of the process's own handlers. */
async function unhandledDuring(body: () => Promise<void>): Promise<unknown[]> {
  const reasons: unknown[] = [];
  const saved = process.rawListeners("unhandledRejection");
  process.removeAllListeners("unhandledRejection");
  process.on("unhandledRejection", (reason) => reasons.push(reason));
  try {
    await body();
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    process.removeAllListeners("unhandledRejection");
    for (const listener of saved) process.on("unhandledRejection", listener as (...args: unknown[]) => void);
  }
  return reasons;
}

describe("the context's error hooks are pinned before any snippet runs", () => {
  afterEach(() => {
    delete (globalThis as Record<string, unknown>)[ESCAPES];
  });

  for (const [route, install] of Object.entries(ROUTES)) {
    it(`${route}: host code reading the stack of the snippet's error runs no snippet hook`, async () => {
      const session = new StandInSession();
      let stacks: string[] = [];
      const reasons = await unhandledDuring(async () => {
        const run = await session.run(`
          try { ${install} } catch {}
          Promise.reject(new RangeError("left unhandled"));
          const marked = {};
          try { Error.captureStackTrace(marked); } catch {}
          state.marked = marked;
          return 1;`);
        expect(run.outcome).not.toBe("timeout");
      });
      expect(reasons.length).toBe(1);
      // What Node's printing of an unhandled rejection or an uncaught exception does with the reason.
      stacks = reasons.map((reason) => String((reason as Error).stack));
      expect(stacks[0]).toContain("RangeError: left unhandled");
      expect(stacks[0]).not.toContain("forged stack");
      const after = await session.run("return [state.hookCalls ?? 0, typeof Error, typeof Error.prepareStackTrace]");
      expect(after.outcome).toMatchObject({ ok: true, value: [0, "function", "undefined"] });
      expect((globalThis as Record<string, unknown>)[ESCAPES]).toBeUndefined();
    });
  }

  it("keeps Error.captureStackTrace and Error.stackTraceLimit as they were", async () => {
    const session = new StandInSession();
    const run = await session.run(`
      const before = [Error.captureStackTrace, Error.stackTraceLimit];
      try { Error.captureStackTrace = () => {}; } catch {}
      try { Error.stackTraceLimit = Infinity; } catch {}
      try { Object.defineProperty(Error, "captureStackTrace", { value: () => {} }); } catch {}
      const o = {};
      Error.captureStackTrace(o);
      return [Error.captureStackTrace === before[0], Error.stackTraceLimit === before[1], typeof o.stack];`);
    expect(run.outcome).toMatchObject({ ok: true, value: [true, true, "string"] });
  });

  it("a snippet's own stacks still read normally", async () => {
    const session = new StandInSession();
    const run = await session.run(`function inner() { throw new TypeError("deep"); }
      try { inner(); } catch (e) { return e.stack.split("\\n").slice(0, 2).join("|"); }`);
    expect(run.outcome).toMatchObject({ ok: true });
    const value = (run.outcome as { value: string }).value;
    expect(value).toMatch(/^TypeError: deep\|\s+at inner \(snippet-standin\.js:\d+:\d+\)$/);
  });
});
