// Playwright's failures as the error table's codes. Playwright gives no codes
// of its own: its messages are read by ../playwright-errors.ts (pinned against
// real Chromium), and everything past this module sees a BwError.
import { BwError } from "../../../shared/protocol/errors.js";
import { withoutColours } from "../../../shared/safe-text.js";
import { interceptingElement, isElementGone, isNavigationError, isTimeout, strictViolationCount } from "../playwright-errors.js";

const MAX_MESSAGE_LINES = 10;
const MAX_MESSAGE_CHARS = 1_200;
// Call-log lines that repeat what a retry loop does and say nothing of what it waited for.
const RETRY_NOISE = /^\s*-?\s*(retrying \w+ action|waiting \d+ms)\s*$/;

/**
 * Playwright's message without its ANSI colours, its call log kept to the lines that say what it
 * waited for (each once, retries left out), cut to its first lines.
 */
export function playwrightMessage(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const plain = withoutColours(raw);
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const line of plain.split("\n")) {
    const key = line.replace(/^(\s*)\d+ × /, "$1").trimEnd();
    if (key.trim() === "" || RETRY_NOISE.test(key) || seen.has(key)) continue;
    seen.add(key);
    kept.push(key);
  }
  const lines = kept.slice(0, MAX_MESSAGE_LINES).join("\n");
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

/** The target is covered by another element that would take the pointer; nothing was done. */
export function obscured(target: string, cover: string): BwError {
  const by = cover.length > 300 ? `${cover.slice(0, 300)}…` : cover;
  return new BwError("ELEMENT_OBSCURED", `${target} is covered by ${by}, which would take the click; nothing was done: close or answer what covers it first (a snapshot shows it), or press Escape`, { details: { coveredBy: by } });
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
  if (isTimeout(error)) {
    const cover = interceptingElement(error instanceof Error ? error.message : "");
    if (cover !== undefined) return obscured(scope.target ?? "the target", cover);
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
