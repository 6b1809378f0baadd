// What survives a crash, and what the caller is told: a killed daemon is
// replaced by the next call and takes its worker and browser down with it;
// finished execs stay in the transcript; a killed daemon, worker or browser,
// a CPU loop, a snippet that never settles and Ctrl-C each leave the session
// usable, with SESSION_RESET where pages were lost. Recovery costs about a
// cold start, never a wait for a dead daemon's lock to go stale.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright } from "../../dist/client/index.js";
import { cleanEnv, daemonPids, destroyHome, runCli, startCli, tempHome, waitForRunInFlight } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { childrenMatching, commandLine, descendants, waitForExit, workersOf } from "../helpers/procs.js";

const warningCodes = (envelope: { warnings?: { code: string }[] }) => (envelope.warnings ?? []).map((w) => w.code);

/** What a busy machine may add to a cold start when recovering; a stale lock alone used to cost 10 s. */
const RECOVERY_SLACK_MS = 5_000;

describe("crash recovery", () => {
  let home: string;
  let server: TestServer;
  /** The first call in a fresh home: a daemon, a worker and Chromium started from nothing. */
  let coldStartMs: number;

  beforeAll(async () => {
    home = tempHome("bw-crash-");
    server = await startServer({ "/": "<title>Crash test</title><p>hi</p>" });
    const started = Date.now();
    const first = await runCli(["exec", "--session", "warmup", "-c", "return 1"], { home });
    coldStartMs = Date.now() - started;
    expect(first.json, first.stderr).toMatchObject({ ok: true });
    await runCli(["close", "--session", "warmup"], { home });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  const exec = (session: string, code: string, extra: string[] = []) => runCli(["exec", "--session", session, ...extra, "-c", code], { home });
  const visit = () => `await page.goto(${JSON.stringify(`${server.url}/`)}); return page.title()`;
  const onlyDaemon = () => {
    const pids = daemonPids(home);
    expect(pids).toHaveLength(1);
    return pids[0]!;
  };
  const workerOf = (daemon: number) => {
    const workers = workersOf(daemon);
    expect(workers).toHaveLength(1);
    return workers[0]!;
  };

  it("kill -9 of the daemon: its worker and browser die within seconds, the next call starts a new daemon, and the transcript keeps every finished exec", async () => {
    const runIds: string[] = [];
    for (const code of [visit(), "state.x = 1; return state.x", "throw new Error('finished, but failed')"]) {
      const result = await exec("a", code);
      expect(result.json.runId).toBeTruthy();
      runIds.push(result.json.runId);
    }
    const killed = onlyDaemon();
    const tree = descendants(killed);
    expect(tree.map(commandLine).some((cmd) => /chrom/i.test(cmd))).toBe(true);
    expect(tree.map(commandLine).some((cmd) => /worker\/main\.js/.test(cmd))).toBe(true);

    process.kill(killed, "SIGKILL");
    const killedAt = Date.now();
    const orphansAfter5s = waitForExit(tree, 5_000);
    const next = await exec("a", "return 'after the crash'");
    const recoveryMs = Date.now() - killedAt;
    expect(await orphansAfter5s).toEqual([]);
    expect(next.code, next.stdout + next.stderr).toBe(0);
    expect(next.json).toMatchObject({ ok: true, result: "after the crash", seq: 4 });
    expect(onlyDaemon()).not.toBe(killed);
    expect(warningCodes(next.json)).toEqual(["SESSION_RESET"]);
    expect(next.json.warnings[0].message).toContain(`(pid ${killed}) stopped unexpectedly`);
    expect(next.stderr).toContain(`betterwright: the daemon for profile default had stopped unexpectedly (pid ${killed}); started a new daemon`);
    expect(next.stderr).toContain("betterwright: session a: ");
    expect(recoveryMs, `kill → answer ${recoveryMs} ms, cold start ${coldStartMs} ms`).toBeLessThanOrEqual(coldStartMs + RECOVERY_SLACK_MS);

    const transcript = await runCli(["transcript", "--session", "a", "--json"], { home });
    const entries = transcript.stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(entries.map((e) => [e.seq, e.runId, e.ok])).toEqual([
      [1, runIds[0], true],
      [2, runIds[1], true],
      [3, runIds[2], false],
      [4, next.json.runId, true],
    ]);
    // Told once.
    const again = await exec("a", "return 1");
    expect(warningCodes(again.json)).toEqual([]);
    expect(again.stderr).toBe("");
  });

  it("kill -9 of the daemon: every session it held comes back as it was made and is told once, on its own next call; a clean stop tells nobody", async () => {
    const visited = await exec("idle", visit());
    expect(visited.json, visited.stdout + visited.stderr).toMatchObject({ ok: true });
    const iso = await exec("iso", "return 1", ["--isolated", "--viewport", "600x500"]);
    expect(iso.json, iso.stderr).toMatchObject({ ok: true });
    const killed = onlyDaemon();
    process.kill(killed, "SIGKILL");
    // Another session's call brings the daemon back; "idle" and "iso" are listed, and told when they next run.
    expect((await exec("other", "return 1")).code).toBe(0);
    const listed = await runCli(["sessions", "--json"], { home });
    const byName = new Map<string, { isolated: boolean; settings: unknown }>(listed.json.daemons[0].sessions.map((s: { session: string }) => [s.session, s]));
    expect(byName.get("iso")).toMatchObject({ isolated: true, settings: { viewport: { width: 600, height: 500 } } });
    expect(byName.get("idle")).toMatchObject({ isolated: false });
    const idle = await exec("idle", "return page.url()");
    expect(idle.json).toMatchObject({ ok: true, result: "about:blank" });
    expect(warningCodes(idle.json)).toEqual(["SESSION_RESET"]);
    const isoAgain = await exec("iso", "return page.evaluate(() => [innerWidth, innerHeight])");
    expect(isoAgain.json).toMatchObject({ ok: true, result: [600, 500] });
    expect(warningCodes(isoAgain.json)).toEqual(["SESSION_RESET"]);
    expect(warningCodes((await exec("idle", "return 1")).json)).toEqual([]);

    // A daemon that stopped cleanly lost nothing it had not closed: the next one warns no one.
    expect((await runCli(["close", "--all"], { home })).code).toBe(0);
    const fresh = await exec("idle", "return 1");
    expect(fresh.json).toMatchObject({ ok: true, warnings: [] });
    expect(fresh.stderr).toBe("");
  });

  it("the library is told through onNotice when its next call had to replace a killed daemon", async () => {
    const notices: string[] = [];
    // A profile of its own: a daemon of its own, whatever the other tests left running.
    const bw = new BetterWright({ home, profile: "lib", env: cleanEnv(home), onNotice: (line) => notices.push(line) });
    const libDaemon = () => JSON.parse(readFileSync(path.join(home, "daemon-lib.json"), "utf8")).pid as number;
    try {
      expect((await bw.run("return 1", { session: "lib" })).ok).toBe(true);
      const killed = libDaemon();
      process.kill(killed, "SIGKILL");
      expect(await waitForExit([killed], 5_000)).toEqual([]);
      const next = await bw.run("return 2", { session: "lib" });
      expect(next).toMatchObject({ ok: true, result: 2 });
      expect(warningCodes(next)).toEqual(["SESSION_RESET"]);
      expect(notices).toEqual([`the daemon for profile lib had stopped unexpectedly (pid ${killed}); started a new daemon`]);
    } finally {
      const last = libDaemon();
      await bw.close({ stopDaemon: true });
      // Gone before the next test counts this home's daemons.
      expect(await waitForExit([last], 15_000)).toEqual([]);
    }
  });

  it("kill -9 of the worker: the next call succeeds with a SESSION_RESET warning", async () => {
    expect((await exec("a", visit())).json).toMatchObject({ ok: true, result: "Crash test" });
    process.kill(workerOf(onlyDaemon()), "SIGKILL");
    const killedAt = Date.now();
    const next = await exec("a", "return page.url()");
    const recoveryMs = Date.now() - killedAt;
    expect(next.code).toBe(0);
    expect(next.json).toMatchObject({ ok: true, result: "about:blank" });
    expect(warningCodes(next.json)).toContain("SESSION_RESET");
    expect(next.stderr).toMatch(/^betterwright: session a: the worker restarted since this session's last call; its pages and page state were lost\n$/);
    expect(recoveryMs, `kill → answer ${recoveryMs} ms, cold start ${coldStartMs} ms`).toBeLessThanOrEqual(coldStartMs + RECOVERY_SLACK_MS);
    const after = await exec("a", "return 1");
    expect(warningCodes(after.json)).not.toContain("SESSION_RESET");
  });

  it("kill -9 of Chromium: the next call succeeds with a SESSION_RESET warning", async () => {
    expect((await exec("a", visit())).json).toMatchObject({ ok: true, result: "Crash test" });
    const browsers = childrenMatching(workerOf(onlyDaemon()), /chrom/i);
    expect(browsers).toHaveLength(1);
    process.kill(browsers[0]!, "SIGKILL");
    const killedAt = Date.now();
    expect(await waitForExit(browsers, 5_000)).toEqual([]);
    const next = await exec("a", "return page.url()");
    const recoveryMs = Date.now() - killedAt;
    expect(next.code).toBe(0);
    expect(next.json.ok).toBe(true);
    expect(warningCodes(next.json)).toContain("SESSION_RESET");
    expect(next.stderr).toMatch(/^betterwright: session a: .*lost/);
    expect(recoveryMs, `kill → answer ${recoveryMs} ms, cold start ${coldStartMs} ms`).toBeLessThanOrEqual(coldStartMs + RECOVERY_SLACK_MS);
  });

  it("a CPU loop in session A ends its own realm at its budget; session B answers all along, its page untouched", async () => {
    expect((await exec("b", visit())).json.ok).toBe(true);
    const looping = exec("a", "await page.title(); state.before = 1; while (true) {}", ["--timeout", "4"]);
    await new Promise((r) => setTimeout(r, 1_000));
    // While A's realm spins, B runs, reads its page and finishes with no warning.
    const b1 = await exec("b", "return [page.url(), await page.title()]");
    expect(b1.json).toMatchObject({ ok: true, result: [`${server.url}/`, "Crash test"], warnings: [] });
    const a = await looping;
    expect(a.code).toBe(1);
    expect(a.json).toMatchObject({ ok: false, error: { code: "SNIPPET_TIMEOUT" } });
    expect(a.json.durationMs).toBeLessThan(10_000);
    const b2 = await exec("b", "return page.url()");
    expect(b2.json).toMatchObject({ ok: true, result: `${server.url}/`, warnings: [] });
    // A keeps its pages; its realm was replaced, so its state starts empty, and it is told so once.
    const aAgain = await exec("a", "return [state.before ?? null, pages().length]");
    expect(aAgain.json).toMatchObject({ ok: true, result: [null, 1] });
    expect(warningCodes(aAgain.json)).toEqual(["STATE_RESET"]);
    expect(warningCodes((await exec("a", "return 1")).json)).toEqual([]);
  });

  it("an exec that awaits forever gets SNIPPET_TIMEOUT at its budget, and the session's next exec works", async () => {
    const started = Date.now();
    const stuck = await exec("a", "await new Promise(() => {})", ["--timeout", "2"]);
    expect(stuck.code).toBe(1);
    expect(stuck.json).toMatchObject({ ok: false, error: { code: "SNIPPET_TIMEOUT" } });
    expect(stuck.json.durationMs).toBeGreaterThanOrEqual(1_900);
    expect(stuck.json.durationMs).toBeLessThan(3_500);
    expect(Date.now() - started).toBeLessThan(8_000);
    const next = await exec("a", "return 'next'");
    expect(next.json).toMatchObject({ ok: true, result: "next" });
  });

  it("Ctrl-C on a running exec prints a CANCELLED envelope and exits 1; the session's next exec works", async () => {
    const { child, result } = startCli(["exec", "--session", "a", "-c", "await new Promise(() => {})"], { home });
    // Signal only once the run is in flight, as a user pressing Ctrl-C would.
    await waitForRunInFlight(home, "a");
    child.kill("SIGINT");
    const cancelled = await result;
    expect(cancelled.code).toBe(1);
    expect(cancelled.json).toMatchObject({ ok: false, error: { code: "CANCELLED" }, session: "a" });
    const next = await exec("a", "return 'after ctrl-c'");
    expect(next.json).toMatchObject({ ok: true, result: "after ctrl-c" });
  });
});
