// Starting a worker's process, and the temp folders workers leave behind.
// Each worker gets a fresh temp folder of its own, so a daemon can start one
// before it holds the profile lock (the early start): nothing a running
// worker uses is touched by a daemon without the lock, and only the lock
// holder sweeps the folders of workers that are gone. A started worker loads
// Playwright and then waits: it touches the profile only after worker.init,
// which only the lock holder sends. Where containment is available the worker
// starts inside bwrap: its own network namespace (loopback only), a mount view
// of its own folders (containment-view.ts) and its own pid namespace.
import { spawn, type ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { workerEnvironment } from "../../shared/child-env.js";
import { bwrapNamespaceArgs } from "../../shared/containment.js";
import { ensurePrivateDir } from "../../shared/secure-fs.js";
import { ContainedPid } from "./contained-pid.js";
import { real, realViewFs, WORKER_MAIN, workerCodeRoots, type WorkerSpawnPlan } from "./containment.js";
import { bwrapViewArgs } from "./containment-view.js";

const TMP_PREFIX = "w-";
/** Where a contained worker's downloads in progress live on the host: its own temp folder, so no two workers share one. */
const INCOMING_IN_TMP = "incoming";

export interface SpawnedWorker {
  child: ChildProcess;
  /** The worker's TMPDIR (Playwright's own temp files), removed when it exits. */
  tmpDir: string;
  /** Started inside bwrap's namespaces. */
  contained: boolean;
  /** Contained: whether the worker's own process (inside bwrap) still runs, which bwrap's exit reports only later. */
  inner?: ContainedPid;
}

/** The worker's Node flags. Node 20 needs the first for importModuleDynamically on vm.Script. */
export const WORKER_NODE_FLAGS = ["--experimental-vm-modules", "--disable-warning=ExperimentalWarning"] as const;

/** Where workers' own temp folders live, beside Chromium's `tmp` in the browser env folder. */
export function workerTmpRoot(browserEnvDir: string): string {
  return path.join(browserEnvDir, "worker-tmp");
}

export function spawnWorker(plan: WorkerSpawnPlan): SpawnedWorker {
  const { dirs } = plan;
  const root = workerTmpRoot(dirs.browserEnvDir);
  ensurePrivateDir(root);
  const tmpDir = mkdtempSync(path.join(root, TMP_PREFIX));
  // An allowlist of the daemon's environment (shared/child-env.ts), nothing else. The worker opens no
  // TLS connection of its own (Chromium has its own certificate store; the guard proxy relays bytes), so
  // NODE_EXTRA_CA_CERTS, ~40 ms of parsing at every start, goes along only for wss:// endpoints (plan.tls).
  const inherited = workerEnvironment(plan.env, { tls: plan.tls === true });
  // Node 22+ keeps V8's compiled code for Playwright between workers, from the process's first module
  // (Node 20 ignores the variable). A shared cache Node checks on read, not profile state.
  const compileCache = inherited.NODE_COMPILE_CACHE ?? path.join(dirs.browserEnvDir, "compile-cache");
  const env = { ...inherited, TMPDIR: tmpDir, NODE_COMPILE_CACHE: compileCache };
  const node = [process.execPath, ...WORKER_NODE_FLAGS, real(WORKER_MAIN) ?? WORKER_MAIN];
  // fd 3: the JSON-RPC pipe; fd 4: Node's IPC channel, which only carries the sockets the daemon dials for the guard proxy.
  const stdio: ("ignore" | "pipe" | "ipc")[] = ["ignore", "pipe", "pipe", "pipe", "ipc"];
  const { containment } = plan;
  if (!containment.active) {
    const child = spawn(node[0]!, node.slice(1), { stdio, env });
    // Until someone adopts it, a spawn failure must not become an uncaught 'error'.
    child.on("error", () => {});
    return { child, tmpDir, contained: false };
  }
  const view = containedView(plan, tmpDir);
  // fd 5, bwrap's alone (it closes it before the worker starts): its --info-fd, naming its init.
  const child = spawn(containment.path, [...bwrapNamespaceArgs(containment.disableUserns), "--info-fd", "5", ...view, "--", ...node], { stdio: [...stdio, "pipe"], env });
  child.on("error", () => {});
  return { child, tmpDir, contained: true, inner: new ContainedPid((child.stdio as unknown as Readable[])[5]!) };
}

function containedView(plan: WorkerSpawnPlan, tmpDir: string): string[] {
  const { dirs } = plan;
  // Binds need their folders; the early worker starts before the daemon made them.
  for (const dir of [dirs.profileDir, dirs.browserEnvDir, dirs.artifactsDir]) ensurePrivateDir(dir);
  const incoming = path.join(tmpDir, INCOMING_IN_TMP);
  ensurePrivateDir(incoming);
  // bwrap would make the mount point itself, 0755 and in the real artifacts folder.
  ensurePrivateDir(path.join(dirs.artifactsDir, ".incoming"));
  const display = plan.browser.headless ? undefined : {
    ...(plan.env.DISPLAY ? { x11Dir: "/tmp/.X11-unix" } : {}),
    ...(plan.env.XAUTHORITY ? { xauthority: plan.env.XAUTHORITY } : {}),
  };
  return bwrapViewArgs({
    writable: [dirs.profileDir, dirs.browserEnvDir, dirs.artifactsDir],
    code: workerCodeRoots(plan.browser),
    hidden: plan.hidden,
    // Downloads in progress go to <artifacts>/.incoming/<pid>; every contained worker has the same pid (2), so each gets a folder of its own there.
    overlays: [{ host: incoming, view: path.join(dirs.artifactsDir, ".incoming") }],
    ...(display ? { display } : {}),
  }, realViewFs);
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** A worker nobody will adopt (its daemon lost the lock race or failed to start): kill it and remove its folder. */
export function discardWorker(spawned: SpawnedWorker): void {
  spawned.inner?.kill();
  if (!hasExited(spawned.child)) spawned.child.kill("SIGKILL");
  const stdio = spawned.child.stdio as unknown as ({ destroy(): void } | null | undefined)[];
  for (const stream of [stdio[1], stdio[2], stdio[3], stdio[5]]) stream?.destroy();
  if (spawned.child.connected) spawned.child.disconnect();
  rmSync(spawned.tmpDir, { recursive: true, force: true });
}

/**
 * Only while holding the profile lock, before a worker is initialised: remove
 * the temp folders of workers that are gone (killed with their daemon), all
 * but `keep`, the adopted early worker's. A folder of another daemon's early
 * worker may go too: that worker never gets worker.init, so never uses it.
 */
export function sweepWorkerTmp(browserEnvDir: string, keep?: string): void {
  const root = workerTmpRoot(browserEnvDir);
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return;
  }
  for (const entry of entries) {
    const dir = path.join(root, entry);
    if (entry.startsWith(TMP_PREFIX) && dir !== keep) rmSync(dir, { recursive: true, force: true });
  }
}
