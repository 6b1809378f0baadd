// The worker's main thread, shared fairly between sessions. Each session's
// page calls go through a lane of its own: the lane's budget (lane-budget.ts)
// refuses what is past its caps before it reaches the browser, and at most
// RUNNING_PER_LANE of its calls run at once (one screenshot; a call that
// waits on the page gives its slot up) while the rest wait their turn in order. A session firing thousands of calls thus has a
// handful of tasks on the event loop at any moment, and another session's
// call waits behind those, not behind thousands.
import { laneLimitsOf, LIMIT_DEFAULTS, type LaneLimits } from "../../shared/config-limits.js";
import { LaneBudget, resultRefusal } from "./lane-budget.js";

/**
 * A session's calls that run at once; the rest wait in its lane (in its realm first: realm-thread.ts). Four keep a
 * bystander's p95 within about 2× of alone beside a session with 900 calls in flight (bench scenario `lanes`), where 16
 * let it reach ~9×; calls to one page mostly take turns in its renderer anyway.
 */
export const RUNNING_PER_LANE = 4;

/**
 * A call still running after this long is waiting on the page (an action waiting for its element, a slow page
 * function), not working the main thread: its slot goes to the session's next call. Without it, four clicks waiting
 * for elements that a later call of the same session would make would wait for ever behind each other.
 */
export const SLOT_HOLD_MS = 100;

/** Takes a slot: `free` runs once, when the returned release is called or SLOT_HOLD_MS have passed. */
export function heldSlot(free: () => void): () => void {
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    clearTimeout(timer);
    free();
  };
  const timer = setTimeout(release, SLOT_HOLD_MS);
  return release;
}

/**
 * How a realm message uses the main thread: `waits` only waits for the page (waitForSelector, waitForURL…) and holds
 * no slot; `heavy` makes the browser build something large (a screenshot decodes up to ~100 MB of pixels), one at a
 * time per session; any other is a `call`.
 */
export type CallKind = "waits" | "heavy" | "call";

export function callKind(m: Record<string, unknown>): CallKind {
  // Answering a dialog is what a call blocked on that dialog waits for: it never waits behind it.
  if (m.ask === "urlWait" || m.ask === "dialog" || (m.ask === "call" && typeof m.method === "string" && m.method.startsWith("waitFor"))) return "waits";
  if (m.ask === "scope" && m.name === "screenshot") return "heavy";
  return "call";
}

interface Waiting {
  heavy: boolean;
  start(): void;
}

interface Lane {
  budget: LaneBudget;
  running: number;
  heavy: number;
  waiting: Waiting[];
}

export interface LaneCall<T> {
  /** The message as the realm sent it: its size is what the call sends into the browser. */
  message: Record<string, unknown>;
  run(): Promise<T>;
}

export class Lanes {
  private readonly lanes = new Map<string, Lane>();

  constructor(readonly limits: LaneLimits = laneLimitsOf(LIMIT_DEFAULTS), private readonly runningPerLane = RUNNING_PER_LANE) {}

  /** Runs `call` in `session`'s lane, in its turn; refused with LIMIT_EXCEEDED past a cap (its arguments, or its result). */
  submit<T>(session: string, call: LaneCall<T>): Promise<T> {
    let lane = this.lanes.get(session);
    if (!lane) {
      lane = { budget: new LaneBudget(this.limits), running: 0, heavy: 0, waiting: [] };
      this.lanes.set(session, lane);
    }
    const own = lane;
    const size = own.budget.admit(call.message);
    const kind = callKind(call.message);
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        let releaseSlot = () => {};
        if (kind !== "waits") {
          own.running++;
          releaseSlot = heldSlot(() => {
            own.running--;
            this.next(own);
          });
        }
        if (kind === "heavy") own.heavy++;
        // The slot and the bytes are given back before the caller hears: its next call finds them free.
        const finish = () => {
          releaseSlot();
          if (kind === "heavy") own.heavy--;
          own.budget.release(size);
          if (own.budget.calls === 0) this.lanes.delete(session);
          this.next(own);
        };
        void (async () => call.run())().then((value) => {
          const refused = resultRefusal(this.limits, value);
          if (refused) throw refused;
          return value;
        }).then((value) => { finish(); resolve(value); }, (error: unknown) => { finish(); reject(error); });
      };
      if (kind === "waits") start();
      else {
        own.waiting.push({ heavy: kind === "heavy", start });
        this.next(own);
      }
    });
  }

  /** Starts the lane's next waiting calls, in order, while it has free slots. */
  private next(lane: Lane): void {
    while (lane.running < this.runningPerLane && lane.waiting.length > 0 && !(lane.waiting[0]!.heavy && lane.heavy > 0)) lane.waiting.shift()!.start();
  }
}
