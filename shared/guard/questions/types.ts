// The shapes every layer of the guard speaks: what was asked, and the answer.
// No policy here: the worker uses these to ask and to cache, the daemon to decide.

/** Which layer asked: the proxy sees only host and port, routing sees the request, the CLI asks by hand. */
export type GuardLayer = "proxy" | "route" | "cli";

export const GUARD_LAYERS: readonly GuardLayer[] = Object.freeze(["proxy", "route", "cli"]);

export interface RequestDetails {
  readonly layer: GuardLayer;
  readonly method?: string;
  /** Playwright's resource type (`document`, `script`, `image`, `websocket`, ...), or `download`. */
  readonly resourceType?: string;
  readonly isNavigation?: boolean;
  /** For an address the proxy resolved: the host name it came from. */
  readonly resolvedFrom?: string;
}

export interface PolicyDecision {
  readonly allowed: boolean;
  readonly reason: string;
}

/** A decision as it crosses to the worker: `cacheable` is true only for a stock policy. */
export interface GuardAnswer extends PolicyDecision {
  readonly cacheable: boolean;
}
