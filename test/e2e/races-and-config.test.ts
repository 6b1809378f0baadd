// Start-up races, the short-socket fallback, settings negotiation with a
// running daemon, name validation, file modes and the missing-browser path,
// each checked from the outside as a user would see it.
import { existsSync, lstatSync, readdirSync, rmSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layoutFor, SOCKET_PATH_LIMIT_BYTES } from "../../shared/paths.js";
import { MAX_NAME_LENGTH } from "../../shared/names.js";
import { daemonPids, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { daemonProcessesOf, waitForExit } from "../helpers/procs.js";

interface DaemonStatus {
  pid: number;
  profile: string;
  settings: { policy: { allowLoopback: boolean; allowPrivateNetwork: boolean; allowHosts: string[]; blockHosts: string[] } };
  sessions: { session: string }[];
}

describe("races and configuration", () => {
  let home: string;
  let server: TestServer;
  /** Homes destroyed after `home`, in order (a long home before its parent folder). */
  const otherHomes: string[] = [];
  let longHome = "";

  beforeAll(async () => {
    home = tempHome("bw-races-");
    server = await startServer({
      "/set": (req: http.IncomingMessage, res: http.ServerResponse) => {
        const value = new URL(req.url ?? "/", "http://x").searchParams.get("v") ?? "";
        res.writeHead(200, { "content-type": "text/html", "set-cookie": `sid=${value}; Path=/` }).end("<title>set</title>");
      },
      "/": "<title>plain</title>",
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    for (const other of otherHomes) await destroyHome(other);
    await server.close();
  });

  const statuses = async (h: string): Promise<DaemonStatus[]> => (await runCli(["sessions", "--json"], { home: h })).json.daemons;

  it("twenty exec processes started at once on a fresh home all succeed and leave exactly one daemon", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => runCli(["exec", "--session", "race", "-c", `return ${i}`], { home })),
    );
    for (const [i, r] of results.entries()) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.json).toMatchObject({ ok: true, result: i, session: "race" });
    }
    // One daemon served them all: one session, one sequence.
    expect(results.map((r) => r.json.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const pids = daemonPids(home);
    expect(pids).toHaveLength(1);
    // Losers of the race exit on their own; give them a moment, then count what `ps` sees.
    const until = Date.now() + 5_000;
    while (daemonProcessesOf(home).length > 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(daemonProcessesOf(home)).toEqual(pids);
  });

  it("two long-named profiles under a home too long for a unix socket get two daemons with separate cookie jars", async () => {
    const parent = tempHome("bw-long-");
    longHome = path.join(parent, "h".repeat(90));
    otherHomes.push(longHome, parent);
    const first = `p${"q".repeat(40)}1`;
    const second = `p${"q".repeat(40)}2`;
    // Cut at the socket limit, the two in-home socket paths would be one and the same.
    const limit = SOCKET_PATH_LIMIT_BYTES[process.platform] ?? 104;
    const inHome = [first, second].map((p) => layoutFor(longHome, p).homeSocketPath);
    expect(Buffer.byteLength(inHome[0]!)).toBeGreaterThan(limit);
    expect(inHome[0]!.slice(0, limit - 1)).toBe(inHome[1]!.slice(0, limit - 1));

    const set = await runCli(["--profile", first, "exec", "-c", `await page.goto(${JSON.stringify(`${server.url}/set?v=long1`)}); return page.evaluate(() => document.cookie)`], { home: longHome });
    expect(set.code, set.stderr).toBe(0);
    expect(set.json).toMatchObject({ ok: true, result: "sid=long1", profile: first });
    const probe = `await page.goto(${JSON.stringify(`${server.url}/`)}); return page.evaluate(() => document.cookie)`;
    const other = await runCli(["--profile", second, "exec", "-c", probe], { home: longHome });
    expect(other.json).toMatchObject({ ok: true, result: "", profile: second });
    const same = await runCli(["--profile", first, "exec", "--session", "another", "-c", probe], { home: longHome });
    expect(same.json).toMatchObject({ ok: true, result: "sid=long1", profile: first });
    expect(new Set(daemonPids(longHome)).size).toBe(2);
  });

  it("keeps a hardened daemon for calls without flags, refuses different flags while sessions live, and replaces it when idle", async () => {
    const closed = await runCli(["close", "--all", "--json"], { home });
    expect(closed.code).toBe(0);
    const hardened = await runCli(["--block-private-network", "exec", "--session", "pol", "-c", "return 1"], { home });
    expect(hardened.code, hardened.stderr).toBe(0);
    const [pid] = daemonPids(home);

    const plain = await runCli(["exec", "--session", "pol", "-c", "return 2"], { home });
    expect(plain.json).toMatchObject({ ok: true, result: 2 });
    const sameFlags = await runCli(["--block-private-network", "exec", "--session", "pol", "-c", "return 3"], { home });
    expect(sameFlags.json).toMatchObject({ ok: true, result: 3 });
    let [daemon] = await statuses(home);
    expect(daemon!.pid).toBe(pid);
    expect(daemon!.settings.policy).toMatchObject({ allowPrivateNetwork: false, allowLoopback: true });

    const mismatch = await runCli(["--block-host", "example.com", "exec", "--session", "pol", "-c", "return 4"], { home });
    expect(mismatch.code).toBe(2);
    expect(mismatch.json).toMatchObject({ ok: false, error: { code: "CONFIG_MISMATCH" } });
    expect(mismatch.json.error.message).toContain("close --all");
    expect(daemonPids(home)).toEqual([pid]);

    expect((await runCli(["close", "--session", "pol"], { home })).code).toBe(0);
    const replaced = await runCli(["--block-host", "example.com", "exec", "--session", "pol", "-c", "return 5"], { home });
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.json).toMatchObject({ ok: true, result: 5 });
    expect(await waitForExit([pid!], 5_000)).toEqual([]);
    [daemon] = await statuses(home);
    expect(daemon!.pid).not.toBe(pid);
    expect(daemon!.settings.policy.blockHosts).toEqual(["example.com"]);
  });

  it("refuses invalid session and profile names with exit 2 before creating anything", async () => {
    const parent = tempHome("bw-names-");
    const fresh = path.join(parent, "home");
    try {
      const bad = ["../x", "a/b", ".hidden", "con", "a".repeat(MAX_NAME_LENGTH + 1), "x.betterwright-lock"];
      const runs = bad.flatMap((name) => [
        ["exec", "--session", name, "-c", "return 1"],
        ["--profile", name, "exec", "-c", "return 1"],
        ["--json", "--profile", name, "exec", "-c", "return 1"],
        ["transcript", "--session", name],
      ]);
      const results = await Promise.all(runs.map((args) => runCli(args, { home: fresh })));
      for (const [i, r] of results.entries()) {
        expect(r.code, runs[i]!.join(" ")).toBe(2);
        if (runs[i]!.includes("--json")) expect(r.json).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
        else expect(r.stderr).toContain("INVALID_ARGUMENT");
      }
      expect(existsSync(fresh)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it("keeps every folder of the home 0700 and every file 0600, lock directories included", () => {
    const seen = { dirs: 0, files: 0, locks: 0, sockets: 0 };
    const wrong: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        const stat = lstatSync(file);
        const mode = stat.mode & 0o777;
        if (stat.isSymbolicLink()) continue;
        if (stat.isDirectory()) {
          seen.dirs++;
          if (name.endsWith(".betterwright-lock")) seen.locks++;
          if (mode !== 0o700) wrong.push(`${file} ${mode.toString(8)}`);
          walk(file);
        } else {
          seen.files++;
          if (stat.isSocket()) seen.sockets++;
          if (mode !== 0o600) wrong.push(`${file} ${mode.toString(8)}`);
        }
      }
    };
    for (const h of [home, ...otherHomes]) {
      expect(lstatSync(h).mode & 0o777).toBe(0o700);
      walk(h);
    }
    expect(wrong).toEqual([]);
    // The daemons are running: their profile locks and the home's socket are part of the walk.
    expect(seen.locks).toBeGreaterThanOrEqual(3);
    expect(seen.sockets).toBeGreaterThanOrEqual(1);
    expect(seen.files).toBeGreaterThan(10);
  });

  it("with no browser, doctor says what is missing and how to fix it (exit 3) and exec exits 3 with BROWSER_UNAVAILABLE", async () => {
    const noBrowserHome = tempHome("bw-nobrowser-");
    otherHomes.push(noBrowserHome);
    const env = { BETTERWRIGHT_BROWSER: "/nonexistent" };
    const doctor = await runCli(["doctor", "--json"], { home: noBrowserHome, env });
    expect(doctor.code).toBe(3);
    expect(doctor.json.ok).toBe(false);
    const browser = doctor.json.checks.find((c: { name: string }) => c.name === "browser");
    expect(browser).toMatchObject({ ok: false });
    expect(browser.detail).toContain("/nonexistent");
    expect(browser.fix).toContain("betterwright setup");

    const exec = await runCli(["exec", "-c", "return 1"], { home: noBrowserHome, env });
    expect(exec.code).toBe(3);
    expect(exec.json, exec.stdout + exec.stderr).toMatchObject({ ok: false, error: { code: "BROWSER_UNAVAILABLE" } });
    expect(exec.json.error.message).toContain("/nonexistent");
  });

  it("makes the short-socket folder owner-only", () => {
    // The long home's daemons bound outside it; where they did must be ours alone.
    const dir = path.dirname(layoutFor(longHome, `p${"q".repeat(40)}1`).socketPath);
    const stat = lstatSync(dir);
    expect(stat.isDirectory() && !stat.isSymbolicLink()).toBe(true);
    expect(stat.mode & 0o077).toBe(0);
  });
});
