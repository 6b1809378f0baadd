// The short soak (8 sessions × 50 execs, unpaced) that CI can afford: no exec
// fails, no descriptor leaks, the worker is never restarted, and memory does
// not climb like a leak would. The long one (8 × 500, paced so the daemon's
// 60 s attach window is full before the first checkpoint) is `npm run soak`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSoak, runSoak } from "../../dist/bench/soak-core.js";
import { startPageServer } from "../../dist/bench/page-server.js";
import { cleanEnv, destroyHome, tempHome } from "../helpers/cli.js";

/**
 * Unpaced, every finished run is still in the 60 s attach window at the end,
 * so some growth is retention by design; a leak of 100 KB per exec would
 * still add 40 MB here and fail this bound.
 */
const SHORT_GROWTH_BOUND = 0.5;

describe("a short soak: 8 sessions × 50 execs", () => {
  let home: string;
  let server: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    home = tempHome("bw-soak-");
    server = await startPageServer();
  });

  afterAll(async () => {
    await server?.close();
    await destroyHome(home);
  });

  it("runs every exec, keeps one worker, leaks no descriptor and no memory to speak of", async () => {
    const report = await runSoak({ home, env: cleanEnv(home), url: server.url, sessions: 8, execsPerSession: 50 });
    console.info(formatSoak(report));
    expect(report.failures).toEqual([]);
    expect(report.sameWorker).toBe(true);
    expect(report.daemonFdGrowth).toBeLessThanOrEqual(2);
    expect(report.workerFdGrowth).toBeLessThanOrEqual(2);
    expect(report.daemonGrowth).toBeLessThan(SHORT_GROWTH_BOUND);
    expect(report.workerGrowth).toBeLessThan(SHORT_GROWTH_BOUND);
    expect(report.durationMs).toBeLessThan(60_000);
  });
});
