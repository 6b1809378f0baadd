// What a custom hook (or any policy object) returns is read here defensively:
// a surprise becomes a denial, never an exception or an allow. Request details
// are read by the guard's own module, shared with the worker.
import { boundReason } from "../questions/request-details.js";
import type { PolicyDecision } from "./types.js";

export { describeError, MAX_REASON_LENGTH, validateDetails } from "../questions/request-details.js";

export const invalidDecision: unique symbol = Symbol("invalid custom decision");

/**
 * What a custom hook (or a policy object) returned: a decision, undefined to keep
 * the built-in one, or `invalidDecision`. Reads each field once, so a getter cannot
 * answer twice. `source` names the decider in a default reason.
 */
export function readCustomDecision(
  value: unknown,
  source = "the custom policy hook",
): PolicyDecision | undefined | typeof invalidDecision {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== "object") return invalidDecision;
  const record = value as Record<string, unknown>;
  const allowed = record["allowed"];
  const reason = record["reason"];
  if (typeof allowed !== "boolean") return invalidDecision;
  if (reason !== undefined && typeof reason !== "string") return invalidDecision;
  const text = reason === undefined || reason.length === 0
    ? `${allowed ? "allowed" : "denied"} by ${source}`
    : boundReason(reason);
  return Object.freeze({ allowed, reason: text });
}
