// session.op: one typed operation in a session's lane (its args were checked
// against the operation table when the request was validated).
import { SessionOp } from "../../shared/protocol/methods/index.js";
import type { MethodRegistry } from "../../shared/protocol/rpc.js";
import { specOf } from "../../shared/session-settings.js";
import type { ClientConnection, RunHost } from "./connection.js";
import { assertMayUse } from "./serve-names.js";

export function registerOpMethods(registry: MethodRegistry<ClientConnection>, daemon: RunHost): void {
  registry.define(SessionOp, (params, connection) => {
    daemon.assertAccepting();
    assertMayUse(connection, "session", params.session);
    assertMayUse(connection, "state", params.create?.state);
    return daemon.sessions.exec({
      session: params.session,
      run: { kind: "operation", name: params.op, args: params.args, ...(params.elementWaitMs === undefined ? {} : { elementWaitMs: params.elementWaitMs }) },
      timeoutMs: params.timeoutMs ?? daemon.defaultTimeoutMs,
      runId: params.runId,
      approveDownloads: params.approveDownloads,
      create: params.create === undefined ? undefined : specOf(params.create),
    });
  });
}
