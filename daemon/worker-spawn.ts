// Starting a worker's process, and the temp folders workers leave behind.
// Each worker gets a fresh temp folder of its own, so a daemon can start one
// before it holds the profile lock (the early start): nothing a running
// worker uses is touched by a daemon without the lock, and only the lock
// holder sweeps the folders of workers that are gone. A started worker loads
// Playwright and then waits: it touches the profile only after worker.init,
// which only the lock holder sends.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensurePrivateDir } from "../shared/secure-fs.js";

const WORKER_MAIN = fileURLToPath(new URL("./worker/main.js", import.meta.url));
const TMP_PREFIX = "w-";

export interface SpawnedWorker {
  child: ChildProcess;
  /** The worker's TMPDIR (Playwright's own temp files), removed when it exits. */
  tmpDir: string;
}

/** Where workers' own temp folders live, beside Chromium's `tmp` in the browser env folder. */
export function workerTmpRoot(browserEnvDir: string): string {
  return path.join(browserEnvDir, "worker-tmp");
}

export function spawnWorker(browserEnvDir: string, env: NodeJS.ProcessEnv): SpawnedWorker {
  const root = workerTmpRoot(browserEnvDir);
  ensurePrivateDir(root);
  const tmpDir = mkdtempSync(path.join(root, TMP_PREFIX));
  // The worker opens no TLS connection of its own (Chromium has its own certificate store; the guard
  // proxy relays bytes), yet Node reads and parses NODE_EXTRA_CA_CERTS at every start: ~40 ms with a
  // system bundle, on the path of every first call.
  const { NODE_EXTRA_CA_CERTS: _caBundle, ...inherited } = env;
  // Node 22+ keeps V8's compiled code for Playwright between workers, from the process's first module
  // (Node 20 ignores the variable). A shared cache Node checks on read, not profile state.
  const compileCache = inherited.NODE_COMPILE_CACHE ?? path.join(browserEnvDir, "compile-cache");
  // Node 20 needs the flag for importModuleDynamically on vm.Script.
  const child = spawn(process.execPath, ["--experimental-vm-modules", "--disable-warning=ExperimentalWarning", WORKER_MAIN], {
    stdio: ["ignore", "pipe", "pipe", "pipe"],
    env: { ...inherited, TMPDIR: tmpDir, NODE_COMPILE_CACHE: compileCache },
  });
  // Until someone adopts it, a spawn failure must not become an uncaught 'error'.
  child.on("error", () => {});
  return { child, tmpDir };
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** A worker nobody will adopt (its daemon lost the lock race or failed to start): kill it and remove its folder. */
export function discardWorker(spawned: SpawnedWorker): void {
  if (!hasExited(spawned.child)) spawned.child.kill("SIGKILL");
  for (const stream of [spawned.child.stdout, spawned.child.stderr, spawned.child.stdio[3]]) stream?.destroy();
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
