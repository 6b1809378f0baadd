// Every operation's handler, by name, and the one way an operation runs in a
// session: its arguments checked against the table again (the pipe is a
// boundary too), its handles released at the end, its failures given codes.
import { BwError } from "../../../shared/errors.js";
import { checkOperation } from "../../../shared/operations/index.js";
import type { WorkerOutcome } from "../../../shared/envelope.js";
import type { OpContext, OpStart } from "./op-context.js";
import { opError } from "./op-errors.js";
import type { OpHandler } from "./handler.js";
import { inspectionHandlers } from "./handlers/inspection.js";
import { interactionHandlers } from "./handlers/interaction.js";
import { navigationHandlers } from "./handlers/navigation.js";
import { serviceHandlers } from "./handlers/services.js";

export const OP_HANDLERS: ReadonlyMap<string, OpHandler> = new Map(
  [...navigationHandlers, ...inspectionHandlers, ...interactionHandlers, ...serviceHandlers].map((h) => [h.name, h]),
);

/** An operation ready to start in a session's lane, and what its outcome gains afterwards (secret arguments). */
export function operationRun(name: string, rawArgs: unknown): { start: OpStart; finish(outcome: WorkerOutcome): WorkerOutcome } {
  const secretArgs: string[] = [];
  const start: OpStart = async (session) => {
    const { args } = checkOperation(name, rawArgs);
    const handler = OP_HANDLERS.get(name);
    if (!handler) throw new BwError("INVALID_ARGUMENT", `operation ${name} is not available in this worker`);
    const releases: (() => Promise<unknown>)[] = [];
    const ctx: OpContext = { ...session, secretArg: (path) => { secretArgs.push(path); }, defer: (release) => { releases.push(release); } };
    try {
      await session.pages.ensure();
      return await handler.run(ctx, args);
    } catch (error) {
      throw opError(error);
    } finally {
      for (const release of releases) void release().catch(() => {});
    }
  };
  return {
    start,
    finish: (outcome) => (secretArgs.length > 0 ? { ...outcome, secretArgs } : outcome),
  };
}
