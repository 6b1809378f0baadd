// The sandbox's own code among hostile snippets, end to end (CLI → daemon →
// worker → Chromium): the stack-trace hook escape as it was found, its other
// routes, and snippets that replace the built-ins the sandbox's dispatch uses.
// None may reach the worker's `process`, and none may crash the worker: a
// session beside them keeps its page and its state throughout.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

describe("the sandbox against snippets that attack its own code", () => {
  let home: string;
  let server: TestServer;
  let marker: string;
  const exec = async (code: string, session: string) => {
    const r = await runCli(["exec", "--session", session, "-c", code], { home });
    if (!r.json) throw new Error(`no envelope: ${r.stdout} ${r.stderr}`);
    return r.json as { ok: boolean; result?: unknown; error?: { code: string; message: string } };
  };
  /** Reaching the host's process writes the marker file: the test looks for it after every attack. */
  const payload = () => JSON.stringify(`const p = process; p.getBuiltinModule("fs").writeFileSync(${JSON.stringify(marker)}, "escaped"); return p`);

  beforeAll(async () => {
    home = tempHome("bw-sandbox-hooks-");
    marker = path.join(home, "escaped-marker");
    server = await startServer({ "/bystander": "<title>Bystander</title><p>still here</p>", "/page": "<title>Page</title><p>hello</p>" });
    const bystander = await exec(`await page.goto(${JSON.stringify(`${server.url}/bystander`)}); state.mark = "kept"; return page.title()`, "bystander");
    expect(bystander).toMatchObject({ ok: true, result: "Bystander" });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server?.close();
  });

  const bystanderIntact = async () => {
    const r = await exec("return [page.url(), await page.title(), state.mark]", "bystander");
    expect(r).toMatchObject({ ok: true, result: [`${server.url}/bystander`, "Bystander", "kept"] });
  };

  it("the escape as found: a stack-trace hook and an unhandled rejection reach nothing", async () => {
    const r = await exec(`Error.prepareStackTrace = (e, cs) => { const p = cs.constructor.constructor("return process")(); state.x = [typeof p, p.getBuiltinModule("fs").readFileSync("/etc/passwd", "utf8").slice(0, 31)]; return ""; };
      Promise.reject(new Error("x"));
      await new Promise((r) => setTimeout(r, 300));
      return [state.x ?? null, typeof Error.prepareStackTrace]`, "found");
    expect(r).toMatchObject({ ok: true, result: [null, "undefined"] });
    await bystanderIntact();
  });

  const ROUTES: Record<string, string> = {
    "an accessor for Error.prepareStackTrace": `Object.defineProperty(Error, "prepareStackTrace", { get: () => HOOK, configurable: true })`,
    "a plain object in place of globalThis.Error": `globalThis.Error = { prepareStackTrace: HOOK }`,
    "an accessor for globalThis.Error": `Object.defineProperty(globalThis, "Error", { get: () => ({ prepareStackTrace: HOOK }), configurable: true })`,
    "a hook inherited from Function.prototype": `Function.prototype.prepareStackTrace = HOOK`,
  };
  for (const [route, install] of Object.entries(ROUTES)) {
    it(`${route}: the hook never runs when the worker meets the snippet's errors`, async () => {
      const r = await exec(`const HOOK = (e, cs) => { state.calls = (state.calls ?? 0) + 1; try { cs.constructor.constructor(${payload()})(); } catch {} return "forged"; };
        try { ${install}; } catch {}
        Promise.reject(new TypeError("unhandled"));
        const o = {};
        try { Error.captureStackTrace(o); void o.stack; } catch {}
        await new Promise((r) => setTimeout(r, 200));
        return state.calls ?? 0`, "routes");
      expect(r).toMatchObject({ ok: true, result: 0 });
      expect(existsSync(marker)).toBe(false);
    });
  }

  // Built-ins the bootstrap, the facades and the event dispatch would use if they looked them up at call time.
  const TAMPERED: Record<string, string> = {
    "String": `globalThis.String = THROW`,
    "Number": `globalThis.Number = THROW`,
    "JSON.stringify": `JSON.stringify = THROW`,
    "JSON.parse": `JSON.parse = THROW`,
    "Reflect.apply": `Reflect.apply = THROW`,
    "Object.freeze": `Object.freeze = THROW`,
    "Object.defineProperty": `Object.defineProperty = THROW`,
    "Array.prototype[Symbol.iterator]": `Array.prototype[Symbol.iterator] = THROW`,
    "Array.prototype.push/slice/indexOf": `Array.prototype.push = Array.prototype.slice = Array.prototype.indexOf = THROW`,
    "Array.prototype.constructor (species)": `Object.defineProperty(Array.prototype, "constructor", { get: THROW })`,
    "Promise.prototype.then": `Promise.prototype.then = THROW`,
    "Promise.prototype.constructor": `Object.defineProperty(Promise.prototype, "constructor", { get: THROW })`,
    "Map.prototype.get/set": `Map.prototype.get = Map.prototype.set = THROW`,
    "Object.prototype.toJSON": `Object.defineProperty(Object.prototype, "toJSON", { get: THROW })`,
    "Object.prototype.error (a getter our replies would inherit)": `Object.defineProperty(Object.prototype, "error", { get: THROW })`,
    "a Proxy as Object.prototype's prototype": `Object.setPrototypeOf(Object.prototype, new Proxy({}, { get: THROW, has: THROW, getOwnPropertyDescriptor: THROW }))`,
  };
  for (const [name, tamper] of Object.entries(TAMPERED)) {
    it(`replacing ${name}: events, timers, page calls, results and errors leak nothing and the worker lives`, async () => {
      const session = `tamper-${name.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40)}`;
      const r = await exec(`
        const payload = ${payload()};
        const probe = function () { for (const v of [this, ...arguments]) { try { v.constructor.constructor(payload)(); } catch {} } };
        const THROW = function () { probe.apply(this, arguments); throw new RangeError("tampered"); };
        await page.goto(${JSON.stringify(`${server.url}/page`)});
        page.on("console", (m) => { state.seen = m.text(); });
        page.once("dialog", (d) => d.dismiss());
        ${tamper};
        const step = async (f) => { try { await f(); } catch {} };
        await step(() => page.evaluate(() => { console.log("from the page"); setTimeout(() => alert("a"), 0); setTimeout(() => { throw new Error("page error"); }, 0); }));
        await step(() => setTimeout(() => { state.timer = true; }, 1));
        await step(() => page.locator("p").textContent());
        await step(() => page.url());
        await step(() => console.log("snippet", { a: [1] }));
        await step(() => new Promise((r) => setTimeout(r, 100)));
        return { ok: 1, d: new Date(0), e: new Error("in a result") };`, session);
      // Whatever the tampering broke of the snippet's own code, the run ends with an envelope.
      expect(typeof r.ok).toBe("boolean");
      expect(existsSync(marker)).toBe(false);
      await bystanderIntact();
      // The tampered session itself still answers.
      const next = await exec("return 2", session);
      expect(typeof next.ok).toBe("boolean");
    });
  }

  // V8 aborts the whole process (a fatal error, not an exception) when Node reads a descriptor of the
  // context's global while Object.prototype carries a descriptor field: one snippet would end every session.
  for (const field of ["get", "set", "value", "writable", "enumerable", "configurable"]) {
    it(`Object.prototype.${field} and a spread of globalThis: refused, the worker lives on`, async () => {
      const r = await exec(`let refused = false;
        try { Object.defineProperty(Object.prototype, "${field}", { get() {}, configurable: true }) } catch { refused = true }
        try { Object.prototype["${field}"] = 1 } catch {}
        const copy = { ...globalThis }; Object.assign({}, globalThis); Object.getOwnPropertyDescriptors(globalThis);
        return [refused, Object.hasOwn(Object.prototype, "${field}"), typeof copy]`, `proto-${field}`);
      expect(r).toMatchObject({ ok: true, result: [true, false, "object"] });
      await bystanderIntact();
    });
  }

  it("no attack above reached the worker's process", () => {
    expect(existsSync(marker)).toBe(false);
  });
});
