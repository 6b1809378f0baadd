// What a failed run's error becomes in its envelope. The snippet (or an
// operation) threw something; the code it gets depends on what else the run
// saw: a guard refusal it let through, a documented bound it hit, the browser
// dying under it, or a refusal of ours carrying a stable code. Everything else
// is the snippet's own SNIPPET_ERROR.
import { BwError, isErrorCode, type ErrorShape as WireError } from "../../shared/protocol/errors.js";
import type { BlockedCollector } from "./guard/blocked-collector.js";
import type { ErrorShape as RealmError } from "./realm/realm-messages.js";
import type { RealmLoss } from "./realm/realm.js";
import { REALM_HEAP_MB } from "./realm/session-realm.js";
import { isTargetClosed } from "./playwright-errors.js";
import { playwrightMessage } from "./ops/op-errors.js";

/** How a run failed: a realm's error, or an operation's BwError with its details. */
export type RunError = RealmError & { details?: unknown };

export interface FailureFacts {
  blocked: BlockedCollector;
  /** Messages of the bounds the run hit (pages, timers). */
  limits: ReadonlySet<string>;
  /** An operation's error (trusted code) keeps its details; a realm's is the snippet's to shape. */
  fromOperation: boolean;
  /** The run's budget, and whether Playwright's waits had used it up when the run failed. */
  budget?: { ms: number; spent: boolean };
  /** Whether the browser went away during the run, waiting a moment for news a "closed" error may outrun. */
  browserLost(waitMs: number): Promise<boolean>;
}

export async function runFailure(e: RunError, ctx: FailureFacts): Promise<WireError> {
  // A navigation the guard refused keeps its code when the snippet lets it through.
  const guardCode = ctx.blocked.codeFor(e.message);
  if (guardCode) return new BwError(guardCode, e.message).toJSON();
  if (ctx.limits.has(e.message)) return new BwError("LIMIT_EXCEEDED", e.message).toJSON();
  // Chromium died under the run (its pages are gone, Playwright says "closed"): a crash, not the snippet's fault.
  if ((await ctx.browserLost(0)) || (isTargetClosed(e.message) && (await ctx.browserLost(1_000)))) {
    return new BwError("BROWSER_DISCONNECTED", "the browser went away during the run; the session's pages were lost (what the snippet did before may have happened)", { retryable: false }).toJSON();
  }
  // A Playwright wait that the run's budget ended (not one the snippet gave its own timeout): what it waited for.
  if (!ctx.fromOperation && e.name === "TimeoutError" && ctx.budget?.spent) {
    return new BwError("SNIPPET_TIMEOUT", `the snippet did not finish within its budget of ${ctx.budget.ms} ms: ${playwrightMessage(e.message)}`).toJSON();
  }
  // A refusal of ours (a facade's INVALID_ARGUMENT, a syntax error, a heap past its limit) keeps its code.
  if (isErrorCode(e.code)) return new BwError(e.code, e.message, ctx.fromOperation && e.details !== undefined ? { details: e.details } : {}).toJSON();
  return new BwError("SNIPPET_ERROR", e.name && e.name !== "Error" ? `${e.name}: ${e.message}` : e.message).toJSON();
}

/** The error of a run whose realm died or was stopped under it: a heap bomb is LIMIT_EXCEEDED, anything else ours. */
export function realmLossError(reason: RealmLoss): RunError {
  if (reason === "heap") return { name: "Error", message: `the snippet ran out of memory (its realm's heap is limited to ${REALM_HEAP_MB} MiB)`, code: "LIMIT_EXCEEDED" };
  return { name: "Error", message: "the snippet's realm stopped unexpectedly", code: "INTERNAL_ERROR" };
}
