// client → daemon: one typed operation in a session (`session.op`); daemon →
// worker: its browser side (`worker.op`). The operation's arguments are
// checked against the operation table on both sides of the pipe.
import { workerOutcome } from "./worker-outcome.js";
import type { Envelope, WorkerOutcome } from "../envelope.js";
import { checkOperation, MAX_ELEMENT_WAIT_MS, MAX_OPERATION_NAME } from "../operations/index.js";
import { anyObject, bool, custom, num, obj, optional, str, type Validator } from "../validate.js";
import { declare, nameParam, runIdParam, timeoutMsParam } from "./declare.js";
import { createParam } from "./state.js";

const elementWaitParam = num({ min: 1, max: MAX_ELEMENT_WAIT_MS, integer: true });
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
  elementWaitMs: optional(elementWaitParam),
  runId: optional(runIdParam),
  /** Accept downloads this session's pages start during the operation (a navigation to a file, a click on a link). */
  approveDownloads: optional(bool()),
  /** Create the session this way if it does not exist yet; if it does, it must have been made this way (SESSION_EXISTS). */
  create: optional(createParam),
})));
export const WorkerOp = declare<WorkerOutcome>()("worker.op", withOpArgs(obj({
  session: nameParam("session"),
  op: opName,
  args: optional(anyObject()),
  runId: runIdParam,
  budgetMs: timeoutMsParam,
  elementWaitMs: optional(elementWaitParam),
  approveDownloads: optional(bool()),
})), workerOutcome);
