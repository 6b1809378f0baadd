// session.exec / session.list / session.close.
import { SessionClose, SessionExec, SessionList } from "../../shared/protocol/index.js";
import type { MethodRegistry } from "../../shared/rpc.js";
import type { ConnectionContext, Daemon } from "../daemon.js";

export function registerSessionMethods(registry: MethodRegistry<ConnectionContext>, daemon: Daemon): void {
  registry.define(SessionExec, (params) => {
    daemon.assertAccepting();
    return daemon.sessions.exec({
      session: params.session,
      code: params.code,
      timeoutMs: params.timeoutMs ?? daemon.defaultTimeoutMs,
      runId: params.runId,
    });
  });
  registry.define(SessionList, () => ({ sessions: daemon.sessions.list() }));
  registry.define(SessionClose, async (params) => ({ closed: await daemon.sessions.close(params.session) }));
}
