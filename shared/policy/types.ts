// The shapes every layer of the guard speaks: what was asked, and the answer.

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

/** What a custom hook may return: a decision (reason optional) or null/undefined to keep the built-in one. */
export type CustomDecision = { allowed: boolean; reason?: string } | null | undefined;

export type CustomHook = (url: string, details: RequestDetails) => CustomDecision | Promise<CustomDecision>;

/** Anything the guard service can ask; only a stock NetworkPolicy says its answers may be cached. */
export interface PolicyLike {
  check(url: string, details: RequestDetails): PolicyDecision | Promise<PolicyDecision>;
}

/** A decision as it crosses to the worker: `cacheable` is true only for a stock policy. */
export interface GuardAnswer extends PolicyDecision {
  readonly cacheable: boolean;
}

/** Options that cross a process boundary: everything but the hook. */
export interface SerializablePolicyOptions {
  readonly allowLoopback: boolean;
  readonly allowPrivateNetwork: boolean;
  readonly allowHosts: readonly string[];
  readonly blockHosts: readonly string[];
}

export interface NetworkPolicyOptions {
  /** Permit 127.0.0.0/8, ::1 and localhost names. Default true. */
  allowLoopback?: boolean;
  /** Permit private, link-local and intranet hosts; implies allowLoopback. Default true. */
  allowPrivateNetwork?: boolean;
  /** Hosts allowed in the built-in decision: exact host or parent domain, optional `:port`. */
  allowHosts?: readonly string[];
  /** Hosts denied in the built-in decision, before allowHosts. */
  blockHosts?: readonly string[];
  /** Evaluated last; may override anything but the scheme check and the metadata floor. */
  custom?: CustomHook | null;
}
