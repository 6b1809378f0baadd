// The guard's decision for one CONNECT target, made in the daemon: ask about the host as named, resolve
// it, ask about every resolved address, and hand back only the literals that were
// allowed. The caller dials nothing else, so a name can never be re-resolved to an
// address nobody checked (DNS rebinding). Every failure denies.

import { isIP } from "node:net";

export interface GuardTarget {
  host: string;
  port: number;
  /** Set when `host` is an address the named host resolved to. */
  resolvedFrom?: string;
}

export interface GuardDecision {
  allowed: boolean;
  reason: string;
}

export type Authorize = (target: GuardTarget) => Promise<GuardDecision>;
export type Resolve = (host: string) => Promise<string[]>;

export type DecisionOutcome =
  | { kind: "allowed"; addresses: string[] }
  | { kind: "denied"; reason: string; target: GuardTarget }
  | { kind: "unresolved"; reason: string }
  | { kind: "invalid"; reason: string };

export interface CheckRecord {
  target: GuardTarget;
  decision: GuardDecision;
  durationMs: number;
  /** Present when the check failed (threw, timed out, answered nonsense) and so denied. */
  error?: string;
}

export interface DecideOptions {
  authorize: Authorize;
  resolve: Resolve;
  now: () => number;
  checkTimeoutMs: number;
  maxResolvedAddresses: number;
  onCheck: (record: CheckRecord) => void;
  /** Aborted when the client disconnects or the proxy closes: pending checks stop waiting. */
  signal?: AbortSignal;
}

// Letters, digits and the punctuation of hostnames, IPv4/IPv6 literals and zone
// ids. Anything else (spaces, controls, non-ASCII) is not a name a browser sends.
const HOST_CHARS = /^[A-Za-z0-9._\-:%]+$/;
const MAX_HOST_LENGTH = 255;

/** The host as it will be checked and, for literals, dialled; null if not a plausible host. */
export function normalizeHost(host: string): string | null {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (bare.length === 0 || bare.length > MAX_HOST_LENGTH || !HOST_CHARS.test(bare)) return null;
  // A colon only belongs in an IPv6 literal; "host:port" here would be a smuggled port.
  if (bare.includes(":") && isIP(bare) !== 6) return null;
  return bare;
}

export async function decide(rawHost: string, port: number, options: DecideOptions): Promise<DecisionOutcome> {
  const host = normalizeHost(rawHost);
  if (host === null) return { kind: "invalid", reason: "target host is malformed" };
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { kind: "invalid", reason: `target port ${port} is invalid` };

  const named: GuardTarget = { host, port };
  const first = await check(named, options);
  if (!first.allowed) return { kind: "denied", reason: first.reason, target: named };

  if (isIP(host) !== 0) return { kind: "allowed", addresses: [host] };

  let addresses: string[];
  try {
    const answer = await withTimeout(Promise.resolve(options.resolve(host)), options, "DNS resolution");
    if (!Array.isArray(answer)) throw new Error("resolver returned no list");
    addresses = [...new Set(answer)];
  } catch (error) {
    return { kind: "unresolved", reason: `could not resolve ${host}: ${messageOf(error)}` };
  }
  if (addresses.length === 0) return { kind: "unresolved", reason: `${host} has no addresses` };
  // A resolver that hands back something other than literals would make the dialer
  // do its own lookup, which is exactly what this module exists to prevent.
  const bogus = addresses.find((address) => typeof address !== "string" || isIP(address) === 0);
  if (bogus !== undefined) return { kind: "unresolved", reason: `resolver returned a non-address for ${host}` };
  // Only the addresses that are checked are ever dialled, so capping is safe.
  addresses = addresses.slice(0, options.maxResolvedAddresses);

  const targets = addresses.map((address): GuardTarget => ({ host: address, port, resolvedFrom: host }));
  const decisions = await Promise.all(targets.map((target) => check(target, options)));
  const deniedAt = decisions.findIndex((decision) => !decision.allowed);
  if (deniedAt >= 0) {
    const target = targets[deniedAt]!;
    return { kind: "denied", reason: `${host} resolved to ${target.host}: ${decisions[deniedAt]!.reason}`, target };
  }
  return { kind: "allowed", addresses };
}

/** One authorize call that can only answer allowed or denied: never throw, never hang. */
async function check(target: GuardTarget, options: DecideOptions): Promise<GuardDecision> {
  const started = options.now();
  let decision: GuardDecision;
  let error: string | undefined;
  try {
    const answer = await withTimeout(Promise.resolve(options.authorize({ ...target })), options, "guard check");
    if (answer === null || typeof answer !== "object" || typeof answer.allowed !== "boolean") {
      throw new Error("guard check returned a malformed decision");
    }
    decision = { allowed: answer.allowed, reason: typeof answer.reason === "string" ? answer.reason : "" };
  } catch (caught) {
    error = messageOf(caught);
    decision = { allowed: false, reason: `guard check failed: ${error}` };
  }
  const record: CheckRecord = { target, decision, durationMs: options.now() - started };
  if (error !== undefined) record.error = error;
  options.onCheck(record);
  return decision;
}

/** Bounded by checkTimeoutMs and abandoned at once when the client goes away. */
function withTimeout<T>(promise: Promise<T>, options: DecideOptions, what: string): Promise<T> {
  const { checkTimeoutMs: ms, signal } = options;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error("connection closed"));
      return;
    }
    const onAbort = (): void => settle(() => reject(new Error("connection closed")));
    const timer = ms > 0 && Number.isFinite(ms) ? setTimeout(() => settle(() => reject(new Error(`${what} timed out after ${ms} ms`))), ms) : undefined;
    let settled = false;
    function settle(action: () => void): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      action();
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
