// client → daemon: running snippets in sessions.
import type { Envelope } from "../envelope.js";
import { obj, optional, str } from "../validate.js";
import { declare, MAX_CODE_CHARS, nameParam, runIdParam, timeoutMsParam } from "./declare.js";

export interface SessionSummary {
  session: string;
  idleMs: number;
  inFlight: number;
  queued: number;
  createdAt: string;
}

export const SessionExec = declare<Envelope>()("session.exec", obj({
  session: nameParam("session"),
  code: str({ max: MAX_CODE_CHARS }),
  timeoutMs: optional(timeoutMsParam),
  runId: optional(runIdParam),
}));
export const SessionList = declare<{ sessions: SessionSummary[] }>()("session.list", optional(obj({})));
export const SessionClose = declare<{ closed: boolean }>()("session.close", obj({ session: nameParam("session") }));
