// An isolated session's cookies and storage survive a crash of Chromium, of
// the worker and of the daemon: each run's storage is autosaved (sealed with
// the vault key, private to the session, never listed as a user's state),
// and the context made again after the crash starts from it. The pages are
// still lost, and the next call says so. A session closed normally leaves no
// autosave behind, and nothing on disk holds the login in clear.
import { existsSync, statSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daemonPids, destroyHome, runCli, tempHome, type CliResult } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { filesHolding } from "../helpers/secret-files.js";
import { childrenMatching, until, waitForExit, workersOf } from "../helpers/procs.js";

const SESSION_TOKEN = "crash-cookie-7f3a91c2";
const LOCAL_TOKEN = "crash-local-5be04d17";

describe("an isolated session's storage through crashes", () => {
  let home: string;
  let server: TestServer;
  const outputs: CliResult[] = [];

  beforeAll(async () => {
    home = tempHome("bw-iso-crash-");
    server = await startServer({
      "/login": (_req: http.IncomingMessage, res: http.ServerResponse) => {
        res.writeHead(200, { "content-type": "text/html", "cache-control": "no-store", "set-cookie": `auth=${SESSION_TOKEN}; Path=/; HttpOnly` })
          .end(`<title>signing in</title><script>localStorage.setItem("token", ${JSON.stringify(LOCAL_TOKEN)}); document.title = "signed in";</script>`);
      },
      // Says who is signed in without printing the secrets. Neither page is cached: the secrets are in their text.
      "/account": (req: http.IncomingMessage, res: http.ServerResponse) => {
        const cookie = (req.headers.cookie ?? "").includes(`auth=${SESSION_TOKEN}`);
        res.writeHead(200, { "content-type": "text/html", "cache-control": "no-store" })
          .end(`<title>checking</title><script>document.title = JSON.stringify({ cookie: ${cookie}, local: localStorage.getItem("token") === ${JSON.stringify(LOCAL_TOKEN)} });</script>`);
      },
    });
  });

  afterAll(async () => {
    const leaks = filesHolding(home, [SESSION_TOKEN, LOCAL_TOKEN]);
    await destroyHome(home);
    await server.close();
    expect(leaks).toEqual([]);
    for (const out of outputs) expect(out.stdout + out.stderr).not.toMatch(new RegExp(`${SESSION_TOKEN}|${LOCAL_TOKEN}`));
  });

  const cli = async (args: string[]) => {
    const result = await runCli(args, { home });
    outputs.push(result);
    return result;
  };
  const signIn = () => `await page.goto(${JSON.stringify(`${server.url}/login`)}); return page.title()`;
  const account = () => `await page.goto(${JSON.stringify(`${server.url}/account`)}); await page.waitForFunction(() => document.title !== "checking"); return JSON.parse(await page.title())`;
  const autosave = (session: string) => path.join(home, "states", "default", ".autosave", `${session}.state`);
  const signedIn = async (session: string) => {
    const r = await cli(["exec", "--session", session, "--isolated", "--timeout", "60", "-c", signIn()]);
    expect(r.json, r.stderr).toMatchObject({ ok: true, result: "signed in" });
    // The autosave lands just after the run's answer.
    expect(await until(() => existsSync(autosave(session)), 15_000)).toBe(true);
  };
  const onlyDaemon = () => {
    const pids = daemonPids(home);
    expect(pids).toHaveLength(1);
    return pids[0]!;
  };
  const expectBack = async (session: string) => {
    const next = await cli(["exec", "--session", session, "--timeout", "60", "-c", account()]);
    expect(next.json, next.stderr).toMatchObject({ ok: true, result: { cookie: true, local: true } });
    expect(next.json.warnings.map((w: { code: string }) => w.code)).toContain("SESSION_RESET");
  };

  it("Chromium killed: the next call finds the cookie and local storage again", async () => {
    await signedIn("buyer");
    const info = statSync(autosave("buyer"));
    expect(info.mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(autosave("buyer"))).mode & 0o777).toBe(0o700);
    // Private to the session: not one of the user's saved states.
    const listed = await cli(["state", "list", "--json"]);
    expect(listed.json.states).toEqual([]);

    const [worker] = workersOf(onlyDaemon());
    const browsers = childrenMatching(worker!, /chrom/i);
    expect(browsers).toHaveLength(1);
    process.kill(browsers[0]!, "SIGKILL");
    expect(await waitForExit(browsers, 5_000)).toEqual([]);
    await expectBack("buyer");
    // A shared session never had storage of its own to bring back: it has the profile's.
    expect((await cli(["exec", "--session", "shared", "--timeout", "60", "-c", account()])).json.result).toEqual({ cookie: false, local: false });
  });

  it("the worker killed: the new worker's context starts from the autosave", async () => {
    await signedIn("w");
    const [worker] = workersOf(onlyDaemon());
    process.kill(worker!, "SIGKILL");
    await expectBack("w");
  });

  it("the daemon killed: the new daemon brings the session back isolated, from its autosave", async () => {
    await signedIn("d");
    process.kill(onlyDaemon(), "SIGKILL");
    await expectBack("d");
  });

  it("a session closed normally leaves no autosave; a new session of that name starts empty", async () => {
    await signedIn("gone");
    expect((await cli(["close", "--session", "gone"])).code).toBe(0);
    expect(existsSync(autosave("gone"))).toBe(false);
    const again = await cli(["exec", "--session", "gone", "--isolated", "-c", account()]);
    expect(again.json).toMatchObject({ ok: true, result: { cookie: false, local: false }, warnings: [] });
    // A clean stop keeps none either.
    expect((await cli(["close", "--all"])).code).toBe(0);
    expect(existsSync(path.dirname(autosave("buyer")))).toBe(false);
  });
});
