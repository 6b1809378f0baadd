// What a typed operation's handler gets from its session: the run's budget
// and records (the same RunHandle snippet services get), the session's
// pages, the per-page state that outlives runs (snapshots, observation), the
// network guard's wrapper, and the session's snippet services by name.
import type { DownloadOutcome, TextContext } from "../../../shared/protocol/envelope.js";
import type { SnippetRun } from "../../../shared/protocol/methods/run.js";
import type { PageRegistry } from "../page-registry.js";
import type { RunHandle, ScopeFunction } from "../facades/scope-functions.js";
import type { SessionPageState } from "./page-state.js";

export interface OperationSession {
  readonly run: RunHandle;
  readonly pages: PageRegistry;
  readonly state: SessionPageState;
  /** Runs a browser call; a failure the network guard caused comes back as BLOCKED_URL. */
  guard<T>(action: () => Promise<T>): Promise<T>;
  /** A snippet service (screenshot, credentials.fill…), reused by the operation of the same purpose. */
  scope(name: string): ScopeFunction | undefined;
  /** File arguments must be files of the session's artifact folder: rewritten to their real paths, or refused. */
  fileArgs(target: string, method: string, args: unknown[]): unknown[];
  /** The session's download history (the artifact store's), oldest first; none without a store. */
  downloadHistory(): DownloadOutcome[];
  /** How long a target that matches nothing, or that another element covers, is waited for before the operation fails. */
  readonly elementWaitMs: number;
  /**
   * Runs a read that tells `pageId`'s title (`titleOf` picks it out): an operation that only reads hands it to
   * the envelope, which then need not read the title again (../page-titles.ts).
   */
  readTitle<T>(pageId: string, read: () => Promise<T>, titleOf: (value: T) => unknown): Promise<T>;
}

export interface OperationCall extends OperationSession {
  /** An argument (dotted path) went into a password field: the transcript shows it redacted. */
  secretArg(path: string): void;
  /** The result's `text` was cut out of a longer text: what surrounds it, for the daemon's redaction. */
  textCut(context: TextContext): void;
  /** Released when the operation ends (element handles). */
  defer(release: () => Promise<unknown>): void;
}

/**
 * How the session starts an operation in its lane: the result, or a thrown (Bw)Error. One that `readsOnly`
 * changes no page, so a title it read still stands for the envelope.
 */
export type OpStart = ((context: OperationSession) => Promise<unknown>) & { readonly label?: string; readonly readsOnly?: boolean };

/** What a session runs in its lane: a snippet (in its realm), or a typed operation ready to start (trusted code, no realm). */
export type SessionRun = SnippetRun | { kind: "operation"; start: OpStart };

/** The run an operation ends: the browser calls it has in flight, and its outcome. */
export interface OpRun {
  inflight: Map<Promise<unknown>, string>;
  done(outcome: { ok: boolean; value?: unknown; error?: { name: string; message: string; code?: string; details?: unknown } }): void;
}
