// Why a session closes: one value, made where the close starts (a client's
// session.close, the idle reaper, the daemon stopping) and carried down from
// the daemon's session to the worker's and to its pages, so that every run the
// close ends says why, in the same words at every layer.
import { BwError, isErrorCode, type ErrorCode } from "./errors.js";
import { custom, obj, str } from "./validate.js";

export interface CloseReason {
  code: ErrorCode;
  message: string;
}

const closing = (message: string): CloseReason => ({ code: "SESSION_CLOSING", message });

export const closeReasons = {
  /** session.close, from any client (`betterwright close --session`, the library, MCP, HTTP). */
  byClient: (session: string) => closing(`session ${session} was closed by a client (session.close)`),
  /** The reaper: no run for the session's time to live. */
  idle: (session: string, ttlSeconds: number) => closing(`session ${session} was closed after ${ttlSeconds} s without a run (sessionTtlSeconds)`),
  /** The daemon is stopping, and says why (SIGTERM, daemon.shutdown, no session for a while…). */
  daemonStopping: (why: string) => closing(`the daemon is shutting down (${why})`),
  /** session.create could not make it (a missing state, a setting Chromium refused). */
  notMade: (session: string) => closing(`session ${session} could not be made`),
  /** The worker replaces a session of that name with a new isolated one. */
  replaced: (session: string) => closing(`session ${session} was replaced by a new session of that name`),
  /** The worker itself is stopping (its daemon asked, or went away). */
  workerStopping: (session: string) => closing(`session ${session} was closed: its worker is stopping`),
} as const;

/** What a run the close ended, or a call made after it, fails with. */
export function closingError(reason: CloseReason): BwError {
  return new BwError(reason.code, reason.message);
}

export const closeReasonParam = obj({
  code: custom((value, path): ErrorCode => {
    if (!isErrorCode(value)) throw new BwError("INVALID_ARGUMENT", `${path}: not an error code`);
    return value;
  }),
  message: str({ min: 1, max: 2000 }),
});
