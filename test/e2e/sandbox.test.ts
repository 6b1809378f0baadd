// The snippet sandbox end to end (CLI → daemon → worker → Chromium): escape
// attempts obtain nothing, and Playwright works as users expect through the
// facades. Every escape attempt runs a payload that, if it ever reached the
// host's `process`, would write a marker file and a marker line to the
// worker's stderr (the daemon log); the test checks that neither exists.
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layoutFor } from "../../shared/paths.js";
import { SNAPSHOT_MAX_CHARS } from "../../daemon/browser-worker/facades/snapshot-function.js";
import { MAX_TIMERS_PER_RUN } from "../../daemon/browser-worker/run-timers.js";
import { destroyHome, execSnippet, execSnippetOk, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const LOG_MARKER = "BW-SANDBOX-ESCAPED";
/** Surfaces whose attempts must have run (the first 18 through constructors, then direct attempts). */
const SURFACES_1 = ["this", "page.goto", "page.keyboard", "locator.click", "frameLocator.locator", "mainFrame.evaluate", "global.URL", "URL", "setTimeout",
  "console.log", "facade promise", "facade error", "sync facade error", "goto error", "evaluate result", "import() promise", "import() rejection", "params.append",
  "importMessage", "eval", "new Function", "Function", "async function ctor", "generator ctor", "require", "process", "module", "fetch",
  "wasmCompile", "wasmInstantiate", "wasmModule"];
const SURFACES_2 = ["event log", "event log.type", "event log.page", "pageerror", "dialog", "dialog.accept", "dialog.accept promise"];

/** Shared by every escape snippet: `attempt` records "ESCAPED" only if a payload returned the real process. */
function probeKit(marker: string): string {
  const payload = `const p = process; p.getBuiltinModule("fs").writeFileSync(${JSON.stringify(marker)}, "escaped"); p.stderr.write(${JSON.stringify(LOG_MARKER + "\n")}); return p`;
  return `
const PAYLOAD = ${JSON.stringify(payload)};
const out = {};
const verdict = (v) => v !== null && (typeof v === "object" || typeof v === "function") && typeof v.pid === "number" ? "ESCAPED" : "no process";
const attempt = (name, get) => { try { out[name] = verdict(get()); } catch (e) { out[name] = "threw " + (e && e.name); } };
// Results stay small (a large one would be spilled to a file): the count, what escaped, and the picked keys.
const summary = (picks) => {
  const picked = {};
  for (const key of picks) picked[key] = out[key];
  return { count: Object.keys(out).length, escaped: Object.keys(out).filter((k) => out[k] === "ESCAPED"), picked };
};
const viaConstructors = (name, x) => {
  attempt(name, () => x.constructor.constructor(PAYLOAD)());
  let proto = x;
  for (let i = 0; i < 4 && proto !== null && proto !== undefined; i++) {
    try { proto = Object.getPrototypeOf(proto); } catch { break; }
    const here = proto;
    if (here) attempt(name + " proto" + i, () => here.constructor.constructor(PAYLOAD)());
  }
  if (x === null || (typeof x !== "object" && typeof x !== "function")) return;
  // Own members of the value and of its first prototype (class methods live there).
  let holder = x;
  for (let level = 0; level < 2 && holder; level++) {
    for (const key of Object.getOwnPropertyNames(holder)) {
      let v;
      try { v = x[key]; } catch { continue; }
      if (typeof v === "function" || (v !== null && typeof v === "object")) attempt(name + "." + key, () => v.constructor.constructor(PAYLOAD)());
    }
    try { holder = Object.getPrototypeOf(holder); } catch { break; }
  }
};
`;
}

describe("the snippet sandbox against real Chromium", () => {
  let home: string;
  let server: TestServer;
  let marker: string;
  const exec = (code: string, session = "sbx") => execSnippet(home, session, code);
  const ok = (code: string, session = "sbx") => execSnippetOk(home, session, code);

  beforeAll(async () => {
    home = tempHome("bw-sandbox-");
    marker = path.join(home, "escaped-marker");
    server = await startServer({
      "/form": `<title>Form</title><h1>Hello</h1>
        <input id="name" aria-label="Name"><button onclick="document.getElementById('out').textContent = document.getElementById('name').value">Go</button>
        <div id="out"></div><div id="later"></div><ul><li>plain</li><li><b>bold</b></li></ul>
        <div id="pad" style="width:200px;height:100px" onmousedown="this.textContent = event.clientX + ',' + event.clientY"></div>
        <script>setTimeout(() => { document.getElementById('later').textContent = 'ready'; }, 150)</script>`,
      "/frames": `<title>Frames</title><p>outer</p><iframe id="child" name="child" src="/child"></iframe>`,
      "/child": `<p>inner</p><button onclick="document.body.dataset.clicked = 'yes'; this.textContent = 'clicked'">press</button>`,
      "/long": `<title>Long</title>${Array.from({ length: 3000 }, (_, i) => `<p>paragraph number ${i}</p>`).join("")}`,
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("the escape payload is real: run on the host it writes the marker", () => {
    const payload = /const PAYLOAD = (".*");/.exec(probeKit(marker))![1]!;
    const hostProcess = new Function(JSON.parse(payload) as string)() as NodeJS.Process;
    expect(hostProcess.pid).toBe(process.pid);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
  });

  it("obtains nothing from the global, the facades, their promises and errors, results, import() and every built-in", async () => {
    const envelope = await ok(`${probeKit(marker)}
      await page.goto(${JSON.stringify(`${server.url}/frames`)});
      viaConstructors("this", this);
      viaConstructors("globalThis", globalThis);
      for (const name of Object.getOwnPropertyNames(globalThis)) { const v = globalThis[name]; if (v !== globalThis) viaConstructors("global." + name, v); }
      const scope = { page, pages, openPage, usePage, closePage, state, console, snapshot, setTimeout, clearTimeout, setInterval, clearInterval, URL, URLSearchParams, TextEncoder, TextDecoder, atob, btoa, structuredClone };
      for (const [name, value] of Object.entries(scope)) viaConstructors(name, value);
      viaConstructors("keyboard", page.keyboard);
      viaConstructors("mouse", page.mouse);
      viaConstructors("locator", page.locator("p"));
      viaConstructors("getByRole", page.getByRole("button"));
      viaConstructors("frameLocator", page.frameLocator("#child"));
      viaConstructors("contentFrame", page.locator("#child").contentFrame());
      viaConstructors("mainFrame", page.mainFrame());
      viaConstructors("childFrame", page.frames()[1]);
      const url = new URL("http://example.test/a?b=1");
      for (const [name, value] of Object.entries({ url, params: url.searchParams, encoded: new TextEncoder().encode("x"), decoder: new TextDecoder(), cloned: structuredClone({ a: [1] }), pagesList: pages() })) viaConstructors(name, value);
      const titlePromise = page.title();
      viaConstructors("facade promise", titlePromise);
      await titlePromise;
      const openPromise = openPage();
      viaConstructors("openPage promise", openPromise);
      const second = await openPromise;
      viaConstructors("opened page", second);
      await closePage(second.pageId);
      usePage("p1");
      try { await page.click("#missing", { timeout: 50 }); } catch (e) { viaConstructors("facade error", e); }
      try { page.locator("p").nth("x").frameLocator(); usePage("p99"); } catch (e) { viaConstructors("sync facade error", e); }
      try { await page.goto("file:///etc/passwd"); } catch (e) { viaConstructors("goto error", e); }
      const evaluated = await page.evaluate(() => ({ list: [1, { deep: true }], text: "x" }));
      viaConstructors("evaluate result", evaluated);
      viaConstructors("evaluate result list", evaluated.list);
      viaConstructors("evaluate result deep", evaluated.list[1]);
      const importPromise = import("node:fs");
      viaConstructors("import() promise", importPromise);
      try { await importPromise; out.imported = "loaded"; } catch (e) { viaConstructors("import() rejection", e); out.importMessage = String(e.message); }
      attempt("eval", () => eval("process"));
      attempt("new Function", () => new Function("return process")());
      attempt("Function", () => Function(PAYLOAD)());
      attempt("async function ctor", () => (async function () {}).constructor(PAYLOAD));
      attempt("generator ctor", () => (function* () {}).constructor(PAYLOAD)().next().value);
      attempt("require", () => require("node:fs"));
      attempt("process", () => process);
      attempt("module", () => module);
      attempt("fetch", () => fetch);
      const wasm = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
      try { await WebAssembly.compile(wasm); out.wasmCompile = "compiled"; } catch (e) { out.wasmCompile = "threw " + e.name; }
      try { await WebAssembly.instantiate(wasm); out.wasmInstantiate = "instantiated"; } catch (e) { out.wasmInstantiate = "threw " + e.name; }
      try { new WebAssembly.Module(wasm); out.wasmModule = "built"; } catch (e) { out.wasmModule = "threw " + e.name; }
      return summary(${JSON.stringify(SURFACES_1)});`);
    const { count, escaped, picked: out } = envelope.result as { count: number; escaped: string[]; picked: Record<string, string> };
    expect(escaped).toEqual([]);
    // The attempts really ran on each surface.
    expect(count).toBeGreaterThan(150);
    for (const key of SURFACES_1.slice(0, 18)) expect({ key, outcome: out[key] }).toEqual({ key, outcome: expect.stringMatching(/^(threw|no process)/) });
    expect(out.importMessage).toBe("import() is not available in snippets");
    for (const key of ["eval", "new Function", "Function", "async function ctor", "generator ctor", "require", "process", "module", "fetch"]) expect(out[key], key).toMatch(/^threw/);
    for (const key of ["wasmCompile", "wasmInstantiate", "wasmModule"]) expect(out[key], key).toMatch(/^threw/);
    expect(existsSync(marker)).toBe(false);
  });

  it("obtains nothing from event objects, timers, stack-trace call sites, callers and a stack overflow at a host call", async () => {
    const envelope = await ok(`${probeKit(marker)}
      await page.goto(${JSON.stringify(`${server.url}/form`)});
      const sites = [];
      Error.prepareStackTrace = (error, callSites) => { for (const c of callSites) sites.push(c); return "trace"; };
      const trace = (where) => { void new Error(where).stack; };
      const callers = [];
      function sloppyHandler(event) { callers.push(sloppyHandler.caller, arguments.callee.caller); viaConstructors("event " + event.type(), event); trace("handler"); }
      page.on("console", sloppyHandler);
      page.on("pageerror", (error) => { viaConstructors("pageerror", error); trace("pageerror"); });
      const accepted = new Promise((resolve) => page.once("dialog", (dialog) => {
        viaConstructors("dialog", dialog);
        trace("dialog");
        const p = dialog.accept();
        viaConstructors("dialog.accept promise", p);
        resolve(p);
      }));
      await page.evaluate(() => { console.log("hello"); setTimeout(() => { throw new Error("boom"); }, 0); });
      await page.evaluate(() => alert("hi"));
      await accepted;
      await new Promise((resolve) => setTimeout(function timerCallback() { callers.push(timerCallback.caller); trace("timer"); resolve(); }, 100));
      trace("after await");
      await page.title().then(() => trace("then"));
      Error.prepareStackTrace = undefined;
      out.sites = sites.length;
      sites.forEach((c, i) => {
        let f, t;
        try { f = c.getFunction(); } catch {}
        try { t = c.getThis(); } catch {}
        if (f) viaConstructors("site" + i + " function", f);
        if (t && t !== globalThis) viaConstructors("site" + i + " this", t);
      });
      callers.forEach((c, i) => { if (c) viaConstructors("caller" + i, c); });
      out.callers = callers.filter(Boolean).length;
      const caught = [];
      const deep = (n) => {
        try { return deep(n + 1); } catch {
          try { page.url(); } catch (e) { if (caught.length < 40) caught.push(e); }
          try { console.log("x"); } catch (e) { if (caught.length < 40) caught.push(e); }
          try { new URL("http://x"); } catch (e) { if (caught.length < 40) caught.push(e); }
          return n;
        }
      };
      deep(0);
      caught.forEach((e, i) => viaConstructors("overflow" + i, e));
      out.overflowErrors = caught.length;
      return summary(${JSON.stringify([...SURFACES_2, "sites", "callers", "overflowErrors"])});`);
    const { escaped, picked: out } = envelope.result as { escaped: string[]; picked: Record<string, string | number> };
    expect(escaped).toEqual([]);
    // The hook is pinned before any snippet runs: assigning it does nothing, so no call site ever reaches the snippet.
    expect(out.sites).toBe(0);
    for (const key of SURFACES_2) expect({ key, outcome: out[key] }).toEqual({ key, outcome: expect.stringMatching(/^(threw|no process)/) });
    expect(existsSync(marker)).toBe(false);
  });

  it("never reached the host process: no marker file, no marker line in the daemon log", () => {
    expect(existsSync(marker)).toBe(false);
    const log = readFileSync(layoutFor(home).logPath, "utf8");
    expect(log).toMatch(/worker\[\d+\]/); // the worker's stderr does reach this log
    expect(log).not.toContain(LOG_MARKER);
  });

  it("drives pages with locators, waitFor*, evaluate with arguments, keyboard and mouse", async () => {
    const { result } = await ok(`
      await page.goto(${JSON.stringify(`${server.url}/form`)});
      await page.getByLabel("Name").click();
      await page.keyboard.type("abc");
      await page.keyboard.press("Backspace");
      await page.getByRole("button", { name: /^go$/i }).click();
      await page.locator("#later").filter({ hasText: "ready" }).waitFor();
      await page.waitForFunction((want) => document.getElementById("later").textContent === want, "ready");
      await page.waitForURL(/\\/form$/);
      await page.mouse.click(60, 10 + (await page.locator("#pad").boundingBox()).y);
      return {
        out: await page.locator("#out").textContent(),
        sum: await page.evaluate(([a, b]) => a + b, [2, 3]),
        suffixed: await page.locator("#out").evaluate((el, suffix) => el.textContent + suffix, "!"),
        withBold: await page.locator("li", { has: page.locator("b") }).count(),
        items: await page.locator("li").allTextContents(),
        pad: await page.locator("#pad").textContent(),
        title: await page.title(),
        url: page.url(),
        page: page,
      };`);
    expect(result).toMatchObject({ out: "ab", sum: 5, suffixed: "ab!", withBold: 1, items: ["plain", "bold"], title: "Form", url: `${server.url}/form`, page: "[Page p1]" });
    expect(result.pad).toMatch(/^60,\d+$/);
  });

  it("reaches frames through page.frames(), frame(), mainFrame() and frame locators", async () => {
    const { result } = await ok(`
      await page.goto(${JSON.stringify(`${server.url}/frames`)});
      await page.locator("#child").contentFrame().getByText("inner").waitFor();
      const child = page.frame({ name: "child" });
      await page.frameLocator("#child").getByRole("button").click();
      return {
        count: page.frames().length,
        inner: await child.textContent("p"),
        name: page.mainFrame().childFrames()[0].name(),
        parentIsMain: child.parentFrame() === page.mainFrame(),
        byUrl: page.frame({ url: /\\/child$/ }).url(),
        clicked: await child.evaluate(() => document.body.dataset.clicked),
        viaLocator: await page.locator("#child").contentFrame().locator("button").textContent(),
        owner: await page.frameLocator("#child").owner().getAttribute("name"),
        missing: page.frame("nope"),
      };`);
    expect(result).toEqual({ count: 2, inner: "inner", name: "child", parentIsMain: true, byUrl: `${server.url}/child`, clicked: "yes", viaLocator: "clicked", owner: "child", missing: null });
  });

  it("handles dialogs from handlers, dismisses unhandled ones, and drops handlers when their run ends", async () => {
    const { result } = await ok(`
      const seen = [];
      const handler = async (d) => { seen.push(d.type() + ":" + d.message()); await (d.type() === "prompt" ? d.accept("typed " + d.defaultValue()) : d.dismiss()); };
      page.on("dialog", handler);
      const prompted = await page.evaluate(() => prompt("name?", "x"));
      const confirmed = await page.evaluate(() => confirm("sure?"));
      page.off("dialog", handler);
      page.once("dialog", (d) => d.accept());
      const onceAccepted = await page.evaluate(() => confirm("once?"));
      const unhandled = await page.evaluate(() => confirm("nobody?"));
      page.on("console", () => { state.lateConsole = (state.lateConsole ?? 0) + 1; });
      page.on("dialog", (d) => { state.lateDialog = true; return d.accept(); });
      await page.evaluate(() => setTimeout(() => { console.log("late"); alert("late"); }, 300));
      let thrown = "";
      try { page.on("request", () => {}); } catch (e) { thrown = e.message; }
      return { seen, prompted, confirmed, onceAccepted, unhandled, thrown };`);
    expect(result).toEqual({
      seen: ["prompt:name?", "confirm:sure?"], prompted: "typed x", confirmed: false, onceAccepted: true, unhandled: false,
      thrown: expect.stringContaining("only console, pageerror, dialog"),
    });
    // The page's late alert and console message arrive after that run ended: nobody runs, nothing hangs.
    const later = await ok("await new Promise((r) => setTimeout(r, 600)); return { n: await page.evaluate(() => 1 + 1), lateConsole: state.lateConsole ?? 0, lateDialog: state.lateDialog ?? false }");
    expect(later.result).toEqual({ n: 2, lateConsole: 0, lateDialog: false });
  });

  it("opens, switches and closes pages; refuses other URL schemes", async () => {
    const { result } = await ok(`
      const second = await openPage(${JSON.stringify(`${server.url}/frames`)});
      const opened = pages().filter((p) => p.active).map((p) => p.pageId);
      usePage("p1");
      const back = page.pageId;
      await closePage(second.pageId);
      const errors = [];
      for (const url of ["file:///etc/passwd", "javascript:alert(1)", "chrome://version"]) {
        try { await page.goto(url); } catch (e) { errors.push(e.message.slice(0, 20)); }
      }
      try { await openPage("file:///etc/passwd"); } catch (e) { errors.push(e.message.slice(0, 20)); }
      return { opened, back, after: pages().length, errors, second: second.pageId };`);
    expect(result.opened).toEqual([result.second]);
    expect(result).toMatchObject({ back: "p1", after: 1 });
    expect(result.errors).toEqual(Array(4).fill("goto accepts http, h"));
    const blocked = await exec("await page.goto('file:///etc/passwd')");
    expect(blocked.error.code).toBe("BLOCKED_URL");
  });

  it("captures the snippet's and the page's console, and keeps page internals hidden", async () => {
    const envelope = await ok(`
      console.log("from snippet", { a: 1 });
      await page.evaluate(() => console.warn("from page"));
      return ["route", "context", "request", "exposeFunction", "exposeBinding", "screenshot", "_delegate", "browser", "pdf", "addInitScript"].map((k) => typeof page[k]);`);
    expect(envelope.console).toEqual(expect.arrayContaining([
      { type: "log", text: 'from snippet {"a":1}', source: "snippet" },
      { type: "warning", text: "from page", source: "page" },
    ]));
    expect(envelope.result).toEqual(Array(10).fill("undefined"));
  });

  it("snapshot() returns bounded ARIA text", async () => {
    const { result } = await ok(`
      await page.goto(${JSON.stringify(`${server.url}/form`)});
      const small = await snapshot();
      const part = await snapshot({ selector: "ul" });
      await page.goto(${JSON.stringify(`${server.url}/long`)});
      const big = await snapshot();
      const capped = await snapshot({ maxChars: 100 });
      return { small, part, bigLength: big.length, bigTail: big.slice(-120), capped };`);
    expect(result.small).toContain('heading "Hello"');
    expect(result.part).toContain("listitem");
    expect(result.part).not.toContain("heading");
    expect(result.bigLength).toBeGreaterThan(SNAPSHOT_MAX_CHARS);
    expect(result.bigLength).toBeLessThan(SNAPSHOT_MAX_CHARS + 200);
    expect(result.bigTail).toMatch(/\[snapshot truncated: 20000 of \d+ characters shown/);
    expect(result.capped).toMatch(/^[\s\S]{100}\n\[snapshot truncated: 100 of/);
  });

  it("provides context-realm URL, URLSearchParams, TextEncoder/TextDecoder, atob/btoa, structuredClone and run-bound timers", async () => {
    const first = await ok(`
      const u = new URL("../b/c?x=1&y=a+b#frag", "https://user:pw@example.test:8443/p/q");
      u.searchParams.append("z", "1 2&3");
      u.hash = "";
      const params = new URLSearchParams({ q: "é ü", n: "1" });
      params.sort();
      const bytes = new TextEncoder().encode("héllo ✓ 😀");
      const clone = structuredClone({ d: new Date(0), m: new Map([[1, { s: new Set([2]) }]]), r: /a/g });
      state.url = u;
      setTimeout(() => { state.timerFired = true; }, 200);
      return {
        href: u.href, origin: u.origin, port: u.port, search: u.search, params: params.toString(), invalid: URL.canParse("not a url"),
        bytes: Array.from(bytes), text: new TextDecoder().decode(bytes), lossy: new TextDecoder().decode(new Uint8Array([0xff, 0x41])),
        b64: btoa("hi\\u00ff"), raw: atob(" aGn/ "), clone: [clone.d instanceof Date, clone.m.get(1).s.has(2), clone.r.flags],
        globalProto: Object.getPrototypeOf(globalThis),
      };`);
    const expected = new URL("../b/c?x=1&y=a+b#frag", "https://user:pw@example.test:8443/p/q");
    expected.searchParams.append("z", "1 2&3");
    expected.hash = "";
    const params = new URLSearchParams({ q: "é ü", n: "1" });
    params.sort();
    const bytes = new TextEncoder().encode("héllo ✓ 😀");
    expect(first.result).toEqual({
      href: expected.href, origin: expected.origin, port: "8443", search: expected.search, params: params.toString(), invalid: false,
      bytes: Array.from(bytes), text: "héllo ✓ 😀", lossy: "\ufffdA", b64: btoa("hi\u00ff"), raw: atob(" aGn/ "), clone: [true, true, "g"],
      globalProto: null,
    });
    // The URL kept in state still works in the next run; the timer died with its run.
    const second = await ok("await new Promise((r) => setTimeout(r, 400)); return { kept: state.url instanceof URL && state.url.hostname, fired: state.timerFired ?? false }");
    expect(second.result).toEqual({ kept: "example.test", fired: false });
  });

  it("setInterval ticks with its arguments until cleared, and stops with its run", async () => {
    const first = await ok(`
      let n = 0;
      await new Promise((resolve) => { const id = setInterval((step) => { n += step; if (n === 3) { clearInterval(id); resolve(); } }, 20, 1); });
      const stopped = n;
      await new Promise((r) => setTimeout(r, 100));
      state.ticks = 0;
      setInterval(() => { state.ticks++; }, 20);
      await new Promise((r) => setTimeout(r, 200));
      return { stopped, after: n, ticking: state.ticks >= 3 }`);
    expect(first.result).toEqual({ stopped: 3, after: 3, ticking: true });
    // Never cleared by the snippet, the interval died when its run ended.
    const second = await ok("const at = state.ticks; await new Promise((r) => setTimeout(r, 200)); return state.ticks - at");
    expect(second.result).toBe(0);
  });

  it("bounds a run's pending timers: the snippet can catch the refusal, or fails with LIMIT_EXCEEDED", async () => {
    const caught = await ok(`let n = 0;
      try { for (;;) { (n % 2 ? setInterval : setTimeout)(() => {}, 60_000); n++; } } catch (e) { return { n, code: e.code } }`);
    expect(caught.result).toEqual({ n: MAX_TIMERS_PER_RUN, code: "LIMIT_EXCEEDED" });
    const thrown = await exec(`for (let i = 0; i <= ${MAX_TIMERS_PER_RUN}; i++) setTimeout(() => {}, 60_000)`);
    expect(thrown).toMatchObject({ ok: false, error: { code: "LIMIT_EXCEEDED", message: expect.stringContaining(`${MAX_TIMERS_PER_RUN} pending timers`) } });
    // They died with their runs: the next run has room again.
    const fresh = await ok(`for (let i = 0; i < ${MAX_TIMERS_PER_RUN}; i++) clearTimeout(setTimeout(() => {}, 60_000)); return "room"`);
    expect(fresh.result).toBe("room");
  });
});
