// The daemon's side of isolated sessions and saved state: it decrypts a saved
// state and hands it to the worker to seed a session's own context, and
// encrypts what the worker hands back when a session's state is saved, or
// autosaved after a run. The vault key never crosses the pipe; the plain
// state is zeroed once used.
import type { StateSettings } from "../../shared/config.js";
import { BwError } from "../../shared/protocol/errors.js";
import { WorkerAutosaveState, WorkerCreateSession, WorkerSaveState, type StateSaveResult } from "../../shared/protocol/methods/index.js";
import { specDifferences, type SessionSpec } from "../../shared/session-settings.js";
import type { StateStore } from "../states/state-store.js";
import type { WorkerProcess } from "../supervisor/process.js";

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

/**
 * Autosaves wait for a short quiet spell after a run, so that a burst of runs costs one save; never
 * longer than AUTOSAVE_MAX_DELAY_MS after the first run not yet saved, so a crash loses at most that.
 */
export const AUTOSAVE_QUIET_MS = 200;
export const AUTOSAVE_MAX_DELAY_MS = 1_000;

/** One session's autosave: due (a timer), or running; `pending`: a run has ended since the last read. */
interface Autosaving {
  worker: WorkerProcess;
  pending: boolean;
  firstPendingAt: number;
  timer: NodeJS.Timeout | undefined;
  running: Promise<void> | undefined;
}

export class SessionContexts {
  private readonly autosaving = new Map<string, Autosaving>();
  /**
   * Set once this host holds the profile lock. Without it (an in-process run on an ephemeral profile
   * beside the profile's daemon) autosaves are neither written, read nor removed: they are the daemon's.
   */
  private owned = false;

  constructor(
    private readonly states: StateStore,
    private readonly caps: StateSettings,
    private readonly log: (line: string) => void = () => {},
  ) {}

  /**
   * Makes an isolated session's context on `worker`. `fresh`: a new session, which starts from the saved
   * state it names (any autosave a session of that name left is dropped); a context made again (on a new
   * worker, or by a daemon that took over from a killed one) starts from the storage last autosaved, or
   * from that saved state if nothing was. Resolves with the remote endpoint it was placed on, if any.
   */
  async open(worker: WorkerProcess, session: string, spec: SessionSpec, fresh: boolean): Promise<string | undefined> {
    if (fresh && this.owned) await this.states.removeAutosave(session);
    const autosaved = fresh || !this.owned ? undefined : await this.states.loadAutosave(session).catch((error: Error) => {
      this.log(`session ${session}'s autosaved storage is not used: ${error.message}`);
      return undefined;
    });
    const plain = autosaved ?? (spec.state !== undefined ? await this.states.load(spec.state) : undefined);
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

  /**
   * After a run of an isolated session: its storage, if it changed, sealed beside the saved states, so a
   * crash loses at most the changes of the last second. Off the run's path: the caller does not wait.
   */
  autosave(worker: WorkerProcess, session: string): void {
    if (!this.owned) return;
    let entry = this.autosaving.get(session);
    if (!entry) {
      entry = { worker, pending: false, firstPendingAt: Date.now(), timer: undefined, running: undefined };
      this.autosaving.set(session, entry);
    }
    if (!entry.pending) entry.firstPendingAt = Date.now();
    entry.worker = worker;
    entry.pending = true;
    // One running reads again when it is done.
    if (entry.running) return;
    clearTimeout(entry.timer);
    const delay = Math.min(AUTOSAVE_QUIET_MS, entry.firstPendingAt + AUTOSAVE_MAX_DELAY_MS - Date.now());
    const due = entry;
    entry.timer = setTimeout(() => this.flush(session, due), Math.max(0, delay));
    entry.timer.unref();
  }

  private flush(session: string, entry: Autosaving): void {
    entry.timer = undefined;
    entry.running = (async () => {
      while (entry.pending) {
        entry.pending = false;
        await this.autosaveOnce(entry.worker, session, entry).catch((error: Error) => this.log(`session ${session}'s storage was not autosaved: ${error.message}`));
      }
      entry.running = undefined;
      if (this.autosaving.get(session) === entry) this.autosaving.delete(session);
    })();
  }

  private async autosaveOnce(worker: WorkerProcess, session: string, entry: Autosaving): Promise<void> {
    if (!worker.alive) return;
    const saved = await worker.call(WorkerAutosaveState, { session, maxBytes: this.caps.maxStateBytes }, SAVE_TIMEOUT_MS);
    if ("unchanged" in saved) return;
    const plain = Buffer.from(saved.state, "base64");
    try {
      // Closed meanwhile: nothing of it may outlive the session.
      if (this.autosaving.get(session) !== entry) return;
      await this.states.saveAutosave(session, plain);
    } finally {
      plain.fill(0);
    }
  }

  /** This host holds the profile lock: the profile's autosaves are its own. */
  claim(): void {
    this.owned = true;
  }

  /** The session closed normally: its autosave goes, once any being written has landed. */
  async forget(session: string): Promise<void> {
    if (!this.owned) return;
    const entry = this.autosaving.get(session);
    this.autosaving.delete(session);
    if (entry) await this.settle(entry);
    await this.states.removeAutosave(session).catch(() => {});
  }

  /** No more saves of `entry`; resolves once the one being written, if any, has landed. */
  private async settle(entry: Autosaving): Promise<void> {
    clearTimeout(entry.timer);
    entry.pending = false;
    await entry.running;
  }

  /** A clean stop: no session lives on, so no autosave is kept. */
  async forgetAll(): Promise<void> {
    if (!this.owned) return;
    const entries = [...this.autosaving.values()];
    this.autosaving.clear();
    await Promise.all(entries.map((entry) => this.settle(entry)));
    await this.states.removeAutosaves().catch(() => {});
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
