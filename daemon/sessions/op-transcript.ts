// How a typed operation reads in its session's transcript: its name and its
// arguments as JSON, with what the worker typed into a password field
// replaced. The vault's redactor passes over this text afterwards, as over a
// snippet, so a vault secret sent as an argument is redacted too.
import type { OperationRun } from "../../shared/protocol/methods/run.js";


export const SECRET_ARG = "[REDACTED]";

/** A copy of `args` with the value at each dotted path (`value`, `fields.2.value`) replaced. */
export function withoutSecrets(args: Record<string, unknown>, paths: readonly string[] = []): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
  for (const path of paths) {
    const keys = path.split(".");
    let holder: unknown = copy;
    for (const key of keys.slice(0, -1)) holder = holder !== null && typeof holder === "object" ? (holder as Record<string, unknown>)[key] : undefined;
    const last = keys[keys.length - 1]!;
    if (holder !== null && typeof holder === "object" && Object.hasOwn(holder, last)) (holder as Record<string, unknown>)[last] = SECRET_ARG;
  }
  return copy;
}

export function opTranscriptText(op: Pick<OperationRun, "name" | "args">, secretArgs?: readonly string[]): string {
  return `${op.name} ${JSON.stringify(withoutSecrets(op.args, secretArgs))}`;
}
