// Everything the policy reads from outside its own options — request details
// from the layers, whatever a custom hook returns, errors it throws — is read
// here defensively: a surprise becomes a denial, never an exception or an allow.
import { GUARD_LAYERS, type GuardLayer, type PolicyDecision, type RequestDetails } from "./types.js";

/** Reasons reach agents and logs: keep a hook from flooding either. */
export const MAX_REASON_LENGTH = 500;

export const invalidDecision: unique symbol = Symbol("invalid custom decision");

function bounded(text: string): string {
  return text.length <= MAX_REASON_LENGTH ? text : `${text.slice(0, MAX_REASON_LENGTH - 1)}…`;
}

/** A short, safe description of anything thrown. */
export function describeError(error: unknown): string {
  try {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return bounded(text);
  } catch {
    return "an error that cannot be described";
  }
}

function optionalType(value: unknown, type: "string" | "boolean"): boolean {
  return value === undefined || typeof value === type;
}

/** A clean, frozen copy of the details, or why they are unusable. Missing details mean the CLI asked. */
export function validateDetails(raw: unknown): RequestDetails | string {
  if (raw === undefined) return Object.freeze({ layer: "cli" });
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return "request details must be an object";
  const record = raw as Record<string, unknown>;
  const { layer, method, resourceType, isNavigation, resolvedFrom } = record;
  if (!GUARD_LAYERS.includes(layer as GuardLayer)) return `request details name an unknown layer ${JSON.stringify(layer)}`;
  if (!optionalType(method, "string")) return "request details: method must be a string";
  if (!optionalType(resourceType, "string")) return "request details: resourceType must be a string";
  if (!optionalType(isNavigation, "boolean")) return "request details: isNavigation must be a boolean";
  if (!optionalType(resolvedFrom, "string")) return "request details: resolvedFrom must be a string";
  const details: { -readonly [K in keyof RequestDetails]: RequestDetails[K] } = { layer: layer as GuardLayer };
  if (method !== undefined) details.method = method as string;
  if (resourceType !== undefined) details.resourceType = resourceType as string;
  if (isNavigation !== undefined) details.isNavigation = isNavigation as boolean;
  if (resolvedFrom !== undefined) details.resolvedFrom = resolvedFrom as string;
  return Object.freeze(details);
}

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
    : bounded(reason);
  return Object.freeze({ allowed, reason: text });
}
