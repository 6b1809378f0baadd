// session.exec / session.list / session.close.
import { closeReasons } from "../../shared/protocol/close-reason.js";
import { transcriptPath } from "../../shared/paths.js";
import { RunAttach, RunCancel, SessionClose, SessionExec, SessionList, TranscriptRead } from "../../shared/protocol/methods/index.js";
import type { MethodRegistry } from "../../shared/protocol/rpc.js";
import { specOf } from "../../shared/session-settings.js";
import type { ClientConnection, RunHost } from "./connection.js";
import { Transcript } from "../sessions/transcript.js";
import { assertMayUse } from "./serve-names.js";

export function registerSessionMethods(registry: MethodRegistry<ClientConnection>, daemon: RunHost): void {
  registry.define(SessionExec, (params, connection) => {
    daemon.assertAccepting();
    assertMayUse(connection, "session", params.session);
    assertMayUse(connection, "state", params.create?.state);
    return daemon.sessions.exec({
      session: params.session,
      run: { kind: "snippet", code: params.code, ...(params.args === undefined ? {} : { args: params.args }) },
      timeoutMs: params.timeoutMs ?? daemon.defaultTimeoutMs,
      runId: params.runId,
      approveDownloads: params.approveDownloads,
      create: params.create === undefined ? undefined : specOf(params.create),
      budgetFromStart: params.budgetFromStart,
    });
  });
  registry.define(RunAttach, (params) => daemon.sessions.attach(params.runId));
  registry.define(RunCancel, async (params) => ({ cancelled: await daemon.sessions.cancel(params.runId) }));
  registry.define(TranscriptRead, (params) => {
    const transcript = new Transcript(transcriptPath(daemon.layout, params.session));
    const entries = transcript.read(params.sinceSeq ?? 0).slice(0, params.limit ?? 1000);
    return { entries, lastSeq: transcript.lastSeq() };
  });
  registry.define(SessionList, () => ({ sessions: daemon.sessions.list() }));
  registry.define(SessionClose, async (params, connection) => {
    assertMayUse(connection, "session", params.session);
    return { closed: await daemon.sessions.close(params.session, closeReasons.byClient(params.session)) };
  });
}
