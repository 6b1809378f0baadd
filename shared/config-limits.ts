// The bounds one daemon keeps (docs/lifecycle.md#limits): sessions and queued
// runs in the daemon, and what one session may send into the shared browser
// through the worker's main thread. Past any of them the call gets LIMIT_EXCEEDED.

const MiB = 1024 * 1024;

export interface LimitSettings {
  /** Sessions of one daemon (one profile) at a time. */
  maxSessions: number;
  /** Runs waiting in one session's queue behind the one running. */
  maxQueuedExecs: number;
  /** One page call's arguments, as characters of their JSON. */
  maxCallArgBytes: number;
  /** One page call's result, as characters of its JSON. */
  maxCallResultBytes: number;
  /** The arguments of one session's page calls in flight (waiting or running) together. */
  maxSessionBytesInFlight: number;
  /** One session's page calls in flight (waiting or running). */
  maxSessionCallsInFlight: number;
}

// 64 sessions: each may hold up to 32 pages of one shared browser; more than
// that is a leak (a loop creating sessions) long before it is a workload.
// 100 queued runs: a session runs one at a time, 30 s each by default, so the
// hundredth waits close to an hour; a deeper queue is a runaway caller.
// 16 MiB a call and 64 MiB a session in flight: a large setContent or fill
// fits, while thirty 100 MB evaluate() arguments, which take Chromium down for
// every session, never leave the worker. 1,000 calls in flight: a snippet that
// fans out over every link of a page fits; 20,000 title() calls at once do not.
export const LIMIT_DEFAULTS: LimitSettings = {
  maxSessions: 64,
  maxQueuedExecs: 100,
  maxCallArgBytes: 16 * MiB,
  maxCallResultBytes: 16 * MiB,
  maxSessionBytesInFlight: 64 * MiB,
  maxSessionCallsInFlight: 1_000,
};

/** config.json key and environment variable of each limit. */
export const LIMIT_SOURCES: Record<keyof LimitSettings, { key: string; env: string }> = {
  maxSessions: { key: "maxSessions", env: "BETTERWRIGHT_MAX_SESSIONS" },
  maxQueuedExecs: { key: "maxQueuedExecs", env: "BETTERWRIGHT_MAX_QUEUED_EXECS" },
  maxCallArgBytes: { key: "maxCallArgBytes", env: "BETTERWRIGHT_MAX_CALL_ARG_BYTES" },
  maxCallResultBytes: { key: "maxCallResultBytes", env: "BETTERWRIGHT_MAX_CALL_RESULT_BYTES" },
  maxSessionBytesInFlight: { key: "maxSessionBytesInFlight", env: "BETTERWRIGHT_MAX_SESSION_BYTES_IN_FLIGHT" },
  maxSessionCallsInFlight: { key: "maxSessionCallsInFlight", env: "BETTERWRIGHT_MAX_SESSION_CALLS_IN_FLIGHT" },
};

/** Where a limit is raised: its config.json key and its environment variable. */
export function raiseHint(limit: keyof LimitSettings): string {
  const { key, env } = LIMIT_SOURCES[limit];
  return `${key} (config.json) or ${env}`;
}

/** The limits the worker keeps on its main thread (it gets these, not the daemon's own). */
export type LaneLimits = Pick<LimitSettings, "maxCallArgBytes" | "maxCallResultBytes" | "maxSessionBytesInFlight" | "maxSessionCallsInFlight">;

export function laneLimitsOf(limits: LimitSettings): LaneLimits {
  const { maxCallArgBytes, maxCallResultBytes, maxSessionBytesInFlight, maxSessionCallsInFlight } = limits;
  return { maxCallArgBytes, maxCallResultBytes, maxSessionBytesInFlight, maxSessionCallsInFlight };
}
