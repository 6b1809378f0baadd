// One session as the daemon keeps it: its FIFO queue (strictly in order),
// its transcript and sequence numbers, and what it knows of its pages (the
// worker generation it last ran on, a reset it has yet to be told of).
import { closingError, type CloseReason } from "../../shared/protocol/close-reason.js";
import type { BwError } from "../../shared/protocol/errors.js";
import { transcriptPath, type HomeLayout } from "../../shared/paths.js";
import type { SessionSpec } from "../../shared/session-settings.js";
import { Transcript } from "./transcript.js";

export class DaemonSession {
  readonly createdAt: number;
  lastUsedAt: number;
  inFlight = 0;
  queued = 0;
  /** Why it was closed, once it was: a run still waiting in the queue stops waiting and never starts. */
  private closedBy: CloseReason | undefined;
  private markClosed!: () => void;
  private readonly closing = new Promise<void>((resolve) => (this.markClosed = resolve));
  private tail: Promise<unknown> = Promise.resolve();
  private seq: number | undefined;
  /** The worker generation this session last ran on; a newer worker means its pages are gone. */
  workerGeneration: number | undefined;
  /** Why its pages were lost before this daemon knew it (a killed daemon), until its next run says so. */
  resetPending: string | undefined;
  /** On remote browsers: the endpoint it lives on, as the worker last said. */
  placement: string | undefined;
  readonly transcript: Transcript;

  constructor(readonly name: string, layout: HomeLayout, now: number, readonly spec: SessionSpec) {
    this.createdAt = now;
    this.lastUsedAt = now;
    this.transcript = new Transcript(transcriptPath(layout, name));
  }

  nextSeq(): number {
    this.seq = (this.seq ?? this.transcript.lastSeq()) + 1;
    return this.seq;
  }

  get closed(): boolean {
    return this.closedBy !== undefined;
  }

  /** Idempotent: the first reason stands. */
  close(reason: CloseReason): void {
    this.closedBy ??= reason;
    this.markClosed();
    // Runs still in its queue end with SESSION_CLOSING and write no line; one that does opens the file again.
    this.transcript.close();
  }

  /** What a run ended by the close fails with: the reason it was closed for. */
  closingError(): BwError {
    return closingError(this.closedBy ?? { code: "INTERNAL_ERROR", message: `session ${this.name} is not closed` });
  }

  /** Runs `task` after every earlier task of this session has finished, or at once when the session closes. */
  enqueue<T>(task: () => Promise<T>): Promise<T> {
    this.queued++;
    const result = Promise.race([this.tail, this.closing]).then(() => {
      this.queued--;
      this.inFlight++;
      return task().finally(() => this.inFlight--);
    });
    this.tail = result.catch(() => {});
    return result;
  }
}
