// The worker's main thread, shared fairly between sessions. Each session's
// page calls go through a lane of its own: the lane's budget (lane-budget.ts)
// refuses what is past its caps before it reaches the browser, and at most
// RUNNING_PER_LANE of its calls run at once while the rest wait their turn in
// order. A session firing thousands of calls thus has a handful of tasks on
// the event loop at any moment, and another session's call waits behind
// those, not behind thousands.
import { laneLimitsOf, LIMIT_DEFAULTS, type LaneLimits } from "../../shared/config-limits.js";
import { LaneBudget, resultRefusal } from "./lane-budget.js";

/** A session's calls that run at once; the rest wait in its lane. */
export const RUNNING_PER_LANE = 16;

/** A realm message that only waits for the page (it holds no slot of its lane while it does). */
export function onlyWaits(m: Record<string, unknown>): boolean {
  return (m.op === "call" && typeof m.method === "string" && m.method.startsWith("waitFor")) || m.op === "urlAfter";
}

interface Lane {
  budget: LaneBudget;
  running: number;
  waiting: (() => void)[];
}

export interface LaneCall<T> {
  /** The message as the realm sent it: its size is what the call sends into the browser. */
  message: unknown;
  /** A call that only waits (waitForSelector, waitForURL…) holds no slot: its lane's next call need not wait for it. */
  waits: boolean;
  run(): Promise<T>;
}

export class Lanes {
  private readonly lanes = new Map<string, Lane>();

  constructor(readonly limits: LaneLimits = laneLimitsOf(LIMIT_DEFAULTS), private readonly runningPerLane = RUNNING_PER_LANE) {}

  /** Runs `call` in `session`'s lane, in its turn; refused with LIMIT_EXCEEDED past a cap (its arguments, or its result). */
  submit<T>(session: string, call: LaneCall<T>): Promise<T> {
    let lane = this.lanes.get(session);
    if (!lane) {
      lane = { budget: new LaneBudget(this.limits), running: 0, waiting: [] };
      this.lanes.set(session, lane);
    }
    const own = lane;
    const size = own.budget.admit(call.message);
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        if (!call.waits) own.running++;
        void (async () => call.run())().then((value) => {
          const refused = resultRefusal(this.limits, value);
          if (refused) throw refused;
          return value;
        }).then(resolve, reject).finally(() => {
          if (!call.waits) own.running--;
          own.budget.release(size);
          if (own.budget.calls === 0) this.lanes.delete(session);
          this.next(own);
        });
      };
      if (call.waits) start();
      else {
        own.waiting.push(start);
        this.next(own);
      }
    });
  }

  /** Starts the lane's next waiting calls while it has free slots. */
  private next(lane: Lane): void {
    while (lane.running < this.runningPerLane && lane.waiting.length > 0) lane.waiting.shift()!();
  }
}
