// Two CLI processes, one session: the second finds the same daemon, browser,
// page and state the first left, and the transcript keeps both runs.
import { statSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORPHAN_GRACE_MS } from "../../daemon/browser-worker/browser-host.js";
import { MAX_PAGES_PER_SESSION } from "../../daemon/browser-worker/page-registry.js";
import { layoutFor, transcriptPath } from "../../shared/paths.js";
import { daemonPids, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

describe("a persistent session across CLI processes", () => {
  let home: string;
  let server: TestServer;
  /** Requests to /beat: popups of the spawner page that are still alive. */
  let beats = 0;

  beforeAll(async () => {
    home = tempHome();
    server = await startServer({
      "/": "<title>Front page</title><h1>Hello</h1><a href='/next'>next</a>",
      "/next": "<title>Second page</title><p id='msg'>second</p>",
      "/opener": "<title>Opener</title><a target='_blank' href='/next'>open</a>",
      // Opens a popup every 5 ms; each popup calls home every 50 ms for as long as it lives.
      "/spawner": "<title>Spawner</title><script>let n = 0; const t = setInterval(() => { if (++n > 400) clearInterval(t); window.open('/beater'); }, 5)</script>",
      "/beater": "<title>Beater</title><script>setInterval(() => fetch('/beat'), 50)</script>",
      "/beat": (_req, res) => {
        beats++;
        res.writeHead(204).end();
      },
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("keeps the page and state between two exec processes and records both in the transcript", async () => {
    const first = await runCli(["exec", "--session", "research", "-c",
      `await page.goto(${JSON.stringify(server.url + "/")}); await page.click("a"); await page.waitForURL("**/next"); state.visits = 1; return page.title()`], { home });
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.json).toMatchObject({ ok: true, result: "Second page", session: "research", profile: "default", seq: 1 });
    const firstPid = daemonPids(home);

    const second = await runCli(["exec", "--session", "research", "-c",
      "state.visits += 1; return { url: page.url(), visits: state.visits, text: await page.textContent('#msg') }"], { home });
    expect(second.code).toBe(0);
    expect(second.json.result).toEqual({ url: `${server.url}/next`, visits: 2, text: "second" });
    expect(second.json.seq).toBe(2);
    expect(second.json.pages).toEqual([{ pageId: "p1", url: `${server.url}/next`, title: "Second page", active: true }]);
    expect(daemonPids(home)).toEqual(firstPid);

    const layout = layoutFor(home, "default");
    expect(statSync(layout.socketPath).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    const lines = readFileSync(transcriptPath(layout, "research"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.seq, l.ok, l.runId])).toEqual([[1, true, first.json.runId], [2, true, second.json.runId]]);
    expect(lines[0].snippet).toContain("state.visits = 1");
    expect(lines[1].pages).toEqual([`${server.url}/next`]);
    expect(statSync(transcriptPath(layout, "research")).mode & 0o777).toBe(0o600);
  });

  it("reads the snippet from a file and from stdin, and reports snippet errors with exit 1", async () => {
    const piped = await runCli(["exec", "--session", "research", "-"], { home, input: "return state.visits" });
    expect(piped.json).toMatchObject({ ok: true, result: 2 });

    const thrown = await runCli(["exec", "--session", "research", "-c", "throw new Error('nope')"], { home });
    expect(thrown.code).toBe(1);
    expect(thrown.json).toMatchObject({ ok: false, error: { code: "SNIPPET_ERROR", message: "nope", retryable: false } });

    const syntax = await runCli(["exec", "--session", "research", "-c", "return ("], { home });
    expect(syntax.code).toBe(1);
    expect(syntax.json.error.code).toBe("SNIPPET_SYNTAX_ERROR");
  });

  // The run's own page.title() may stand in for the envelope's read (daemon/browser-worker/page-titles.ts): never when the title may have moved since.
  it("reports each page's title as the run left it: set by its code, late, after a navigation, on pages it opened or closed", async () => {
    const titles = async (code: string) => {
      const run = await runCli(["exec", "--session", "titles", "-c", code], { home });
      expect(run.json).toMatchObject({ ok: true });
      return { result: run.json.result, pages: (run.json.pages as { pageId: string; title: string; active: boolean }[]).map((p) => [p.pageId, p.title, p.active]) };
    };
    const front = JSON.stringify(`${server.url}/`);

    expect(await titles(`await page.goto(${front}); const t = await page.title(); await page.evaluate(() => { document.title = "Set by the run" }); return t`))
      .toEqual({ result: "Front page", pages: [["p1", "Set by the run", true]] });
    // A title read while another call of the run is still changing the page.
    expect(await titles(`const [, t] = await Promise.all([page.evaluate(() => new Promise((r) => setTimeout(() => { document.title = "Late"; r(); }, 20))), page.title()]); return t`))
      .toEqual({ result: "Set by the run", pages: [["p1", "Late", true]] });
    // The page navigates on its own after the run read the title (a second later: a busy machine may take a while to read it).
    expect(await titles(`await page.goto(${front}); await page.evaluate(() => setTimeout(() => { location.href = "/next" }, 1_000)); const t = await page.title(); await new Promise((r) => setTimeout(r, 2_500)); return t`))
      .toEqual({ result: "Front page", pages: [["p1", "Second page", true]] });
    expect(await titles(`const p = await openPage(${front}); return p.title()`))
      .toEqual({ result: "Front page", pages: [["p1", "Second page", false], ["p2", "Front page", true]] });
    expect(await titles(`await closePage(); return page.title()`))
      .toEqual({ result: "Second page", pages: [["p1", "Second page", true]] });
  });

  it("shows a title the page changed on its own, between runs or after the run's last read", async () => {
    const run = (code: string) => runCli(["exec", "--session", "titles", "-c", code], { home });
    await run(`await page.evaluate(() => setTimeout(() => { document.title = "Changed by the page" }, 100))`);
    await new Promise((r) => setTimeout(r, 400));
    expect((await run("return 1")).json.pages[0].title).toBe("Changed by the page");

    const late = await run(`await page.evaluate(() => setTimeout(() => { document.title = "Page timer" }, 100)); const t = await page.title(); await new Promise((r) => setTimeout(r, 400)); return t`);
    expect(late.json).toMatchObject({ ok: true, result: "Changed by the page", pages: [{ pageId: "p1", title: "Page timer" }] });
  });

  it("takes the pages its pages open (target=_blank, window.open) into the session, up to the page bound", async () => {
    const run = (code: string) => runCli(["exec", "--session", "popups", "-c", code], { home });
    const waitForPages = (n: number) => `for (let i = 0; i < 100 && pages().length < ${n}; i++) await new Promise((r) => setTimeout(r, 50));`;
    const clicked = await run(`await page.goto(${JSON.stringify(`${server.url}/opener`)}); await page.click("a"); ${waitForPages(2)}
      const popup = usePage(pages()[1].pageId); await popup.waitForLoadState(); return { url: popup.url(), text: await popup.textContent("#msg") }`);
    expect(clicked.json, clicked.stderr).toMatchObject({ ok: true, result: { url: `${server.url}/next`, text: "second" } });
    expect(clicked.json.pages).toEqual([
      { pageId: "p1", url: `${server.url}/opener`, title: "Opener", active: false },
      { pageId: "p2", url: `${server.url}/next`, title: "Second page", active: true },
    ]);

    // Opened by the page's own script, and seen by the next run.
    await run(`await page.evaluate(() => { window.open("/next") })`);
    const later = await run(`${waitForPages(3)} return pages().map((p) => p.pageId)`);
    expect(later.json.result).toEqual(["p1", "p2", "p3"]);

    // Past the bound a popup is closed at once, and the run that let it open is told.
    const bounded = await run(`while (pages().length < ${MAX_PAGES_PER_SESSION}) await openPage();
      await page.evaluate(() => { window.open("/next") }); await new Promise((r) => setTimeout(r, 500)); return pages().length`);
    expect(bounded.json).toMatchObject({ ok: true, result: MAX_PAGES_PER_SESSION });
    expect(bounded.json.warnings).toEqual([expect.objectContaining({ code: "LIMIT_EXCEEDED", message: expect.stringContaining("popup") })]);
    expect((await runCli(["close", "--session", "popups"], { home })).code).toBe(0);
  });

  it("leaves no page behind when a session closes while its pages are opening popups", async () => {
    for (let round = 0; round < 3; round++) {
      const session = `orphans-${round}`;
      const run = await runCli(["exec", "--session", session, "-c", `await page.goto(${JSON.stringify(`${server.url}/spawner`)}); await new Promise((r) => setTimeout(r, 200))`], { home });
      expect(run.json).toMatchObject({ ok: true });
      expect((await runCli(["close", "--session", session], { home })).code).toBe(0);
    }
    // A popup that missed its session is closed once it has gone a while without an owner.
    await new Promise((r) => setTimeout(r, ORPHAN_GRACE_MS + 1_500));
    const settled = beats;
    await new Promise((r) => setTimeout(r, 1_000));
    expect(beats - settled).toBe(0);
  });

  it("refuses a bad session name with exit 2 before creating anything", async () => {
    const bad = await runCli(["exec", "--session", "../escape", "-c", "1"], { home });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("INVALID_ARGUMENT");
  });
});
