// A worker started before its daemon holds the profile lock: it lives in a
// temp folder of its own, waits for worker.init, and goes away with its
// daemon's pipe; a daemon that loses the lock race kills it and removes only
// its own folder. No browser is launched here.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnDaemon } from "../../dist/client/library/spawn.js";
import { planFor, profileWorkerDirs } from "../../dist/daemon/supervisor/containment.js";
import { discardWorker, spawnWorker, sweepWorkerTmp, workerTmpRoot } from "../../dist/daemon/supervisor/spawn.js";
import { daemonSettingsOf, resolveConfig } from "../../shared/config.js";
import { probeContainment } from "../../shared/containment.js";
import { layoutFor } from "../../shared/paths.js";
import { cleanEnv, destroyHome } from "../helpers/cli.js";
import { startIdleDaemon } from "../helpers/idle-daemon.js";
import { alive, isWorkerNode, until, waitForExit } from "../helpers/procs.js";
import { skipFor } from "../helpers/needs.js";

function envOf(pid: number): Record<string, string> {
  try {
    const pairs = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
    return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
  } catch {
    return {};
  }
}

/** Live processes whose TMPDIR lies under `root`: the workers of that browser env folder. */
function workersUnder(root: string): number[] {
  return readdirSync("/proc").filter((n) => /^\d+$/.test(n)).map(Number)
    .filter((pid) => alive(pid) && isWorkerNode(pid) && (envOf(pid).TMPDIR ?? "").startsWith(root + path.sep));
}

describe("the early worker", () => {
  let home: string;
  let browserEnvDir: string;

  beforeAll(async () => {
    ({ home } = await startIdleDaemon("bw-early-worker-"));
    browserEnvDir = layoutFor(home).browserEnvDir;
  });

  afterAll(async () => {
    await destroyHome(home);
  });

  it("runs in a fresh temp folder of its own and exits when its daemon's end of the pipe closes, without worker.init", async () => {
    const env = cleanEnv(home, { NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt", BW_TEST_MARK: "1", TZ: "Etc/UTC" });
    const layout = layoutFor(home);
    const spawned = spawnWorker(planFor(layout, profileWorkerDirs(layout), { explicit: null, headless: true }, await probeContainment({ env }), env));
    const pid = spawned.child.pid!;
    try {
      expect(path.dirname(spawned.tmpDir)).toBe(workerTmpRoot(browserEnvDir));
      expect(readdirSync(workerTmpRoot(browserEnvDir))).toContain(path.basename(spawned.tmpDir));
      expect(envOf(pid).TMPDIR).toBe(spawned.tmpDir);
      // Only the allowlist of the daemon's environment passes (the time zone, not a variable of the caller's),
      // and not the CA bundle it would parse at start for nothing.
      expect(envOf(pid).TZ).toBe("Etc/UTC");
      expect(envOf(pid).BW_TEST_MARK).toBeUndefined();
      expect(envOf(pid).NODE_EXTRA_CA_CERTS).toBeUndefined();
      // Let it get well into its start (Playwright's load) before the pipe goes.
      await new Promise((r) => setTimeout(r, 200));
      expect(alive(pid)).toBe(true);
      (spawned.child.stdio[3] as NodeJS.ReadWriteStream & { destroy(): void }).destroy();
      expect(await waitForExit([pid], 10_000)).toEqual([]);
    } finally {
      discardWorker(spawned);
    }
    expect(readdirSync(workerTmpRoot(browserEnvDir))).not.toContain(path.basename(spawned.tmpDir));
  });

  it("contained, knows the worker's own process inside bwrap: once it is gone the worker is not alive, before bwrap has exited", async (ctx) => {
    const env = cleanEnv(home);
    const containment = await probeContainment({ env });
    if (skipFor(ctx, containment.active ? undefined : `containment unavailable: ${containment.reason}`)) return;
    const layout = layoutFor(home);
    const spawned = spawnWorker(planFor(layout, profileWorkerDirs(layout), { explicit: null, headless: true }, containment, env));
    try {
      const inner = spawned.inner!;
      expect(await until(() => inner.pid !== undefined, 10_000)).toBe(true);
      expect(inner.pid).not.toBe(spawned.child.pid);
      expect(isWorkerNode(inner.pid!)).toBe(true);
      expect(inner.alive()).toBe(true);
      inner.kill();
      expect(await waitForExit([inner.pid!], 5_000)).toEqual([]);
      expect(inner.alive()).toBe(false);
    } finally {
      discardWorker(spawned);
    }
  });

  it("sweeps the folders of workers that are gone, and keeps the current one's and anything that is not a worker's", () => {
    const root = workerTmpRoot(browserEnvDir);
    for (const name of ["w-gone1", "w-gone2", "w-current", "other"]) {
      mkdirSync(path.join(root, name, "playwright-artifacts-x"), { recursive: true });
    }
    sweepWorkerTmp(browserEnvDir, path.join(root, "w-current"));
    expect(readdirSync(root).sort()).toEqual(["other", "w-current"]);
    sweepWorkerTmp(browserEnvDir);
    expect(readdirSync(root)).toEqual(["other"]);
  });

  it("a daemon that finds the profile locked kills its early worker, removes its own folder and no other, and exits", async () => {
    const root = workerTmpRoot(browserEnvDir);
    // Stands for the temp folder of the running daemon's worker.
    const running = path.join(root, "w-running");
    mkdirSync(path.join(running, "playwright-artifacts-x"), { recursive: true });
    writeFileSync(path.join(running, "playwright-artifacts-x", "in-use"), "x");

    const env = cleanEnv(home);
    const { settings } = resolveConfig({ env });
    const layout = layoutFor(settings.home, settings.profile);
    const readiness = await spawnDaemon(layout, {
      home: settings.home, profile: settings.profile, settings: daemonSettingsOf(settings), defaultTimeoutMs: settings.timeoutMs, prestartWorker: true,
    }, env);
    expect(readiness.status).toBe("exists");
    const loser = (readiness as { pid: number }).pid;
    // Its early worker holds pipes to it: had it not been killed, neither process would exit.
    expect(await waitForExit([loser], 10_000)).toEqual([]);
    // A contained worker dies with its namespace, a moment after the bwrap that held it: wait for it, never race it.
    expect(await waitForExit(workersUnder(root), 10_000)).toEqual([]);
    expect(readdirSync(root).filter((name) => name.startsWith("w-"))).toEqual(["w-running"]);
    expect(readFileSync(path.join(running, "playwright-artifacts-x", "in-use"), "utf8")).toBe("x");
    // It says why it did not serve, naming the holder.
    const holder = JSON.parse(readFileSync(`${layout.profileLockPath}.holder`, "utf8")).pid as number;
    expect(readFileSync(layout.logPath, "utf8")).toContain(`daemon[${loser}] not serving: the profile lock is held by pid ${holder} (running), which serves`);
  });
});
