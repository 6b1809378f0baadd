// client → daemon: one typed operation in a session (`session.op`), its
// arguments checked against the operation table. The worker gets it as a run
// request (run.ts), checked again there.
import type { Envelope } from "../envelope.js";
import { checkOperation } from "../operations/index.js";
import { anyObject, bool, custom, obj, optional, type Validator } from "../validate.js";
import { declare, nameParam, runIdParam, timeoutMsParam } from "./declare.js";
import { elementWaitParam, operationNameParam } from "./run.js";
import { createParam } from "./state.js";

/** The params' own shape, then the op's `args` against the operation table (INVALID_ARGUMENT names the argument). */
function withOpArgs<P extends { op: string; args?: Record<string, unknown> | undefined }>(shape: Validator<P>): Validator<P & { args: Record<string, unknown> }> {
  return custom((value, path) => {
    const params = shape(value, path);
    return { ...params, args: checkOperation(params.op, params.args).args };
  });
}

export const SessionOp = declare<Envelope>()("session.op", withOpArgs(obj({
  session: nameParam("session"),
  op: operationNameParam,
  args: optional(anyObject()),
  timeoutMs: optional(timeoutMsParam),
  elementWaitMs: optional(elementWaitParam),
  runId: optional(runIdParam),
  /** Accept downloads this session's pages start during the operation (a navigation to a file, a click on a link). */
  approveDownloads: optional(bool()),
  /** Create the session this way if it does not exist yet; if it does, it must have been made this way (SESSION_EXISTS). */
  create: optional(createParam),
})));
