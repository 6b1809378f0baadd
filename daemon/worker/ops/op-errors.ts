// Playwright's failures as the error table's codes. Playwright gives no codes
// of its own: its messages are read by ../playwright-errors.ts (pinned against
// real Chromium), and everything past this module sees a BwError.
import { BwError } from "../../../shared/errors.js";
import { withoutColours } from "../../../shared/safe-text.js";
import { isElementGone, isNavigationError, strictViolationCount } from "../playwright-errors.js";

const MAX_MESSAGE_LINES = 6;
const MAX_MESSAGE_CHARS = 1_000;

/** Playwright's message without its ANSI colours, cut to its first lines (its call log can be long). */
export function playwrightMessage(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const plain = withoutColours(raw);
  const lines = plain.split("\n").filter((l) => l.trim() !== "").slice(0, MAX_MESSAGE_LINES).join("\n");
  return lines.length > MAX_MESSAGE_CHARS ? `${lines.slice(0, MAX_MESSAGE_CHARS)}…` : lines;
}

export interface ErrorScope {
  /** What the operation acted on, for the message. */
  target?: string;
  /** The target was a ref: its element going away is STALE_REF. */
  ref?: boolean;
  /** The operation navigates: a network failure is NAVIGATION_FAILED. */
  navigation?: boolean;
}

/** The BwError an operation's failure stands for. */
export function opError(error: unknown, scope: ErrorScope = {}): BwError {
  if (error instanceof BwError) return error;
  const message = playwrightMessage(error);
  const about = scope.target ? ` (${scope.target})` : "";
  const count = strictViolationCount(message);
  if (count !== undefined) {
    return new BwError("LOCATOR_AMBIGUOUS", `the locator${about} matches ${count} elements; make it unique (an exact name, a ref from a snapshot)`, { details: { count } });
  }
  if (scope.ref && isElementGone(message)) {
    return new BwError("STALE_REF", `${scope.target ?? "the ref"} no longer points at an element of this page (it was removed, or the page navigated): take a new snapshot`);
  }
  if (error instanceof Error && error.name === "TimeoutError") {
    return new BwError("SNIPPET_TIMEOUT", `the operation${about} did not finish within its budget: ${message}`);
  }
  if (scope.navigation && isNavigationError(message)) {
    return new BwError("NAVIGATION_FAILED", message);
  }
  return new BwError("OPERATION_FAILED", message);
}

/** Runs a browser call, turning its failure into the code it stands for. */
export async function mapErrors<T>(scope: ErrorScope, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw opError(error, scope);
  }
}
