// What a failed Playwright call means, told from its message: the one place
// that reads Playwright's and Chromium's error text. Playwright exports one
// error class (`errors.TimeoutError`, the one to test for a timeout); a closed
// target is its TargetClosedError, which it neither exports nor names
// ("Error"), and a refused request is a Chromium net error inside a plain
// Error. test/e2e/playwright-errors.test.ts pins each pattern against the
// error real Chromium produces.

import { withoutColours } from "../../shared/safe-text.js";

/** The page, context or browser a call used has closed (also when the browser died). */
const TARGET_CLOSED = /\bTarget page, context or browser has been closed\b/;
/** Routing aborted the request (`route.abort("blockedbyclient")`). */
const ROUTE_REFUSAL = /\bnet::ERR_BLOCKED_BY_CLIENT\b/;
/** The proxy refused the connection (SOCKS5, or HTTP CONNECT) or could not be reached. */
const PROXY_REFUSAL = /\bnet::ERR_(SOCKS_CONNECTION_FAILED|TUNNEL_CONNECTION_FAILED|PROXY_CONNECTION_FAILED)\b/;

/** A navigation the network failed, which leaves Chromium's error page: every net error but an abort (a download, a stop). */
const ERROR_PAGE_FAILURE = /\bnet::ERR_(?!ABORTED\b)[A-Z_]+\b/;

/** `page.goto` to a URL the browser downloads instead of showing. */
const DOWNLOAD_STARTING = /\bDownload is starting\b/;

export function isDownloadStarting(message: string): boolean {
  return DOWNLOAD_STARTING.test(message);
}

export function leavesErrorPage(message: string): boolean {
  return ERROR_PAGE_FAILURE.test(message);
}

export function isTargetClosed(message: string): boolean {
  return TARGET_CLOSED.test(message);
}

export function isRouteRefusal(message: string): boolean {
  return ROUTE_REFUSAL.test(message);
}

export function isProxyRefusal(message: string): boolean {
  return PROXY_REFUSAL.test(message);
}

/** A locator in strict mode (every action) matched several elements: how many. */
const STRICT_VIOLATION = /\bstrict mode violation: .* resolved to (\d+) elements\b/;
/** The element a handle held, or its document or frame, is gone. */
const ELEMENT_GONE = /\b(Element is not attached to the DOM|Execution context was destroyed|JSHandle is disposed|Element is detached|Frame was detached|Invalid frame in aria-ref selector)\b/i;
/** A navigation the network or another navigation ended (Chromium's net errors). */
const NAVIGATION_ERROR = /\bnet::ERR_[A-Z_]+\b|\binterrupted by another navigation\b/;

export function strictViolationCount(message: string): number | undefined {
  const match = STRICT_VIOLATION.exec(message);
  return match ? Number(match[1]) : undefined;
}

export function isElementGone(message: string): boolean {
  return ELEMENT_GONE.test(message);
}

export function isNavigationError(message: string): boolean {
  return NAVIGATION_ERROR.test(message);
}

/** An action's call log: the element that took the pointer instead of the target (`<div id="overlay">…</div> intercepts pointer events`). */
const INTERCEPTS = /^\s*-?\s*(.+?) intercepts pointer events\s*$/m;
/** The action's input was sent (`performing click action`): repeating it could act twice. */
const PERFORMED = /\bperforming \w+ action\b/;
/** The action was done; what timed out was the wait for the navigation it scheduled. */
const ACTION_DONE = /^\s*(?!trial )\w+ action done\s*$/m;

/** What covered the target, as the call log describes it. */
export function interceptingElement(message: string): string | undefined {
  return INTERCEPTS.exec(withoutColours(message))?.[1]?.trim();
}

export function actionPerformed(message: string): boolean {
  return PERFORMED.test(message);
}

export function actionDone(message: string): boolean {
  return ACTION_DONE.test(withoutColours(message));
}

export function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === "TimeoutError";
}
