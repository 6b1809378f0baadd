// Request details arrive from the layers (and over RPC): read them defensively,
// so a surprise becomes a denial, never an exception or an allow. Reasons and
// error descriptions are bounded here because they reach agents and logs.
import { GUARD_LAYERS, type GuardLayer, type RequestDetails } from "./types.js";

/** Reasons reach agents and logs: keep a hook from flooding either. */
export const MAX_REASON_LENGTH = 500;

export function boundReason(text: string): string {
  return text.length <= MAX_REASON_LENGTH ? text : `${text.slice(0, MAX_REASON_LENGTH - 1)}…`;
}

/** A short, safe description of anything thrown. */
export function describeError(error: unknown): string {
  try {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return boundReason(text);
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
