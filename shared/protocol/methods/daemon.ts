// client → daemon: greeting, status, shutdown.
import type { ContainmentStatus } from "../../containment.js";
import type { DaemonSettings } from "../../config.js";
import { anyObject, bool, num, obj, optional, str } from "../validate.js";
import { declare } from "./declare.js";
import type { SessionSummary } from "./session.js";
import type { EndpointReport } from "./remote.js";

export interface DaemonIdentity {
  pid: number;
  version: string;
  protocol: number;
  profile: string;
  home: string;
  socket: string;
  startedAt: string;
  settings: DaemonSettings;
}

export type HelloResult =
  | { status: "ok"; daemon: DaemonIdentity }
  /** The daemon was idle and differs from the caller: it is exiting; start a new one. */
  | { status: "replacing"; daemon: DaemonIdentity; reason: string };

export interface GuardCounts {
  /** Policy questions since the daemon started: the routing layer's guard.check (answers it caches are not asked again) and the proxy's, one per host and resolved address of each connection. */
  checks: number;
  denied: number;
  /** Connections the worker's proxy asked the daemon to make (guard.connect). */
  connects: number;
}

export interface StatusResult extends DaemonIdentity {
  uptimeMs: number;
  sessions: SessionSummary[];
  browser: { running: boolean; pid?: number | undefined };
  guard: GuardCounts;
  /** Whether the worker runs contained, and if not why not (absent from daemons older than containment). */
  containment?: ContainmentStatus;
  /** Remote browser endpoints (docs/remote-browsers.md), when the profile has any. */
  endpoints?: EndpointReport[];
}

export const Hello = declare<HelloResult>()("daemon.hello", obj({
  clientVersion: str({ max: 64 }),
  protocol: num({ integer: true }),
  settings: anyObject(),
  /** Looking only (sessions, status): never replaces the daemon. */
  inspect: optional(bool()),
  /** This connection may drive betterwright serve's sessions and load its states (serve itself, or a library client that opted in). */
  serveNames: optional(bool()),
}));
/** `probeEndpoints`: start the worker if need be, connect every remote endpoint and time one round trip (doctor). */
export const Status = declare<StatusResult>()("daemon.status", optional(obj({ probeEndpoints: optional(bool()) })));
export const Shutdown = declare<{ ok: true }>()("daemon.shutdown", optional(obj({})));
