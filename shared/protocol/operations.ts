// client → daemon: one typed operation in a session (`session.op`); daemon →
// worker: its browser side (`worker.op`). The operation's arguments are
// checked against the operation table on both sides of the pipe.
import type { Envelope, WorkerOutcome } from "../envelope.js";
import { checkOperation, MAX_OPERATION_NAME } from "../operations/index.js";
import { anyObject, custom, obj, optional, str, type Validator } from "../validate.js";
import { declare, nameParam, runIdParam, timeoutMsParam } from "./declare.js";

const opName = str({ min: 1, max: MAX_OPERATION_NAME, pattern: /^[a-z_]+$/ });

/** The params' own shape, then the op's `args` against the operation table (INVALID_ARGUMENT names the argument). */
function withOpArgs<P extends { op: string; args?: Record<string, unknown> | undefined }>(shape: Validator<P>): Validator<P & { args: Record<string, unknown> }> {
  return custom((value, path) => {
    const params = shape(value, path);
    return { ...params, args: checkOperation(params.op, params.args).args };
  });
}

export const SessionOp = declare<Envelope>()("session.op", withOpArgs(obj({
  session: nameParam("session"),
  op: opName,
  args: optional(anyObject()),
  timeoutMs: optional(timeoutMsParam),
  runId: optional(runIdParam),
})));
export const WorkerOp = declare<WorkerOutcome>()("worker.op", withOpArgs(obj({
  session: nameParam("session"),
  op: opName,
  args: optional(anyObject()),
  runId: runIdParam,
  budgetMs: timeoutMsParam,
})));
