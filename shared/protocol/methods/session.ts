// client → daemon: running snippets in sessions.
import type { Envelope } from "../envelope.js";
import type { SessionSettings } from "../../session-settings.js";
import type { TranscriptEntry } from "../../transcript-format.js";
import { bool, num, obj, optional, str } from "../validate.js";
import { argsParam, declare, MAX_CODE_CHARS, nameParam, runIdParam, timeoutMsParam } from "./declare.js";
import { createParam } from "./state.js";

export interface SessionSummary {
  session: string;
  idleMs: number;
  inFlight: number;
  queued: number;
  createdAt: string;
  /** Its own browser context (session.create / exec --isolated), with these settings. */
  isolated: boolean;
  settings: SessionSettings;
  /** The saved state it started from. */
  state?: string;
  /** On remote browsers: the endpoint it lives on. */
  placement?: string;
}

export const SessionExec = declare<Envelope>()("session.exec", obj({
  session: nameParam("session"),
  code: str({ max: MAX_CODE_CHARS }),
  /** JSON data the snippet sees as `args`. */
  args: optional(argsParam),
  timeoutMs: optional(timeoutMsParam),
  runId: optional(runIdParam),
  /** Accept downloads this session's pages start during the run (a snippet cannot approve itself). */
  approveDownloads: optional(bool()),
  /** Create the session this way if it does not exist yet; if it does, it must have been made this way (SESSION_EXISTS). */
  create: optional(createParam),
  /** Count the budget from when the run leaves its session's queue, not from acceptance (a caller that queues runs ahead, like repl). */
  budgetFromStart: optional(bool()),
}));
export const SessionList = declare<{ sessions: SessionSummary[] }>()("session.list", optional(obj({})));
export const SessionClose = declare<{ closed: boolean }>()("session.close", obj({ session: nameParam("session") }));

export const RunAttach = declare<Envelope>()("run.attach", obj({ runId: runIdParam }));
export const RunCancel = declare<{ cancelled: boolean }>()("run.cancel", obj({ runId: runIdParam }));

export const TranscriptRead = declare<{ entries: TranscriptEntry[]; lastSeq: number }>()("transcript.read", obj({
  session: nameParam("session"),
  sinceSeq: optional(num({ min: 0, integer: true })),
  limit: optional(num({ min: 1, max: 10_000, integer: true })),
}));
