// A snippet that is one page call runs without its realm: each must end
// exactly as the same call does through the realm (its twin, which only the
// parentheses keep from being taken for a lone call): the same result, or
// the same error code and message, and the same pages.
import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, execSnippet, runCli, tempHome } from "../helpers/cli.js";
import { daemonProcessesOf, workersOf } from "../helpers/procs.js";
import type { Envelope } from "../../shared/protocol/envelope.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

describe("lone-call snippets against real Chromium", () => {
  let home: string;
  let server: TestServer;
  const exec = (code: string, session = "lone") => execSnippet(home, session, code);
  const outcome = (e: Envelope) => ({ ok: e.ok, result: e.result, error: e.error && { code: e.error.code, message: e.error.message }, pages: e.pages, console: e.console });

  beforeAll(async () => {
    home = tempHome("bw-lone-");
    server = await startServer({
      "/a": `<title>Lone</title><p id="t">hello</p><input id="q" value="v"><button onclick="document.title = 'clicked'">Go</button>`,
    });
    const first = await exec(`await page.goto(${JSON.stringify(`${server.url}/a`)}); return 1`);
    expect(first.ok).toBe(true);
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("ends as the same call through the realm does: results, nothing, errors and refusals", async () => {
    const calls = [
      "page.title()",
      'page.locator("#t").textContent()',
      'page.getByRole("button", {"name": "Go"}).isVisible()',
      'page.locator("p").count()',
      'page.inputValue("#q")',
      'page.getAttribute("#q", "id")',
      'page.locator("#missing").textContent({"timeout": 100})',
      'page.locator("#t").nth("x").count()',
      'page.locator("#t").getAttribute()',
      'page.click("#missing", {"timeout": 50})',
      'page.waitForTimeout(1)',
      "page.evaluate(() => document.title)",
      "page.evaluate((n) => n + 1, 41)",
      'page.evaluate(([a, b]) => ({ a, b, none: undefined, nan: NaN, list: [1, undefined] }), ["x", {"y": null}])',
      'page.evaluate(() => { let d = "end"; for (let i = 0; i < 25; i++) d = { d }; return d })',
      "page.evaluate(() => Array.from({ length: 10003 }, (_, i) => i))",
      "page.evaluate(() => new Date(0))",
      'page.evaluate(() => { throw new Error("boom") })',
      "page.evaluate(async () => { await new Promise((r) => setTimeout(r, 10)); return 5 })",
      "page.evaluate(() => nosuch.value)",
      'page.locator("#t").evaluate((e) => e.textContent)',
      'page.locator("p, input").evaluateAll((els) => els.map((e) => e.id))',
      'page.evaluate(() => { document.title = "set by evaluate"; return 1 })',
    ];
    for (const call of calls) {
      const lone = await exec(`return ${call}`);
      const twin = await exec(`return (${call})`);
      expect(outcome(lone), call).toEqual(outcome(twin));
    }
    // An action: its result is null either way, and it acted.
    expect(outcome(await exec('page.click("button")'))).toMatchObject({ ok: true, result: null });
    expect((await exec("return page.title()")).result).toBe("clicked");
  });

  it("leaves the realm's state alone, and after the page was closed ends as its twin does", async () => {
    await exec("state.kept = 41; return 1");
    expect((await exec('await page.locator("#t").count()')).result).toBe(1);
    expect((await exec("state.kept += 1; return state.kept")).result).toBe(42);
    const closed = await exec("await closePage(); return pages().length", "lone-empty");
    expect(closed.ok).toBe(true);
    const lone = await exec("page.title()", "lone-empty");
    const twin = await exec("(page.title())", "lone-empty");
    expect(outcome(lone)).toEqual(outcome(twin));
  });

  it("starts no realm thread: the worker gains one only when a snippet holds code", async () => {
    const own = tempHome("bw-lone-threads-");
    try {
      const run = (session: string, code: string) => execSnippet(own, session, code);
      // A snippet with code starts the worker and its session's realm; closing the session ends that realm.
      expect((await run("warm", "const n = 1; return n")).result).toBe(1);
      await runCli(["close", "--session", "warm"], { home: own });
      const [daemon] = daemonProcessesOf(own);
      const [worker] = workersOf(daemon!);
      const threads = () => readdirSync(`/proc/${worker}/task`).length;
      const settled = async () => {
        for (let last = -1, now = threads(); ; last = now, now = threads()) {
          if (now === last) return now;
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      };
      const before = await settled();
      for (let i = 0; i < 3; i++) expect((await run("counted", "page.title()")).result).toBe("");
      expect((await run("counted", "return page.evaluate(() => document.title + 1)")).result).toBe("1");
      expect(await settled()).toBe(before);
      expect((await run("counted", "const t = await page.title(); return t")).result).toBe("");
      expect(await settled()).toBe(before + 1);
    } finally {
      await destroyHome(own);
    }
  });
});
