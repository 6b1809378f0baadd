// The caller's environment stays with the caller. A CLI, `serve` and `mcp
// --http` started with cloud keys, a GitHub token and the front doors' own
// BETTERWRIGHT_TOKEN: a compromised worker (the preload of
// fixtures/compromised-worker.mjs) finds none of them in its process.env nor
// in Chromium's /proc/<pid>/environ, and the daemon's environment holds none
// either. The front door still answers to its token.
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { daemonPids, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { compromisedEnv, quietPlan, readFindings, type Findings } from "../helpers/compromised.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { connectHttpMcp, startHttpMcp } from "../helpers/mcp-client.js";
import { call, startServe } from "../helpers/serve.js";

const secret = (name: string) => `${name}-${randomBytes(12).toString("hex")}`;
const CALLER = {
  AWS_SECRET_ACCESS_KEY: secret("aws"),
  GITHUB_TOKEN: secret("gh"),
  BETTERWRIGHT_TOKEN: secret("bwtoken"),
};
const CANARIES = Object.values(CALLER);

/** The caller's values found in each daemon's environment of `home`. */
function canariesInDaemons(home: string): string[] {
  const pids = daemonPids(home);
  expect(pids.length).toBeGreaterThan(0);
  const environ = pids.map((pid) => readFileSync(`/proc/${pid}/environ`, "utf8")).join("\n");
  return CANARIES.filter((c) => environ.includes(c));
}

function expectClean(found: Findings): void {
  expect(found.fixtureError).toBeUndefined();
  expect(found.browserProcesses).toBeGreaterThan(0);
  expect(found.canariesInWorker).toEqual([]);
  expect(found.canariesInBrowser).toEqual([]);
  for (const names of [found.envNames, found.browserEnvNames] as string[][]) {
    expect(names).not.toContain("AWS_SECRET_ACCESS_KEY");
    expect(names).not.toContain("GITHUB_TOKEN");
    expect(names).not.toContain("BETTERWRIGHT_TOKEN");
  }
  // Chromium gets no Node settings, the preload among them.
  expect(found.browserEnvNames).not.toContain("NODE_OPTIONS");
}

describe("the caller's environment", () => {
  const homes: string[] = [];
  let pages: TestServer;
  const home = (prefix: string) => {
    const made = tempHome(prefix);
    homes.push(made);
    return made;
  };
  const env = (h: string) => ({ ...CALLER, ...compromisedEnv(quietPlan(h, { canaries: CANARIES })) });

  afterAll(async () => {
    for (const h of homes) await destroyHome(h);
    await pages?.close();
  }, 60_000);

  it("reaches neither the daemon, the worker nor Chromium from the CLI", async () => {
    pages = await startServer({ "/": "<title>env</title>" });
    const h = home("bw-env-cli-");
    const r = await runCli(["exec", "-c", `await page.goto(${JSON.stringify(pages.url)}); return page.title()`], { home: h, env: env(h) });
    expect(r.json).toMatchObject({ ok: true, result: "env" });
    expectClean(await readFindings(h, "default", 45_000));
    expect(canariesInDaemons(h)).toEqual([]);
  }, 120_000);

  it("keeps serve's BETTERWRIGHT_TOKEN in serve: the token works, and its daemon, worker and Chromium never see it", async () => {
    const h = home("bw-env-serve-");
    const served = await startServe(h, ["--allow-host", "127.0.0.1"], env(h));
    try {
      expect(served.token).toBe(CALLER.BETTERWRIGHT_TOKEN);
      const opened = await call(served, "POST", "/sessions", { body: { id: randomUUID(), url: pages.url } });
      expect(opened.status).toBeLessThan(300);
      expectClean(await readFindings(h, "default", 45_000));
      expect(canariesInDaemons(h)).toEqual([]);
    } finally {
      await served.stop();
    }
  }, 120_000);

  it("keeps mcp --http's BETTERWRIGHT_TOKEN in the MCP server", async () => {
    const h = home("bw-env-mcp-");
    const server = await startHttpMcp(h, ["--http", "127.0.0.1:0", "--allow-host", "127.0.0.1"], env(h));
    try {
      const { client } = await connectHttpMcp(server.url, CALLER.BETTERWRIGHT_TOKEN);
      await client.callTool({ name: "navigate", arguments: { url: pages.url } });
      await client.close();
      expectClean(await readFindings(h, "default", 45_000));
      expect(canariesInDaemons(h)).toEqual([]);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
