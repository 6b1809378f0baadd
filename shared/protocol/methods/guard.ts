// The guard's methods. `guard.check` is the worker asking the daemon's policy
// about one request (worker pipe only); `policy.check` is a client's dry run
// of that policy for a URL (socket only), which never starts a browser.
import { GUARD_LAYERS, type GuardAnswer, type GuardLayer } from "../../guard/questions/types.js";
import type { PolicySettings } from "../../config.js";
import { BwError } from "../errors.js";
import { arr, bool, custom, num, obj, optional, str } from "../validate.js";
import { declare } from "./declare.js";

/** Longer URLs are refused before they reach the policy (Chromium's own cap is 2 MiB; hosts are what matter). */
export const MAX_GUARD_URL_CHARS = 16_384;
const MAX_HOST_ENTRIES = 1_000;

const layerParam = custom((value, path): GuardLayer => {
  if (!GUARD_LAYERS.includes(value as GuardLayer)) throw new BwError("INVALID_ARGUMENT", `${path}: must be one of ${GUARD_LAYERS.join(", ")}`);
  return value as GuardLayer;
});

const urlParam = str({ min: 1, max: MAX_GUARD_URL_CHARS });
const hostList = arr(str({ min: 1, max: 600 }), { max: MAX_HOST_ENTRIES });

export const GuardCheck = declare<GuardAnswer>()("guard.check", obj({
  url: urlParam,
  details: obj({
    layer: layerParam,
    method: optional(str({ max: 32 })),
    resourceType: optional(str({ max: 32 })),
    isNavigation: optional(bool()),
    resolvedFrom: optional(str({ max: 320 })),
  }),
}));

/** One address the URL's host resolved to, judged as the proxy would judge it. */
export interface AddressDecision {
  address: string;
  allowed: boolean;
  reason: string;
}

export interface PolicyCheckResult {
  url: string;
  /** What the guard would do: the URL's decision and, with `resolve`, every resolved address's. */
  allowed: boolean;
  reason: string;
  /** The URL's own decision, before any address was looked at. */
  urlDecision: { allowed: boolean; reason: string };
  /** The policy that answered: the daemon's, with the call's overrides applied. */
  policy: PolicySettings & { custom?: true };
  /** With `resolve`, for a host name: every address it resolved to (or why it did not resolve). */
  resolved?: { host: string; addresses: AddressDecision[]; error?: string };
}

export type PolicyOverrides = Partial<PolicySettings>;

export const PolicyCheck = declare<PolicyCheckResult>()("policy.check", obj({
  url: urlParam,
  /** Applied over the daemon's policy for this answer only. */
  policy: optional(obj({
    allowLoopback: optional(bool()),
    allowPrivateNetwork: optional(bool()),
    allowHosts: optional(hostList),
    blockHosts: optional(hostList),
    onlyPorts: optional(arr(num({ min: 1, max: 65535, integer: true }), { max: 32 })),
  })),
  resolve: optional(bool()),
}));

// ---- guard.connect: the worker's proxy asks the daemon for a connection ----

/** Why a dial attempt failed, in terms both proxy protocols can answer. */
export type DialFailure = "refused" | "timeout" | "host-unreachable" | "network-unreachable" | "error";

/** Why a connection got no tunnel. */
export type Refusal = "denied" | "dns" | "invalid" | DialFailure;

export type GuardConnectResult =
  /** The daemon dialled an approved address; the socket follows on the worker's handle channel under `ticket`. */
  | { connected: true; ticket: number; address: string; checks: number }
  | { connected: false; refusal: Refusal; reason: string; checks: number };

/** Longest host name (or IPv6 literal with a zone id) the proxy passes on; the SOCKS5 wire allows 255. */
const MAX_CONNECT_HOST_CHARS = 255;

/**
 * The worker's guard proxy read a CONNECT (SOCKS5 or HTTP) from Chromium: the
 * daemon asks its policy about the host and every address it resolves to,
 * dials the first allowed literal and hands the connected socket over. The
 * worker never dials: contained, it has no network to dial on.
 */
export const GuardConnect = declare<GuardConnectResult>()("guard.connect", obj({
  host: str({ min: 1, max: MAX_CONNECT_HOST_CHARS }),
  port: num({ min: 1, max: 65535, integer: true }),
}));

/** The message that carries a connected socket to the worker (Node's IPC channel, with the socket as its handle). */
export interface GuardSocketMessage {
  type: typeof GUARD_SOCKET_MESSAGE;
  ticket: number;
}
export const GUARD_SOCKET_MESSAGE = "betterwright:guard-socket";
