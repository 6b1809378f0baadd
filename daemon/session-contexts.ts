// The daemon's side of isolated sessions and saved state: it decrypts a saved
// state and hands it to the worker to seed a session's own context, and
// encrypts what the worker hands back when a session's state is saved. The
// vault key never crosses the pipe; the plain state is zeroed once used.
import type { StateSettings } from "../shared/config.js";
import { BwError } from "../shared/errors.js";
import { WorkerCreateSession, WorkerSaveState, type StateSaveResult } from "../shared/protocol/index.js";
import { specDifferences, type SessionSpec } from "../shared/session-settings.js";
import type { StateStore } from "./states/state-store.js";
import type { WorkerProcess } from "./worker-host/process.js";

/** A context is made in the profile's browser, which this call may have to launch first. */
const CREATE_TIMEOUT_MS = 90_000;
const SAVE_TIMEOUT_MS = 30_000;

/** SESSION_EXISTS unless `want` is how the session was made. */
export function assertSameSpec(session: string, have: SessionSpec, want: SessionSpec): void {
  const diffs = specDifferences(have, want);
  if (diffs.length === 0) return;
  throw new BwError("SESSION_EXISTS", `session ${session} already exists with other settings: ${diffs.join("; ")}. Close it first (betterwright close --session ${session}) or call with its settings`, {
    details: { differences: diffs },
  });
}

export class SessionContexts {
  constructor(private readonly states: StateStore, private readonly caps: StateSettings) {}

  /**
   * Makes an isolated session's context on `worker`. `seed`: its first context, which starts from the
   * saved state it names; a context made again (on a new worker) has its settings and empty storage.
   * Resolves with the remote endpoint it was placed on, if any.
   */
  async open(worker: WorkerProcess, session: string, spec: SessionSpec, seed: boolean): Promise<string | undefined> {
    const plain = seed && spec.state !== undefined ? await this.states.load(spec.state) : undefined;
    try {
      const made = await worker.call(WorkerCreateSession, {
        session,
        settings: spec.settings,
        ...(plain ? { state: plain.toString("base64") } : {}),
      }, CREATE_TIMEOUT_MS);
      return made.placement;
    } finally {
      plain?.fill(0);
    }
  }

  /** The session's cookies, local storage and IndexedDB, sealed as `name`. */
  async save(worker: WorkerProcess, session: string, name: string): Promise<StateSaveResult> {
    const saved = await worker.call(WorkerSaveState, { session, maxBytes: this.caps.maxStateBytes }, SAVE_TIMEOUT_MS);
    const plain = Buffer.from(saved.state, "base64");
    try {
      const info = await this.states.save(name, plain);
      return { ...info, session, cookies: saved.cookies, origins: saved.origins };
    } finally {
      plain.fill(0);
    }
  }
}
