// Keeps at most one worker alive and starts it on demand (service calls never
// come here, so they never launch a browser). A worker whose event loop is
// held by a snippet is killed and replaced; its watchdog names the session.
import { WorkerPing, type WorkerInit } from "../../shared/protocol/methods/index.js";
import type { MethodRegistry } from "../../shared/protocol/rpc.js";
import { WorkerProcess, type WorkerLink } from "./process.js";
import { discardWorker, hasExited, type SpawnedWorker } from "./spawn.js";

/** Backstop for a worker hung so badly its watchdog thread cannot speak. */
const PING_INTERVAL_MS = 5_000;
const PING_TIMEOUT_MS = 10_000;

export interface BlockedReport {
  session: string;
  blockedMs: number;
  generation: number;
}

export class WorkerSupervisor {
  private worker: WorkerProcess | undefined;
  private pinger: NodeJS.Timeout | undefined;
  /** Counts workers started; a session that ran on an older one has lost its pages. */
  private generationCounter = 0;
  private lastBlocked: BlockedReport | undefined;

  constructor(
    /** Read when a worker starts: the profile directory is settled only once the lock is taken. */
    private readonly init: () => WorkerInit,
    /** The worker's methods, made for each worker (guard.connect hands sockets to that one). */
    private readonly registry: (link: WorkerLink) => MethodRegistry<void>,
    private readonly log: (line: string) => void,
    /** Starts a worker's process, contained where the daemon can. */
    private readonly spawn: () => SpawnedWorker,
  ) {}

  get generation(): number {
    return this.generationCounter;
  }

  /** `early`: a worker process started before the lock was taken, used instead of spawning one if it still runs. */
  async ensure(early?: SpawnedWorker): Promise<WorkerProcess> {
    if (this.worker?.alive) {
      if (early) discardWorker(early);
      return this.worker;
    }
    // Gone inside bwrap while bwrap has not exited yet: make sure it does.
    this.worker?.kill();
    if (early && hasExited(early.child)) {
      this.log(`early worker ${early.child.pid} exited before use (code ${early.child.exitCode}, signal ${early.child.signalCode})`);
      discardWorker(early);
      early = undefined;
    }
    let worker: WorkerProcess;
    try {
      worker = new WorkerProcess({
        init: this.init(),
        ...(early ? { spawned: early } : {}),
        registry: this.registry,
        spawn: this.spawn,
        log: this.log,
        onExit: ({ pid, code, signal }) => {
          this.log(`worker ${pid} exited (code ${code}, signal ${signal})`);
          if (this.worker === worker) {
            this.worker = undefined;
            clearInterval(this.pinger);
          }
        },
      });
    } catch (error) {
      if (early) discardWorker(early);
      throw error;
    }
    this.worker = worker;
    this.generationCounter++;
    this.log(`worker ${worker.pid} started${worker.contained ? " (contained)" : " (UNCONTAINED)"}`);
    clearInterval(this.pinger);
    this.pinger = setInterval(() => {
      worker.call(WorkerPing, {}, PING_TIMEOUT_MS).catch(() => {
        if (!worker.alive) return;
        this.log(`worker ${worker.pid} did not answer a ping within ${PING_TIMEOUT_MS} ms; killing it`);
        worker.kill();
      });
    }, PING_INTERVAL_MS);
    this.pinger.unref();
    return worker;
  }

  current(): WorkerProcess | undefined {
    return this.worker?.alive ? this.worker : undefined;
  }

  /** The watchdog saw the event loop held: kill the worker; the next call starts a new one. */
  blocked(session: string | null, blockedMs: number): void {
    // No snippet has had control in this worker yet: the stall is its own start-up (slow on a loaded
    // machine), which a restart would only repeat. The ping timeout still ends a worker that truly hangs.
    if (session === null) {
      this.log(`worker stalled for ${blockedMs} ms before running any snippet; not restarting it`);
      return;
    }
    const worker = this.current();
    if (!worker) return;
    this.lastBlocked = { session, blockedMs, generation: this.generationCounter };
    this.log(`worker ${worker.pid} blocked for ${blockedMs} ms by session ${session ?? "(unknown)"}; restarting it`);
    worker.kill();
  }

  /** Whether `session` blocked the worker of `generation`. */
  blockedBy(session: string, generation: number): BlockedReport | undefined {
    const report = this.lastBlocked;
    return report && report.session === session && report.generation === generation ? report : undefined;
  }

  async shutdown(deadlineMs: number): Promise<void> {
    clearInterval(this.pinger);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.shutdown(deadlineMs);
  }
}
