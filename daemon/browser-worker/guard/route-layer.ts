// The guard's second layer: Playwright routing sees every request a page makes
// (not WebSockets, not service workers, and only the first URL of a redirect
// chain) with its method, resource type and whether it navigates, so a policy
// can decide on those. The proxy still checks every connection underneath.
import type { BrowserContext, Page, Request, Route } from "playwright-core";
import type { BlockedRequest } from "../../../shared/protocol/envelope.js";
import type { PolicyDecision, RequestDetails } from "../../../shared/guard/questions/index.js";

/**
 * A connection the guard did not make: refused by the policy, or for a host the proxy could
 * not resolve (`unresolved`) or an approved address that did not answer (`unreachable`),
 * which are no refusals and never listed in `blocked`.
 */
export type GuardRefusal = Omit<BlockedRequest, "count"> & { unresolved?: true; unreachable?: true };
export type BlockedSink = (entry: GuardRefusal, page: Page | undefined) => void;
export type GuardCheck = (url: string, details: RequestDetails) => Promise<PolicyDecision>;

/** The page a request belongs to; none for service-worker requests. */
function pageOf(request: Request): Page | undefined {
  try {
    return request.frame().page();
  } catch {
    return undefined;
  }
}

export function routeDetails(request: Request): RequestDetails {
  return { layer: "route", method: request.method(), resourceType: request.resourceType(), isNavigation: request.isNavigationRequest() };
}

/** A handler for `context.route("**\/*", …)`: allowed requests fall through, refused ones abort as blocked by client. */
export function guardRouteHandler(check: GuardCheck, onBlocked: BlockedSink): (route: Route, request: Request) => Promise<void> {
  return async (route, request) => {
    const url = request.url();
    const details = routeDetails(request);
    // check() never rejects (a failure is a denial), so nothing here can leave a request hanging.
    const decision = await check(url, details);
    if (decision.allowed) {
      // The page may have gone meanwhile; then there is nothing left to let through.
      await route.fallback().catch(() => {});
      return;
    }
    const entry: Omit<BlockedRequest, "count"> = { url, layer: "route", reason: decision.reason };
    if (details.resourceType !== undefined) entry.resourceType = details.resourceType;
    if (details.method !== undefined) entry.method = details.method;
    if (details.isNavigation === true) entry.isNavigation = true;
    onBlocked(entry, pageOf(request));
    await route.abort("blockedbyclient").catch(() => {});
  };
}

export async function installRouteLayer(context: BrowserContext, check: GuardCheck, onBlocked: BlockedSink): Promise<void> {
  await context.route("**/*", guardRouteHandler(check, onBlocked));
}
