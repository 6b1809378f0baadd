// Races of issue 9 not covered elsewhere: two profiles started together,
// `close --all` in the middle of a burst of execs, and a killed daemon's
// lock taken over within its stale time.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROFILE_LOCK_STALE_MS } from "../../dist/daemon/profile-lock.js";
import { layoutFor } from "../../shared/paths.js";
import { daemonPids, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { alive, commandLine, daemonProcessesOf, descendants, until } from "../helpers/procs.js";

describe("races under load", () => {
  let home: string;

  beforeAll(() => {
    home = tempHome("bw-burst-");
  });

  afterAll(async () => {
    await destroyHome(home);
  });

  it("two profiles started together get two daemons", async () => {
    const [a, b] = await Promise.all([
      runCli(["--profile", "alpha", "exec", "-c", "return 'a'"], { home }),
      runCli(["--profile", "beta", "exec", "-c", "return 'b'"], { home }),
    ]);
    expect(a.json, a.stderr).toMatchObject({ ok: true, result: "a", profile: "alpha" });
    expect(b.json, b.stderr).toMatchObject({ ok: true, result: "b", profile: "beta" });
    const pids = daemonPids(home);
    expect(pids).toHaveLength(2);
    expect(new Set(pids).size).toBe(2);
    for (const profile of ["alpha", "beta"]) expect(await runCli(["--profile", profile, "close", "--all"], { home })).toMatchObject({ code: 0 });
  });

  it("close --all during a burst of execs leaves no process and no socket behind", async () => {
    const warm = await runCli(["exec", "-s", "burst-0", "-c", "return 1"], { home });
    expect(warm.code, warm.stderr).toBe(0);
    const [daemon] = daemonPids(home) as [number];
    const family = [daemon, ...descendants(daemon)];
    expect(family.some((pid) => /chrom/.test(commandLine(pid)))).toBe(true);

    const burst = Array.from({ length: 8 }, (_, i) =>
      runCli(["exec", "-s", `burst-${i % 3}`, "--timeout", "20", "-c", "await new Promise((r) => setTimeout(r, 400)); return 1"], { home }));
    await new Promise((r) => setTimeout(r, 300));
    const close = await runCli(["close", "--all"], { home });
    expect(close.code, close.stderr).toBe(0);
    const results = await Promise.all(burst);
    // Every exec ended with an envelope (finished before the stop, or refused/cut by it), never a hang.
    for (const r of results) {
      expect(r.json, r.stderr).toBeDefined();
      expect(typeof r.json.ok).toBe("boolean");
    }
    expect(await until(() => family.every((pid) => !alive(pid)), 10_000)).toBe(true);
    expect(daemonProcessesOf(home)).toEqual([]);
    expect(existsSync(layoutFor(home).socketPath)).toBe(false);
    expect(existsSync(layoutFor(home).infoPath)).toBe(false);
  });

  it("takes over a killed daemon's lock within the lock's stale time", async () => {
    const first = await runCli(["exec", "-c", "return 1"], { home });
    expect(first.code, first.stderr).toBe(0);
    const [daemon] = daemonPids(home) as [number];
    process.kill(daemon, "SIGKILL");
    await until(() => !alive(daemon), 5_000);
    const started = Date.now();
    const next = await runCli(["exec", "-c", "return 2"], { home });
    const tookMs = Date.now() - started;
    expect(next.json, next.stderr).toMatchObject({ ok: true, result: 2 });
    expect(daemonPids(home)).not.toContain(daemon);
    // The lock goes stale PROFILE_LOCK_STALE_MS after its last refresh; allow the client's retry step on top.
    expect(tookMs).toBeLessThan(PROFILE_LOCK_STALE_MS + 5_000);
  });
});
