// Stealth mode against bot detection, end to end: the same snippet on the
// same detector page (BotD and the known automation checks, served on
// 127.0.0.1), once by a default daemon and once by a --stealth one. By
// default the detectors fire; in stealth mode none does, and the snippet can
// no longer read the page's own globals (the documented cost).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { botdSource, DETECTOR_PAGE, DETECTORS } from "./fixtures/detector-page.js";

// Evaluate as a snippet would (the trap sees main-world calls), let the page look again, read its verdict from the DOM.
const PROBE = `await page.goto(args.url);
  const links = await page.evaluate(() => document.querySelectorAll("a").length + (document.querySelector("pre") ? 1 : 0));
  const global = await page.evaluate(() => typeof window.pageGlobal);
  await page.waitForFunction(() => document.querySelector("#verdict").textContent.includes('"botd":') && !document.querySelector("#verdict").textContent.includes('"pending"'));
  await page.waitForTimeout(300);
  return { links, global, verdict: JSON.parse(await page.textContent("#verdict")) };`;

describe("stealth mode against bot detection", () => {
  let home: string;
  let server: TestServer;
  const probe = async (extra: string[]) => {
    const r = await runCli(["exec", ...extra, "--session", "probe", "--args", JSON.stringify({ url: `${server.url}/` }), "-c", PROBE], { home });
    expect(r.json, r.stdout + r.stderr).toMatchObject({ ok: true });
    return r.json.result as { links: number; global: string; verdict: Record<string, unknown> };
  };

  beforeAll(async () => {
    home = tempHome("bw-stealth-");
    server = await startServer({
      "/": DETECTOR_PAGE,
      "/botd.js": (_req, res) => { res.writeHead(200, { "content-type": "text/javascript" }).end(botdSource()); },
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("by default the detectors see automation: webdriver, the main-world trap, a headless user agent, BotD", async () => {
    const { verdict, global, links } = await probe(["--profile", "plain"]);
    console.log(`default: ${JSON.stringify(verdict)}`);
    expect(links).toBe(1);
    expect(global).toBe("object");
    expect(verdict).toMatchObject({ webdriver: true, mainWorldTrap: true, headlessUserAgent: true });
    expect(verdict.botd).not.toBe(false);
  }, 120_000);

  it("with --stealth no detector fires, the snippet's evaluation still works, and page globals are out of its reach", async () => {
    const { verdict, global, links } = await probe(["--profile", "hidden", "--stealth"]);
    console.log(`stealth: ${JSON.stringify(verdict)}`);
    for (const name of DETECTORS) expect(verdict[name], name).toBe(false);
    expect(verdict.userAgent).toMatch(/ Chrome\/\d+\.0\.0\.0 /);
    expect(links).toBe(1);
    expect(global).toBe("undefined");
  }, 120_000);

  it("in stealth mode CSS locators, $eval and $$eval evaluate on the page's elements without springing the trap", async () => {
    const r = await runCli(["exec", "--profile", "hidden", "--stealth", "--session", "probe", "--args", JSON.stringify({ url: `${server.url}/` }), "-c", `
      await page.goto(args.url);
      const one = await page.locator("#verdict").evaluate((el, suffix) => el.id + suffix, "!");
      const all = await page.locator("script, pre").evaluateAll((els) => els.length);
      const viaEval = await page.$eval("pre", (el) => el.tagName);
      const count = await page.$$eval("pre", (els) => els.length);
      await page.waitForTimeout(300);
      const verdict = JSON.parse(await page.textContent("#verdict"));
      let thrown = null;
      try { await page.evaluate(() => { throw new Error("from the page function") }) } catch (e) { thrown = e.message }
      let byRole = null;
      try { await page.getByRole("heading").evaluate((el) => el.tagName) } catch (e) { byRole = e.code }
      const tools = await page.webmcp.tools();
      return { one, all, viaEval, count, trap: verdict.mainWorldTrap, thrown, byRole, tools }`], { home });
    expect(r.json, JSON.stringify(r.json?.error)).toMatchObject({ ok: true, result: { one: "verdict!", all: 2, viaEval: "PRE", count: 1, trap: false } });
    expect(r.json.result.thrown).toMatch(/from the page function/);
    // Playwright's own locator engines run in its worlds: an element-bound evaluation takes CSS, and says so.
    expect(r.json.result.byRole).toBe("INVALID_ARGUMENT");
    // The WebMCP bridge works the same (it always runs in a world of its own).
    expect(r.json.result.tools).toEqual([]);
  }, 120_000);
});
