// Sessions share no fate through the worker's main thread or the browser.
// A session's catastrophic URL pattern, its byte floods and its thousands
// of page calls in flight end its own run at most; a bystander session that
// set up a page and `state` beforehand keeps both, gets no SESSION_RESET and
// no warning, and its calls complete, in order, while the attack runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { calmSetUp as bystanderSetUp } from "../helpers/bystander.js";

interface Envelope {
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
  warnings: { code: string }[];
  pages: { url: string }[];
}

/** Backtracks for ever on a data: URL (the pattern of the report); matched on the main thread it held every session. */
const CATASTROPHIC = "/^(d|da|dat|data|[a-z:,\\/%<>A-Z]+)+!$/";
const DATA_PAGE = JSON.stringify("data:text/html,<title>A</title>");
/** 40 a's and a "!": `(a|a)*$` backtracks 2^40 times on it. */
const AS = "a".repeat(40);

describe("sessions share no fate", () => {
  let home: string;
  let server: TestServer;
  const exec = async (session: string, code: string, extra: string[] = []) => {
    const r = await runCli(["exec", "--session", session, ...extra, "-c", code], { home, timeoutMs: 110_000 });
    if (!r.json) throw new Error(`no envelope: ${r.stdout} ${r.stderr}`);
    return r.json as Envelope;
  };

  beforeAll(async () => {
    home = tempHome("bw-lanes-");
    server = await startServer({
      "/calm": "<title>Calm</title><p id=t>calm text</p>",
      "/as": `<title>As</title><p>${AS}!</p><button>${AS}!</button><iframe name=inner src="/inner"></iframe>`,
      "/inner": "<title>Inner</title><p>inner</p>",
      "/tall": "<title>Tall</title><div style='height:15000px;background:linear-gradient(red,blue)'></div>",
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server?.close();
  });

  /** The bystander: a page and `state` that must outlive whatever another session does. (test/helpers/bystander.ts) */
  const calmSetUp = () => bystanderSetUp(exec, server.url);
  /** Its calls, in order, with their page and state intact, and not a word of a reset. */
  const calmWorks = async () => {
    const r = await exec("calm", `const order = [];
      for (let i = 0; i < 5; i++) { await page.locator("#t").textContent(); order.push(i); }
      return [page.url(), await page.title(), state.mark, order]`);
    expect(r).toMatchObject({ ok: true, result: [`${server.url}/calm`, "Calm", "kept", [0, 1, 2, 3, 4]], warnings: [] });
  };
  /** Runs the attack in session `hog` and the bystander's calls while it is in flight; the attack's envelope. */
  const beside = async (code: string, timeoutSeconds = 5): Promise<Envelope> => {
    await calmSetUp();
    const attack = exec("hog", code, ["--timeout", String(timeoutSeconds)]);
    await new Promise((r) => setTimeout(r, 1_500));
    await calmWorks();
    const result = await attack;
    await calmWorks();
    return result;
  };

  describe("no snippet-supplied pattern runs on the worker's main thread", () => {
    const held = [
      ["page.waitForURL", `await page.goto(${DATA_PAGE}); await page.waitForURL(${CATASTROPHIC}, { timeout: 8000 })`],
      ["frame.waitForURL", `await page.goto(${DATA_PAGE}); await page.mainFrame().waitForURL(${CATASTROPHIC}, { timeout: 8000 })`],
      ["page.frame({ url })", `await page.goto(${DATA_PAGE}); return page.frame({ url: ${CATASTROPHIC} })`],
      ["a glob", `await page.goto(${JSON.stringify(`data:text/html,${"a".repeat(60)}`)}); await page.waitForURL("${"**a".repeat(12)}**b", { timeout: 8000 })`],
      ["a predicate", `await page.goto(${DATA_PAGE}); await page.waitForURL(() => { for (;;) {} })`],
    ];
    for (const [what, code] of held) {
      it(`${what}: a pattern that never finishes ends its own run only`, async () => {
        const hog = await beside(code!);
        expect(hog).toMatchObject({ ok: false, error: { code: "SNIPPET_TIMEOUT" } });
      });
    }

    it("URL matching in the realm keeps Playwright's meaning: RegExp, glob, predicate, frame by url, timeout", async () => {
      const r = await exec("urls", `await page.goto(${JSON.stringify(`${server.url}/as`)});
        await page.waitForURL(/\\/as$/); await page.waitForURL("**/as"); await page.waitForURL((u) => u.pathname === "/as");
        await page.frame({ url: /inner/ }).waitForURL("**/inner");
        setTimeout(() => page.evaluate(() => { location.hash = "two"; }), 200);
        await page.waitForURL(/#two$/, { timeout: 10000 });
        let late; try { await page.waitForURL("**/never", { timeout: 300 }); } catch (e) { late = e.name; }
        return [await page.frame({ url: "**/inner" }).title(), page.frame({ name: "inner" }) === page.frame({ url: /inner$/ }), page.frame({ url: /nothing/ }), late]`);
      expect(r).toMatchObject({ ok: true, result: ["Inner", true, null, "TimeoutError"] });
    });

    it("locator patterns are matched in the page's renderer, which a catastrophic one no longer holds", async () => {
      const hog = await beside(`await page.goto(${JSON.stringify(`${server.url}/as`)});
        return [await page.getByText(/^(a|a)+$/).count(), await page.locator("p").filter({ hasText: /^(a|a)+$/ }).count(),
          await page.getByRole("button", { name: /^(a|a)+$/ }).count(), await page.title()]`, 60);
      expect(hog).toMatchObject({ ok: true, result: [0, 0, 0, "As"] });
    });

    it("a RegExp anywhere the main thread could match it is INVALID_ARGUMENT; evaluate's arguments still carry one", async () => {
      const r = await exec("urls", `let refused; try { await page.locator("p").first().textContent({ timeout: /x/ }); } catch (e) { refused = e.code; }
        return [refused, await page.evaluate((re) => re.test("as"), /^as$/)]`);
      expect(r).toMatchObject({ ok: true, result: ["INVALID_ARGUMENT", true] });
    });
  });

  describe("the bytes and calls one session sends into the browser are bounded", () => {
    const floods = [
      ["thirty 100 MB evaluate() arguments", `const s = "x".repeat(100e6); await Promise.all(Array.from({ length: 30 }, () => page.evaluate((a) => a.length, s)))`],
      ["a hundred 2 MB calls at once", `const s = "x".repeat(2e6); await Promise.all(Array.from({ length: 100 }, () => page.evaluate((a) => a.length, s)))`],
      ["20,000 concurrent page.title()", `const ps = []; for (let i = 0; i < 20000; i++) ps.push(page.title()); await Promise.all(ps)`],
      ["a 100 MB setContent", `await page.setContent("<p>" + "x".repeat(100e6))`],
      ["a 100 MB fill", `await page.setContent("<input id=i>"); await page.fill("#i", "x".repeat(100e6))`],
      ["a 50 MB result", `return await page.evaluate(() => "y".repeat(50e6))`],
    ];
    for (const [what, code] of floods) {
      it(`${what}: LIMIT_EXCEEDED before the browser, and the bystander never notices`, async () => {
        const hog = await beside(code!, 60);
        expect(hog).toMatchObject({ ok: false, error: { code: "LIMIT_EXCEEDED" } });
        const after = await exec("hog", "return page.evaluate(() => 1 + 1)");
        expect(after).toMatchObject({ ok: true, result: 2 });
        expect(after.warnings.map((w) => w.code)).not.toContain("SESSION_RESET");
      });
    }

    it("ten full-page screenshots at once are taken one at a time, beside a bystander", async () => {
      const hog = await beside(`await page.goto(${JSON.stringify(`${server.url}/tall`)});
        const shots = await Promise.all(Array.from({ length: 10 }, () => screenshot({ fullPage: true, type: "jpeg", quality: 10 })));
        return shots.length`, 90);
      expect(hog).toMatchObject({ ok: true, result: 10 });
    });
  });

  it("calls waiting on the page give way: reads waiting for elements that a later call of the same session adds all answer", async () => {
    const r = await exec("waits", `await page.setContent("<p>x</p>");
      const reads = Array.from({ length: 8 }, (_, i) => page.textContent("#b" + i));
      await page.evaluate(() => { for (let i = 0; i < 8; i++) { const b = document.createElement("b"); b.id = "b" + i; b.textContent = String(i); document.body.append(b); } });
      return (await Promise.all(reads)).join("")`, ["--timeout", "30"]);
    expect(r).toMatchObject({ ok: true, result: "01234567" });
  });

  it("a session with thousands of calls in flight does not starve another: its calls complete in order, with no reset", async () => {
    const hog = await beside(`const end = Date.now() + 6000; let rounds = 0;
      while (Date.now() < end) { await Promise.all(Array.from({ length: 900 }, () => page.title())); rounds++; }
      return rounds > 0`, 60);
    expect(hog).toMatchObject({ ok: true, result: true });
  });
});
