// How long a WebMCP call may take: what the caller asked, within the run's
// budget, less a margin in which the bridge asks the page to cancel and
// detaches before the run itself is cut off. Pure.

/** Time kept back from the run's budget for the cancellation and the detach. */
export const WEBMCP_CANCEL_MARGIN_MS = 1_500;

export function webmcpTimeoutMs(requestedMs: number | undefined, remainingMs: number): number {
  const room = Math.max(1, Math.floor(remainingMs) - WEBMCP_CANCEL_MARGIN_MS);
  return requestedMs === undefined ? room : Math.max(1, Math.min(requestedMs, room));
}
