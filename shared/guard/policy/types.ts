// The policy's own shapes: the hook, the options and anything with `check`.
// What every layer asks and answers lives in shared/guard/questions/types.ts.
import type { PolicyDecision, RequestDetails } from "../questions/types.js";

export { GUARD_LAYERS, type GuardAnswer, type GuardLayer, type PolicyDecision, type RequestDetails } from "../questions/types.js";

/** What a custom hook may return: a decision (reason optional) or null/undefined to keep the built-in one. */
export type CustomDecision = { allowed: boolean; reason?: string } | null | undefined;

export type CustomHook = (url: string, details: RequestDetails) => CustomDecision | Promise<CustomDecision>;

/** Anything the guard service can ask; only a stock NetworkPolicy says its answers may be cached. */
export interface PolicyLike {
  check(url: string, details: RequestDetails): PolicyDecision | Promise<PolicyDecision>;
}

/** Options that cross a process boundary: everything but the hook. */
export interface SerializablePolicyOptions {
  readonly allowLoopback: boolean;
  readonly allowPrivateNetwork: boolean;
  readonly allowHosts: readonly string[];
  readonly blockHosts: readonly string[];
  readonly onlyPorts: readonly number[];
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
  /** When not empty, only these ports are reachable (checked after allowHosts, whose entries keep their ports). Default []. */
  onlyPorts?: readonly number[];
  /** Evaluated last; may override anything but the scheme check and the metadata floor. */
  custom?: CustomHook | null;
}
