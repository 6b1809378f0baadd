// The worker's side of blocked-loop detection: a heartbeat counter and the
// id of the session that last received control, shared with a watchdog
// thread that reports to the daemon when the heartbeat stops.
import { Worker } from "node:worker_threads";

export const BLOCKED_AFTER_MS = 3_000;
const BEAT_MS = 250;

export class Watchdog {
  private readonly slots: Int32Array;
  private readonly thread: Worker;
  private readonly ids = new Map<string, number>();
  private readonly beat: NodeJS.Timeout;

  constructor(rpcFd: number, blockedMs: number = BLOCKED_AFTER_MS) {
    const shared = new SharedArrayBuffer(8);
    this.slots = new Int32Array(shared);
    this.thread = new Worker(new URL("./watchdog-thread.js", import.meta.url), {
      workerData: { shared, fd: rpcFd, blockedMs, checkMs: BEAT_MS },
    });
    this.thread.unref();
    this.beat = setInterval(() => Atomics.add(this.slots, 0, 1), BEAT_MS);
    this.beat.unref();
  }

  /** Called whenever a session's snippet code is about to run. */
  enter(session: string): void {
    let id = this.ids.get(session);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(session, id);
      this.thread.postMessage({ id, name: session });
    }
    Atomics.store(this.slots, 1, id);
  }

  stop(): void {
    clearInterval(this.beat);
    void this.thread.terminate();
  }
}
