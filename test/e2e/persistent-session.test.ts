// Two CLI processes, one session: the second finds the same daemon, browser,
// page and state the first left, and the transcript keeps both runs.
import { statSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layoutFor, transcriptPath } from "../../shared/paths.js";
import { daemonPids, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

describe("a persistent session across CLI processes", () => {
  let home: string;
  let server: TestServer;

  beforeAll(async () => {
    home = tempHome();
    server = await startServer({
      "/": "<title>Front page</title><h1>Hello</h1><a href='/next'>next</a>",
      "/next": "<title>Second page</title><p id='msg'>second</p>",
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

  it("refuses a bad session name with exit 2 before creating anything", async () => {
    const bad = await runCli(["exec", "--session", "../escape", "-c", "1"], { home });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("INVALID_ARGUMENT");
  });
});
