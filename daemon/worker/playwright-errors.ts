// What a failed Playwright call means, told from its message: the one place
// that reads Playwright's and Chromium's error text. Playwright exports one
// error class (`errors.TimeoutError`, the one to test for a timeout); a closed
// target is its TargetClosedError, which it neither exports nor names
// ("Error"), and a refused request is a Chromium net error inside a plain
// Error. test/e2e/playwright-errors.test.ts pins each pattern against the
// error real Chromium produces.

/** The page, context or browser a call used has closed (also when the browser died). */
const TARGET_CLOSED = /\bTarget page, context or browser has been closed\b/;
/** Routing aborted the request (`route.abort("blockedbyclient")`). */
const ROUTE_REFUSAL = /\bnet::ERR_BLOCKED_BY_CLIENT\b/;
/** The proxy refused the connection (SOCKS5, or HTTP CONNECT) or could not be reached. */
const PROXY_REFUSAL = /\bnet::ERR_(SOCKS_CONNECTION_FAILED|TUNNEL_CONNECTION_FAILED|PROXY_CONNECTION_FAILED)\b/;

/** `page.goto` to a URL the browser downloads instead of showing. */
const DOWNLOAD_STARTING = /\bDownload is starting\b/;

export function isDownloadStarting(message: string): boolean {
  return DOWNLOAD_STARTING.test(message);
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
