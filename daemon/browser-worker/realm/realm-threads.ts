// How the worker's realm threads start. One is started ahead of need and is
// not yet any session's: the next session to need a realm after an idle one
// was retired takes it, and its run does not wait for a thread to start
// (~50-80 ms). A spare has run no snippet code before it is bound, and is
// bound to one session for good. Other threads start one per turn of the
// event loop: a hundred sessions needing a realm at once would otherwise hold
// the main thread for the seconds a hundred starts take together (4.3 s on a
// busy machine, past the watchdog's 3 s).
import type { Worker } from "node:worker_threads";
import { startRealmThread } from "./realm.js";

export class RealmThreads {
  private spare: Worker | undefined;
  private closed = false;
  private readonly starts: (() => void)[] = [];

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

  /** Runs `start` (a realm thread's start) in its turn, after those asked for before it. */
  startInTurn(start: () => void): void {
    this.starts.push(start);
    if (this.starts.length === 1) this.nextStart();
  }

  private nextStart(): void {
    setImmediate(() => {
      this.starts.shift()?.();
      if (this.starts.length > 0) this.nextStart();
    });
  }

  close(): void {
    this.closed = true;
    void this.spare?.terminate().catch(() => {});
    this.spare = undefined;
  }
}

/** The worker's realm threads, with the heap limit every realm gets. */
export const realmThreads = (heapMb: number): RealmThreads => new RealmThreads(() => startRealmThread(heapMb));
