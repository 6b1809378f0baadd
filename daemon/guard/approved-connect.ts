// One connection the guard proxy asked for, made by the daemon: decide (the host
// as named, then every address it resolves to), dial the first allowed literal,
// and hand back the connected socket or why there is none. The worker, which
// holds no network of its own when contained, only ever gets sockets from here.
import type { Socket } from "node:net";
import type { Refusal } from "../../shared/protocol/methods/index.js";
import { decide, type Authorize, type CheckRecord, type Resolve } from "./guard-decision.js";
import { dialFirst, type Dial, type DialFailure } from "./upstream-dial.js";

export interface ApprovedConnectOptions {
  authorize: Authorize;
  resolve: Resolve;
  dial: Dial;
  now: () => number;
  /** Bound on each policy question and on DNS resolution; a timeout denies. */
  checkTimeoutMs: number;
  /** Bound on each dial attempt. */
  connectTimeoutMs: number;
  /** Resolved addresses beyond this many are neither checked nor dialled. */
  maxResolvedAddresses: number;
  onCheck?: (record: CheckRecord) => void;
  onDialFailed?: (address: string, port: number, failure: DialFailure, reason: string) => void;
}

export type ApprovedConnection =
  | { kind: "connected"; socket: Socket; address: string; checks: number }
  | { kind: "refused"; refusal: Refusal; reason: string; checks: number }
  /** The asker went away first; nothing is left open. */
  | { kind: "aborted"; checks: number };

export const APPROVED_CONNECT_DEFAULTS = Object.freeze({
  checkTimeoutMs: 10_000,
  connectTimeoutMs: 10_000,
  maxResolvedAddresses: 16,
} as const);

export async function connectApproved(host: string, port: number, options: ApprovedConnectOptions, signal?: AbortSignal): Promise<ApprovedConnection> {
  let checks = 0;
  const aborter = signal ?? new AbortController().signal;
  const outcome = await decide(host, port, {
    authorize: options.authorize,
    resolve: options.resolve,
    now: options.now,
    checkTimeoutMs: options.checkTimeoutMs,
    maxResolvedAddresses: options.maxResolvedAddresses,
    signal: aborter,
    onCheck: (record) => {
      checks += 1;
      options.onCheck?.(record);
    },
  });
  if (aborter.aborted) return { kind: "aborted", checks };
  if (outcome.kind === "denied") return { kind: "refused", refusal: "denied", reason: outcome.reason, checks };
  if (outcome.kind === "unresolved") return { kind: "refused", refusal: "dns", reason: outcome.reason, checks };
  if (outcome.kind === "invalid") return { kind: "refused", refusal: "invalid", reason: outcome.reason, checks };

  const dialed = await dialFirst(outcome.addresses, port, {
    dial: options.dial,
    connectTimeoutMs: options.connectTimeoutMs,
    signal: aborter,
    // dialFirst destroys every attempt it does not return.
    onSocket: () => {},
    onAttemptFailed: (address, failure, reason) => options.onDialFailed?.(address, port, failure, reason),
  });
  if (dialed.kind === "aborted") return { kind: "aborted", checks };
  if (dialed.kind === "failed") return { kind: "refused", refusal: dialed.failure, reason: dialed.reason, checks };
  if (aborter.aborted) {
    dialed.socket.destroy();
    return { kind: "aborted", checks };
  }
  return { kind: "connected", socket: dialed.socket, address: dialed.address, checks };
}
