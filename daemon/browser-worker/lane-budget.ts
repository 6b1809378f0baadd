// What one session's page calls may hold of the worker at once: their number
// and the size of their arguments in flight, and the size of one call's
// arguments and result. Kept twice with the same rules: in the realm, so that
// a refused call is never copied to the main thread, and on the main thread,
// which decides (lanes.ts). Pure.
import type { LaneLimits } from "../../shared/config-limits.js";
import { raiseHint } from "../../shared/config-limits.js";
import { BwError } from "../../shared/protocol/errors.js";

/** Characters a value takes as JSON, counted up to just past `stopAt` (a walk of its nodes: a long string costs one step). */
export function wireSize(value: unknown, stopAt: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= stopAt) {
    const v = stack.pop();
    if (typeof v === "string") size += v.length + 2;
    else if (v === null || typeof v !== "object") size += 8;
    else if (Array.isArray(v)) {
      size += 2 + v.length;
      for (let i = 0; i < v.length && size <= stopAt; i++) stack.push(v[i]);
    } else {
      const record = v as Record<string, unknown>;
      size += 2;
      for (const key of Object.keys(record)) {
        size += key.length + 4;
        stack.push(record[key]);
      }
    }
  }
  return size;
}

function refusal(limit: keyof LaneLimits, what: string, value: number): BwError {
  return new BwError("LIMIT_EXCEEDED", `${what}, past its limit of ${value} (${limit}); raise ${raiseHint(limit)}`, { details: { limit, value } });
}

/** The refusal of a call whose arguments are past maxCallArgBytes (the realm's context makes it from this message too). */
export function argsRefusal(limits: LaneLimits): BwError {
  return refusal("maxCallArgBytes", "the page call's arguments are too large to send to the browser", limits.maxCallArgBytes);
}

/** The refusal for a result past maxCallResultBytes, or undefined when it fits. */
export function resultRefusal(limits: LaneLimits, result: unknown): BwError | undefined {
  const size = wireSize(result, limits.maxCallResultBytes);
  return size > limits.maxCallResultBytes ? refusal("maxCallResultBytes", "the page call's result is too large to hand back", limits.maxCallResultBytes) : undefined;
}

export class LaneBudget {
  calls = 0;
  bytes = 0;

  constructor(private readonly limits: LaneLimits) {}

  /** Takes a call of `message` into the budget (its size, to give back with release) or throws LIMIT_EXCEEDED. */
  admit(message: unknown): number {
    const { maxCallArgBytes, maxSessionBytesInFlight, maxSessionCallsInFlight } = this.limits;
    if (this.calls >= maxSessionCallsInFlight) {
      throw refusal("maxSessionCallsInFlight", "the session has too many page calls in flight", maxSessionCallsInFlight);
    }
    const size = wireSize(message, maxCallArgBytes);
    if (size > maxCallArgBytes) throw argsRefusal(this.limits);
    if (this.bytes + size > maxSessionBytesInFlight) {
      throw refusal("maxSessionBytesInFlight", "the session's page calls in flight hold too many bytes of arguments", maxSessionBytesInFlight);
    }
    this.calls++;
    this.bytes += size;
    return size;
  }

  release(size: number): void {
    this.calls--;
    this.bytes -= size;
  }
}
