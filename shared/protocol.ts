// Every RPC method, declared once: its name, a validator for its params and
// its result type. The daemon's socket, the daemon→worker pipe and the
// worker→daemon pipe each get their own registry built from these.
import type { DaemonSettings } from "./config.js";
import type { Envelope, WorkerOutcome } from "./envelope.js";
import { BwError } from "./errors.js";
import { nameProblem } from "./names.js";
import { anyObject, bool, custom, num, obj, optional, str, type Validator } from "./validate.js";

export interface MethodDecl<P, R> {
  readonly name: string;
  readonly params: Validator<P>;
  /** Phantom: carries the result type for typed calls. */
  readonly result?: R;
}

function declare<R>() {
  return <P>(name: string, params: Validator<P>): MethodDecl<P, R> => ({ name, params });
}

export const MAX_CODE_CHARS = 1_000_000;
export const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;

const name = (kind: "session" | "profile") =>
  custom((value, path) => {
    const problem = nameProblem(value, kind);
    if (problem !== undefined) throw new BwError("INVALID_ARGUMENT", `${path}: ${problem}`);
    return value as string;
  });
const runId = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
const timeoutMs = num({ min: 1, max: MAX_TIMEOUT_MS, integer: true });

export interface SessionSummary {
  session: string;
  idleMs: number;
  inFlight: number;
  queued: number;
  createdAt: string;
}

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

export interface StatusResult extends DaemonIdentity {
  uptimeMs: number;
  sessions: SessionSummary[];
  browser: { running: boolean; pid?: number | undefined };
}

// ---- client → daemon -------------------------------------------------------

export const Hello = declare<HelloResult>()("daemon.hello", obj({
  clientVersion: str({ max: 64 }),
  protocol: num({ integer: true }),
  settings: anyObject(),
  /** Looking only (sessions, status): never replaces the daemon. */
  inspect: optional(bool()),
}));
export const Status = declare<StatusResult>()("daemon.status", optional(obj({})));
export const Shutdown = declare<{ ok: true }>()("daemon.shutdown", optional(obj({})));

export const SessionExec = declare<Envelope>()("session.exec", obj({
  session: name("session"),
  code: str({ max: MAX_CODE_CHARS }),
  timeoutMs: optional(timeoutMs),
  runId: optional(runId),
}));
export const SessionList = declare<{ sessions: SessionSummary[] }>()("session.list", optional(obj({})));
export const SessionClose = declare<{ closed: boolean }>()("session.close", obj({ session: name("session") }));

// ---- daemon → worker -------------------------------------------------------

export interface WorkerInit {
  browser: string | null;
  headless: boolean;
  profileDir: string;
  browserEnvDir: string;
  artifactsDir: string;
}

export const WorkerInitialize = declare<{ ok: true }>()("worker.init", obj({
  browser: custom((v, p) => (v === null ? null : str()(v, p))),
  headless: bool(),
  profileDir: str(),
  browserEnvDir: str(),
  artifactsDir: str(),
}));
export const WorkerExec = declare<WorkerOutcome>()("worker.exec", obj({
  session: name("session"),
  code: str({ max: MAX_CODE_CHARS }),
  runId,
  budgetMs: timeoutMs,
}));
export const WorkerCloseSession = declare<{ closed: boolean }>()("worker.closeSession", obj({ session: name("session") }));
export const WorkerPing = declare<{ now: number; browser: { running: boolean; pid?: number } }>()("worker.ping", optional(obj({})));
export const WorkerShutdown = declare<{ ok: true }>()("worker.shutdown", optional(obj({})));

export type AnyMethod = MethodDecl<any, any>;
export type ParamsOf<M> = M extends MethodDecl<infer P, unknown> ? P : never;
export type ResultOf<M> = M extends MethodDecl<unknown, infer R> ? R : never;
