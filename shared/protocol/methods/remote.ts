// Remote browsers (docs/remote-browsers.md). The worker holds the Playwright
// connection to each endpoint, but never dials: the daemon dials the endpoint
// and hands the socket over (remote.dial), fills in the endpoint's headers
// from its environment or vault (remote.headers), and leases each remote
// context credentials for its guard proxy (guard.remoteLease), the remote
// browser's only way out.
import type { EndpointKind } from "../../remote-config.js";
import { BwError } from "../errors.js";
import { arr, bool, custom, num, obj, optional, str } from "../validate.js";
import { declare, nameParam } from "./declare.js";

/** What the worker knows of an endpoint: never its headers. */
export interface WorkerEndpoint {
  id: number;
  url: string;
  kind: EndpointKind;
  maxSessions: number;
}

export interface WorkerRemoteInit {
  endpoints: WorkerEndpoint[];
  trustRemoteEgress: boolean;
}

const endpointId = num({ min: 0, max: 1023, integer: true });

const kindParam = custom((value, path): EndpointKind => {
  if (value !== "playwright" && value !== "cdp") throw new BwError("INVALID_ARGUMENT", `${path}: expected playwright or cdp`);
  return value;
});

export const remoteInitParam = optional(obj({
  endpoints: arr(obj({ id: endpointId, url: str({ min: 1, max: 2048 }), kind: kindParam, maxSessions: num({ min: 1, max: 10_000, integer: true }) }), { max: 64 }),
  trustRemoteEgress: bool(),
}));

// ---- worker → daemon ----------------------------------------------------------

/** A TCP connection to the endpoint's host and port, handed over under `ticket` (as guard.connect's). */
export const RemoteDial = declare<{ ticket: number }>()("remote.dial", obj({ endpoint: endpointId }));
/** The endpoint's headers with their secrets filled in, for the connection's handshake only. */
export const RemoteHeaders = declare<{ headers: Record<string, string> }>()("remote.headers", obj({ endpoint: endpointId }));

export interface RemoteLeaseResult {
  leaseId: string;
  /** `http://host:port`: the daemon's guard proxy as the remote browser reaches it. */
  server: string;
  username: string;
  password: string;
}
/** Credentials for one remote context of `session`: the guard proxy serves it with these until released. */
export const GuardRemoteLease = declare<RemoteLeaseResult>()("guard.remoteLease", obj({ session: nameParam("session") }));
export const GuardRemoteRelease = declare<null>()("guard.remoteRelease", obj({ leaseId: str({ min: 1, max: 64 }) }));

// ---- daemon → worker ----------------------------------------------------------

/** The guard proxy refused a remote context's connection: the session's runs list it as blocked. */
export const WorkerRemoteRefused = declare<null>()("worker.remoteRefused", obj({
  session: nameParam("session"),
  url: str({ min: 1, max: 2048 }),
  reason: str({ max: 1024 }),
  unresolved: optional(bool()),
}));

export interface EndpointReport {
  url: string;
  kind: EndpointKind;
  state: "connected" | "idle" | "down";
  sessions: number;
  maxSessions: number;
  /** The browser's version, once connected. */
  version?: string;
  /** One round trip to the browser (a new context made and closed), when probed. */
  latencyMs?: number;
  /** Why it is down, and when it is tried again. */
  error?: string;
  retryInMs?: number;
  /** Whether the guard holds its egress (false: a CDP endpoint used under trustRemoteEgress). */
  guarded: boolean;
}

/** Every endpoint's state; with `probe`, each is connected (if it is not) and timed. */
export const WorkerEndpoints = declare<{ endpoints: EndpointReport[] }>()("worker.endpoints", optional(obj({ probe: optional(bool()) })));
