// Entry point of the daemon process, spawned detached by a client. Reads its
// bootstrap from stdin, reports readiness (or why not) on fd 3, and enforces
// the hard shutdown deadline. Its services are built here, once (compose.ts),
// from the settings, the clock and this process's environment. A client that
// is about to exec gets its worker started first thing, before the daemon's
// own modules load and before the profile lock: the worker's Node start and
// Playwright import overlap ours.
import { createWriteStream, writeSync } from "node:fs";
import { text } from "node:stream/consumers";
import type { DaemonBootstrap, DaemonReadiness } from "../shared/bootstrap.js";
import { validateBootstrap } from "../shared/bootstrap.js";
import type { DaemonSettings } from "../shared/config.js";
import { errorText } from "../shared/protocol/error-text.js";
import { probeContainment, type ContainmentStatus } from "../shared/containment.js";
import { toBwError } from "../shared/protocol/errors.js";
import { prepareHome } from "../shared/home-check.js";
import { layoutFor } from "../shared/paths.js";
import type { Daemon } from "./daemon.js";
import { planFor, profileWorkerDirs } from "./supervisor/containment.js";
import { discardWorker, spawnWorker, type SpawnedWorker } from "./supervisor/spawn.js";

const HARD_DEADLINE_MS = 10_000;

function report(readiness: DaemonReadiness): void {
  try {
    const out = createWriteStream("", { fd: 3 });
    out.end(`${JSON.stringify(readiness)}\n`);
    out.on("error", () => {});
  } catch {
    // Started by hand without fd 3: nobody is waiting for the answer.
  }
}

/**
 * stderr is the log file: every start that fails says why there, not only to the client that waited.
 * Written directly, and given up quietly: on a full disk a failed write must not take the readiness line down.
 */
function logToStderr(line: string): void {
  try {
    writeSync(2, `${new Date().toISOString()} daemon[${process.pid}] ${line}\n`);
  } catch {
    // nowhere to say it
  }
}

/** The worker's process, not yet initialised: it gets worker.init only if this daemon takes the lock. */
function startEarlyWorker(bootstrap: DaemonBootstrap, containment: ContainmentStatus): SpawnedWorker | undefined {
  // Required and unavailable: the daemon refuses to start, so no worker either.
  if (!containment.active && bootstrap.settings.requireContainment) return undefined;
  try {
    const layout = layoutFor(bootstrap.home, bootstrap.profile);
    // Nothing goes into a home another user could change; the Daemon's constructor checks it again.
    prepareHome(layout);
    const browser = { explicit: bootstrap.settings.browser, headless: bootstrap.settings.headless, stealth: bootstrap.settings.stealth === true };
    return spawnWorker(planFor(layout, profileWorkerDirs(layout), browser, containment, process.env));
  } catch {
    // A home we cannot write or must not use: the daemon's own start reports why; a later call spawns the worker as usual.
    return undefined;
  }
}

async function main(): Promise<void> {
  process.umask(0o077);
  let bootstrap: DaemonBootstrap;
  let daemon: Daemon;
  let early: SpawnedWorker | undefined;
  try {
    const raw = validateBootstrap(JSON.parse(await text(process.stdin)), "bootstrap");
    bootstrap = { ...raw, settings: raw.settings as unknown as DaemonSettings };
    // Asked once, before anything is started: the early worker is spawned the way every worker of this daemon is.
    const containment = await probeContainment({ env: process.env });
    if (bootstrap.prestartWorker) early = startEarlyWorker(bootstrap, containment);
    // Imported only now, so that the worker above starts without waiting for the daemon's modules.
    const { composeDaemon } = await import("./compose.js");
    daemon = composeDaemon({ bootstrap, serving: true, policy: bootstrap.settings.policy, containment, env: process.env, now: Date.now });
    if (!(await daemon.start())) {
      if (early) discardWorker(early);
      report({ status: "exists", pid: process.pid });
      return;
    }
  } catch (error) {
    if (early) discardWorker(early);
    const failure = toBwError(error, "DAEMON_UNAVAILABLE");
    logToStderr(`cannot start: ${failure.message} [${failure.code}]`);
    report({ status: "error", error: failure.toJSON() });
    process.exitCode = 1;
    return;
  }
  // Whatever starts a stop, the process is gone within the hard deadline.
  daemon.onStopping(() => setTimeout(() => process.exit(0), HARD_DEADLINE_MS).unref());
  daemon.onStop(() => setTimeout(() => process.exit(0), 100).unref());
  process.on("SIGTERM", () => void daemon.requestStop("SIGTERM"));
  process.on("SIGINT", () => void daemon.requestStop("SIGINT"));
  process.on("SIGHUP", () => {});
  process.on("uncaughtException", (error) => daemon.log.write(`uncaught exception: ${errorText(error)}`));
  process.on("unhandledRejection", (reason) => daemon.log.write(`unhandled rejection: ${errorText(reason)}`));
  const from = daemon.recoveredFrom;
  report({ status: "ready", pid: process.pid, ...(from ? { recovered: { pid: from.pid, kind: from.kind } } : {}) });
  if (bootstrap.prestartWorker) daemon.prestartWorker(early);
}

void main();
