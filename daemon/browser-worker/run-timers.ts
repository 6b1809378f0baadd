// A run's timers: the setTimeout/setInterval its snippet set. Ids come from
// one counter per session (a stale id from an earlier run never matches);
// a run holds a bounded number at once; when the run ends every one is
// cleared, so nothing of it fires into a later run.
import { BwError } from "../../shared/protocol/errors.js";

/** The shortest setInterval period a snippet gets (browsers clamp nested timers to 4 ms). */
export const MIN_INTERVAL_MS = 10;
/** Pending setTimeout/setInterval timers one run may hold at once: thousands would starve every other session of the worker. */
export const MAX_TIMERS_PER_RUN = 1_000;
/** Node's timer bound; a longer delay would fire at once. */
const MAX_DELAY_MS = 2 ** 31 - 1;

export class RunTimers {
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private over = false;

  constructor(
    private readonly nextId: () => number,
    /** Hands a due timer to the sandbox. */
    private readonly fire: (id: number) => void,
    /** Told the bound's message before it is thrown (the run keeps it, so an uncaught refusal fails as LIMIT_EXCEEDED). */
    private readonly onLimit: (message: string) => void,
  ) {}

  set(kind: "setTimeout" | "setInterval", requestedMs: unknown): number {
    if (this.timers.size >= MAX_TIMERS_PER_RUN) {
      const message = `a run holds at most ${MAX_TIMERS_PER_RUN} pending timers; clear some with clearTimeout/clearInterval`;
      this.onLimit(message);
      throw new BwError("LIMIT_EXCEEDED", message);
    }
    const id = this.nextId();
    const floor = kind === "setInterval" ? MIN_INTERVAL_MS : 0;
    const ms = Math.min(Math.max(floor, Number(requestedMs) || 0), MAX_DELAY_MS);
    // A timer due past the run's deadline simply never fires: the run is over by then.
    const timer = kind === "setTimeout"
      ? setTimeout(() => { this.timers.delete(id); if (!this.over) this.fire(id); }, ms)
      : setInterval(() => { if (!this.over) this.fire(id); }, ms);
    this.timers.set(id, timer);
    return id;
  }

  /** clearTimeout and clearInterval alike, as in browsers. */
  clear(id: unknown): void {
    const key = Number(id);
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  /** The run is over: none of its timers fires again. */
  end(): void {
    this.over = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
