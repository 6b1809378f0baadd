// The worker started before the profile lock, with real daemons and Chromium:
// a burst of first calls leaves one daemon and one worker, in one temp folder;
// another daemon's failed start leaves the running worker's folder alone; a
// killed worker is replaced and its folder goes with it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnDaemon } from "../../dist/client/library/spawn.js";
import { workerTmpRoot } from "../../dist/daemon/supervisor/spawn.js";
import { daemonSettingsOf, resolveConfig } from "../../shared/config.js";
import { layoutFor } from "../../shared/paths.js";
import { cleanEnv, daemonPids, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { alive, daemonProcessesOf, isWorkerNode, until, waitForExit, workersOf } from "../helpers/procs.js";

function envOf(pid: number, name: string): string | undefined {
  try {
    const entry = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").find((e) => e.startsWith(`${name}=`));
    return entry?.slice(name.length + 1);
  } catch {
    return undefined;
  }
}

const tmpdirOf = (pid: number) => envOf(pid, "TMPDIR");

describe("the early worker", () => {
  let home: string;
  let server: TestServer;
  let root: string;

  beforeAll(async () => {
    home = tempHome("bw-early-");
    server = await startServer({ "/": "<title>Early</title><p>hi</p>" });
    root = workerTmpRoot(layoutFor(home).browserEnvDir);
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  const visit = () => `await page.goto(${JSON.stringify(`${server.url}/`)}); return page.title()`;
  /** Live workers started for this home, wherever they hang: their TMPDIR is under its worker-tmp folder. */
  const workersOfHome = () => readdirSync("/proc").filter((n) => /^\d+$/.test(n)).map(Number)
    .filter((pid) => alive(pid) && isWorkerNode(pid) && (tmpdirOf(pid) ?? "").startsWith(root + path.sep));
  const workerFolders = () => readdirSync(root).filter((name) => name.startsWith("w-"));
  const theWorker = (daemon: number) => {
    const workers = workersOf(daemon);
    expect(workers).toHaveLength(1);
    return workers[0]!;
  };

  it("a burst of first calls on a fresh home: one daemon, one worker, one worker temp folder", async () => {
    // The callers' NODE_EXTRA_CA_CERTS (Node only warns about a missing file) stays with them: daemon and worker open no TLS.
    const env = { NODE_EXTRA_CA_CERTS: path.join(home, "no-such-ca.pem") };
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => runCli(["exec", "-s", `b${i}`, "-c", visit()], { home, env })));
    for (const r of results) expect(r.json, r.stderr).toMatchObject({ ok: true, result: "Early" });
    const daemons = daemonPids(home);
    expect(daemons).toHaveLength(1);
    // The losers of the lock race exit once their early workers are gone.
    expect(await until(() => daemonProcessesOf(home).length === 1 && workersOfHome().length === 1, 10_000)).toBe(true);
    const worker = theWorker(daemons[0]!);
    expect(workersOfHome()).toEqual([worker]);
    expect(workerFolders()).toEqual([path.basename(tmpdirOf(worker)!)]);
    // The daemon knows its home from its bootstrap: no BETTERWRIGHT_* variable is passed on.
    expect(envOf(daemons[0]!, "BETTERWRIGHT_HOME")).toBeUndefined();
    expect([envOf(daemons[0]!, "NODE_EXTRA_CA_CERTS"), envOf(worker, "NODE_EXTRA_CA_CERTS")]).toEqual([undefined, undefined]);
  });

  it("another daemon's failed start leaves the running worker and its temp folder alone", async () => {
    const [daemon] = daemonPids(home) as [number];
    const worker = theWorker(daemon);
    const folder = tmpdirOf(worker)!;
    // Playwright keeps its artifacts folder for the running browser there.
    expect(readdirSync(folder).some((name) => name.startsWith("playwright-artifacts-"))).toBe(true);

    const env = cleanEnv(home);
    const { settings } = resolveConfig({ env });
    const readiness = await spawnDaemon(layoutFor(settings.home, settings.profile), {
      home: settings.home, profile: settings.profile, settings: daemonSettingsOf(settings), defaultTimeoutMs: settings.timeoutMs, prestartWorker: true,
    }, env);
    expect(readiness.status).toBe("exists");
    expect(await waitForExit([(readiness as { pid: number }).pid], 10_000)).toEqual([]);

    expect(workersOfHome()).toEqual([worker]);
    expect(existsSync(folder)).toBe(true);
    expect(readdirSync(folder).some((name) => name.startsWith("playwright-artifacts-"))).toBe(true);
    expect(workerFolders()).toEqual([path.basename(folder)]);
    const again = await runCli(["exec", "-s", "b0", "-c", visit()], { home });
    expect(again.json, again.stderr).toMatchObject({ ok: true, result: "Early" });
    expect(theWorker(daemon)).toBe(worker);
  });

  it("a killed worker is replaced on the next call, and its temp folder goes with it", async () => {
    const [daemon] = daemonPids(home) as [number];
    const killed = theWorker(daemon);
    const oldFolder = tmpdirOf(killed)!;
    process.kill(killed, "SIGKILL");
    expect(await waitForExit([killed], 5_000)).toEqual([]);
    const next = await runCli(["exec", "-s", "b0", "-c", visit()], { home });
    expect(next.json, next.stderr).toMatchObject({ ok: true, result: "Early" });
    const worker = theWorker(daemon);
    expect(worker).not.toBe(killed);
    expect(existsSync(oldFolder)).toBe(false);
    expect(workerFolders()).toEqual([path.basename(tmpdirOf(worker)!)]);
  });
});
