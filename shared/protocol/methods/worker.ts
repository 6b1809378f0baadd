// daemon → worker: the browser side of sessions.
import type { WorkerOutcome } from "../envelope.js";
import { closeReasonParam } from "../close-reason.js";
import { BwError } from "../errors.js";
import { bool, custom, num, obj, optional, str } from "../validate.js";
import type { LaneLimits } from "../../config-limits.js";
import { remoteInitParam, type WorkerRemoteInit } from "./remote.js";
import { workerOutcome } from "./worker-outcome.js";
import { declare, nameParam, runIdParam, timeoutMsParam } from "./declare.js";
import { runRequest } from "./run.js";

const okTrue = custom((value, path): { ok: true } => {
  if (value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 1 && (value as { ok?: unknown }).ok === true) return { ok: true };
  throw new BwError("INVALID_ARGUMENT", `${path}: expected { ok: true }`);
});

export interface WorkerInit {
  browser: string | null;
  headless: boolean;
  profileDir: string;
  browserEnvDir: string;
  artifactsDir: string;
  /**
   * Route every request through Playwright's routing for its method, resource
   * type and navigation flag: only a policy with a custom hook can use them,
   * and routing costs ~1.5× on a page load (it pauses every request).
   */
  routeRequests?: boolean;
  /** Remote browsers: sessions are placed on these instead of a local launch (docs/remote-browsers.md). */
  remote?: WorkerRemoteInit;
  /** What one session may send into the browser (shared/config-limits.ts); defaults when absent. */
  limits?: LaneLimits;
  /** Stealth mode (docs/stealth.md). */
  stealth?: boolean;
}

export const WorkerInitialize = declare<{ ok: true }>()("worker.init", obj({
  browser: custom((v, p) => (v === null ? null : str()(v, p))),
  headless: bool(),
  profileDir: str(),
  browserEnvDir: str(),
  artifactsDir: str(),
  routeRequests: optional(bool()),
  remote: remoteInitParam,
  limits: optional(obj({
    maxCallArgBytes: num({ integer: true, min: 1 }),
    maxCallResultBytes: num({ integer: true, min: 1 }),
    maxSessionBytesInFlight: num({ integer: true, min: 1 }),
    maxSessionCallsInFlight: num({ integer: true, min: 1 }),
  })),
  stealth: optional(bool()),
}), okTrue);
/** One run of a session (a snippet or a typed operation), within `budgetMs`. */
export const WorkerRun = declare<WorkerOutcome>()("worker.run", obj({
  session: nameParam("session"),
  run: runRequest,
  runId: runIdParam,
  budgetMs: timeoutMsParam,
  approveDownloads: optional(bool()),
}), workerOutcome);
export const WorkerCancel = declare<{ cancelled: boolean }>()("worker.cancel", obj({ session: nameParam("session"), runId: runIdParam }), obj({ cancelled: bool() }));
/** `reason`: why, made where the close started; every run it ends fails with it. */
export const WorkerCloseSession = declare<{ closed: boolean }>()("worker.closeSession", obj({ session: nameParam("session"), reason: closeReasonParam }), obj({ closed: bool() }));
export const WorkerPing = declare<{ now: number; browser: { running: boolean } }>()("worker.ping", optional(obj({})), obj({ now: num(), browser: obj({ running: bool() }) }));
export const WorkerShutdown = declare<{ ok: true }>()("worker.shutdown", optional(obj({})), okTrue);

// ---- worker → daemon -------------------------------------------------------

/** Sent by the worker's watchdog thread when a snippet holds the event loop. */
export const WorkerBlocked = declare<null>()("worker.blocked", obj({
  session: custom((v, p) => (v === null ? null : nameParam("session")(v, p))),
  blockedMs: num({ min: 0 }),
}));
