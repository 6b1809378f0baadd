// One run of a session, as the daemon queues it and the worker receives it: a
// snippet (source text and its JSON `args`) or a typed operation (a name of
// the operation table and its checked arguments). The worker checks it again
// on arrival: the pipe is a trust boundary.
import { BwError } from "../errors.js";
import { checkOperation, MAX_ELEMENT_WAIT_MS, MAX_OPERATION_NAME } from "../operations/index.js";
import { custom, num, obj, optional, str, type Validator } from "../validate.js";
import { argsParam, MAX_CODE_CHARS } from "./declare.js";

export interface SnippetRun {
  kind: "snippet";
  code: string;
  /** JSON data the snippet sees as `args`. */
  args?: unknown;
}

export interface OperationRun {
  kind: "operation";
  name: string;
  args: Record<string, unknown>;
  /** The operation's short wait for a target that matches nothing or is covered. */
  elementWaitMs?: number;
}

export type RunRequest = SnippetRun | OperationRun;

export const elementWaitParam = num({ min: 1, max: MAX_ELEMENT_WAIT_MS, integer: true });
export const operationNameParam = str({ min: 1, max: MAX_OPERATION_NAME, pattern: /^[a-z_]+$/ });

const snippetRun = obj({ kind: str(), code: str({ max: MAX_CODE_CHARS }), args: optional(argsParam) });
const operationRun = obj({ kind: str(), name: operationNameParam, args: custom((value) => value), elementWaitMs: optional(elementWaitParam) });

/** A run request: its kind picks its shape, and an operation's arguments are checked against the operation table. */
export const runRequest: Validator<RunRequest> = custom((value, path) => {
  const kind = value !== null && typeof value === "object" ? (value as { kind?: unknown }).kind : undefined;
  if (kind === "snippet") {
    const run = snippetRun(value, path);
    return { kind, code: run.code, ...(run.args === undefined ? {} : { args: run.args }) };
  }
  if (kind === "operation") {
    const run = operationRun(value, path);
    return { kind, name: run.name, args: checkOperation(run.name, run.args).args, ...(run.elementWaitMs === undefined ? {} : { elementWaitMs: run.elementWaitMs }) };
  }
  throw new BwError("INVALID_ARGUMENT", `${path}.kind: expected snippet or operation`);
});
