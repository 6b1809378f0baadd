// One realm thread started ahead of need and not yet any session's: the next
// session to need a realm after an idle one was retired takes it, and its run
// does not wait for a thread to start (~40 ms). A spare has run no snippet
// code before it is bound, and is bound to one session for good.
import type { Worker } from "node:worker_threads";
import { startRealmThread } from "./realm.js";

export class SpareRealmThread {
  private spare: Worker | undefined;
  private closed = false;

  constructor(private readonly start: () => Worker) {}

  /** The spare thread if one is up (the caller binds it to its session at once), else undefined. */
  take(): Worker | undefined {
    const spare = this.spare;
    this.spare = undefined;
    if (spare === undefined) return undefined;
    spare.removeAllListeners("error").removeAllListeners("exit");
    // A spare that died meanwhile (threadId -1 once it exited) is no use.
    if (spare.threadId < 0) return undefined;
    spare.ref();
    return spare;
  }

  /** Starts a spare unless one is waiting. Called as a realm retires: the thread it gives back is started again, unbound. */
  prepare(): void {
    if (this.spare !== undefined || this.closed) return;
    const spare = this.start();
    // Waiting to be bound, it keeps nothing alive.
    spare.unref();
    const drop = () => {
      if (this.spare === spare) this.spare = undefined;
    };
    spare.on("error", drop).on("exit", drop);
    this.spare = spare;
  }

  close(): void {
    this.closed = true;
    void this.spare?.terminate().catch(() => {});
    this.spare = undefined;
  }
}

/** The worker's spare: realm threads with the heap limit every realm gets. */
export const spareRealmThread = (heapMb: number): SpareRealmThread => new SpareRealmThread(() => startRealmThread(heapMb));
