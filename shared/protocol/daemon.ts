// client → daemon: greeting, status, shutdown.
import type { DaemonSettings } from "../config.js";
import { anyObject, bool, num, obj, optional, str } from "../validate.js";
import { declare } from "./declare.js";
import type { SessionSummary } from "./session.js";

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
  /** guard.check questions the worker's guard asked since the daemon started (answers it caches are not asked again). */
  checks: number;
  denied: number;
}

export interface StatusResult extends DaemonIdentity {
  uptimeMs: number;
  sessions: SessionSummary[];
  browser: { running: boolean; pid?: number | undefined };
  guard: GuardCounts;
}

export const Hello = declare<HelloResult>()("daemon.hello", obj({
  clientVersion: str({ max: 64 }),
  protocol: num({ integer: true }),
  settings: anyObject(),
  /** Looking only (sessions, status): never replaces the daemon. */
  inspect: optional(bool()),
}));
export const Status = declare<StatusResult>()("daemon.status", optional(obj({})));
export const Shutdown = declare<{ ok: true }>()("daemon.shutdown", optional(obj({})));
