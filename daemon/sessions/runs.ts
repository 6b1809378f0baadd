// Every exec's runId, so a client whose connection dropped can reattach and
// get the same envelope (kept RESULT_TTL_MS after it finished), and so a run
// can be cancelled while queued or running.
import { BwError } from "../../shared/protocol/errors.js";
import type { Envelope } from "../../shared/protocol/envelope.js";

export const RESULT_TTL_MS = 60_000;

interface RunEntry {
  session: string;
  result: Promise<Envelope>;
  state: "queued" | "running" | "done";
  cancelRequested: boolean;
  finishedAt?: number;
}

export class RunTable {
  private readonly runs = new Map<string, RunEntry>();

  constructor(private readonly now: () => number = Date.now) {}

  add(runId: string, session: string, start: (entry: { started(): void; cancelRequested(): boolean }) => Promise<Envelope>): Promise<Envelope> {
    if (this.runs.has(runId)) throw new BwError("INVALID_ARGUMENT", `run ${runId} already exists; use run.attach to follow it`);
    const entry: RunEntry = { session, result: undefined as unknown as Promise<Envelope>, state: "queued", cancelRequested: false };
    this.runs.set(runId, entry);
    entry.result = start({
      started: () => { entry.state = "running"; },
      cancelRequested: () => entry.cancelRequested,
    }).finally(() => {
      entry.state = "done";
      entry.finishedAt = this.now();
    });
    return entry.result;
  }

  attach(runId: string): Promise<Envelope> {
    const entry = this.runs.get(runId);
    if (!entry) throw new BwError("RUN_NOT_FOUND", `no run ${runId} (finished runs are kept ${RESULT_TTL_MS / 1000} s)`);
    return entry.result;
  }

  /** Marks the run cancelled; returns its session and state so the caller can stop a running one. */
  requestCancel(runId: string): { session: string; state: RunEntry["state"] } {
    const entry = this.runs.get(runId);
    if (!entry) throw new BwError("RUN_NOT_FOUND", `no run ${runId}`);
    if (entry.state !== "done") entry.cancelRequested = true;
    return { session: entry.session, state: entry.state };
  }

  prune(): void {
    const cutoff = this.now() - RESULT_TTL_MS;
    for (const [runId, entry] of this.runs) {
      if (entry.finishedAt !== undefined && entry.finishedAt < cutoff) this.runs.delete(runId);
    }
  }
}
