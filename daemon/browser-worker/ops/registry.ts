// Every operation's handler, by name, and the one way an operation runs in a
// session: on the arguments the worker's pipe checked against the table, its
// handles released at the end, its failures given codes.
import { BwError, toBwError } from "../../../shared/protocol/errors.js";
import type { OperationRun } from "../../../shared/protocol/methods/run.js";
import type { TextContext, WorkerOutcome } from "../../../shared/protocol/envelope.js";
import type { OperationCall, OpRun, OperationSession, OpStart } from "./op-context.js";
import { opError } from "./op-errors.js";
import type { OpHandler } from "./handler.js";
import { inspectionHandlers } from "./handlers/inspection.js";
import { interactionHandlers } from "./handlers/interaction.js";
import { navigationHandlers } from "./handlers/navigation.js";
import { serviceHandlers } from "./handlers/services.js";
import { waitHandlers } from "./handlers/waits.js";
import { webmcpHandlers } from "./handlers/webmcp.js";

export const OP_HANDLERS: ReadonlyMap<string, OpHandler> = new Map(
  [...navigationHandlers, ...inspectionHandlers, ...interactionHandlers, ...serviceHandlers, ...waitHandlers, ...webmcpHandlers].map((h) => [h.name, h]),
);

/** Runs an operation's handler on checked arguments: its handles released at the end, its failure given a code. */
export async function runHandler(name: string, session: OperationSession, args: Record<string, unknown>, notes: Partial<Pick<OperationCall, "secretArg" | "textCut">> = {}): Promise<unknown> {
  const handler = OP_HANDLERS.get(name);
  if (!handler) throw new BwError("INVALID_ARGUMENT", `operation ${name} is not available in this worker`);
  const releases: (() => Promise<unknown>)[] = [];
  const ctx: OperationCall = { ...session, secretArg: notes.secretArg ?? (() => {}), textCut: notes.textCut ?? (() => {}), defer: (release) => { releases.push(release); } };
  try {
    return await handler.run(ctx, args);
  } catch (error) {
    throw opError(error);
  } finally {
    for (const release of releases) void release().catch(() => {});
  }
}

/** An operation ready to start in a session's lane, and what its outcome gains afterwards (secret arguments, the context of a cut text). */
export function operationRun({ name, args, elementWaitMs }: OperationRun): { start: OpStart; finish(outcome: WorkerOutcome): WorkerOutcome } {
  const secretArgs: string[] = [];
  let textContext: TextContext | undefined;
  const start: OpStart = Object.assign(async (session: OperationSession) => {
    await session.pages.ensure();
    return runHandler(name, elementWaitMs === undefined ? session : { ...session, elementWaitMs }, args, { secretArg: (path) => { secretArgs.push(path); }, textCut: (context) => { textContext = context; } });
  }, { label: `the ${name} operation`, readsOnly: OP_HANDLERS.get(name)?.readsOnly === true });
  return {
    start,
    finish: (outcome) => ({
      ...outcome,
      ...(secretArgs.length > 0 ? { secretArgs } : {}),
      // A result cut to a preview on its way out carries the preview's context instead.
      ...(textContext !== undefined && outcome.ok && !outcome.truncated ? { textContext } : {}),
    }),
  };
}

/** Starts an operation as its run's work: tracked like a snippet's browser calls, its end the run's end. */
export function startOperation(run: OpRun, start: OpStart, context: OperationSession): void {
  const task = start(context);
  run.inflight.set(task, start.label ?? "the operation");
  task.then(
    (value) => run.done({ ok: true, value: value === undefined ? null : value }),
    (error: unknown) => {
      const e = toBwError(error);
      run.done({ ok: false, error: { name: "Error", message: e.message, code: e.code, ...(e.details === undefined ? {} : { details: e.details }) } });
    },
  ).finally(() => run.inflight.delete(task));
}
