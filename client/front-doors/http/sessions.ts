// The HTTP API's sessions: one isolated 1280×800 session of the profile's
// daemon per UUID, whose browser state is saved (sealed by the daemon with
// the vault key) when it closes, by request, when idle or when serve stops,
// and restored when the same UUID is opened again. A failed first navigation
// leaves no state behind; a failed reopen leaves the saved one as it was.
// Opening and closing one id take turns; every call is a session or typed-
// operation call of the library, whose `create` keeps an operation from ever
// making the id a shared session.
import type { BetterWright, CreateSessionOptions } from "../../index.js";
import type { ServeSettings } from "./serve-config.js";
import type { Envelope } from "../../../shared/protocol/envelope.js";
import { BwError, toBwError } from "../../../shared/protocol/errors.js";
import { SERVE_STATE_PREFIX } from "../../../shared/names.js";
import { VIEWPORT } from "./input.js";
import type { PdfIntake } from "./pdf-intake.js";
import { readSpilled } from "../common/spilled.js";
import { isPng, readInside } from "../common/artifact-files.js";
import type { OperationArgs, OperationName, OperationResult } from "../../index.js";
import { viewOf, type RecordStore, type SessionRecord, type SessionView } from "./records.js";

export const STATE_PREFIX = SERVE_STATE_PREFIX;
export const stateNameOf = (id: string): string => `${STATE_PREFIX}${id}`;
const SETTINGS = { viewport: { ...VIEWPORT }, deviceScaleFactor: 1 };
const MAX_SCREENSHOT_BYTES = 10 * 1024 * 1024;

export interface SessionDeps {
  bw: BetterWright;
  store: RecordStore;
  intake: PdfIntake;
  settings: ServeSettings;
  /** The session's folder in the artifact store (spilled results are read from it). */
  artifactDir(session: string): string;
  log: (line: string) => void;
  now?: () => number;
}

export interface OpCall<N extends OperationName = OperationName> {
  name: N;
  args: OperationArgs<N>;
  /** Navigations get the navigation timeout (and a timeout is NAVIGATION_FAILED). */
  navigation?: boolean;
  /** Operations that can start a download (navigations, inputs) have it approved. */
  downloads?: boolean;
}

export class UuidSessions {
  private readonly records = new Map<string, SessionRecord>();
  /** Open sessions: when each was last used, and how it was made. */
  private readonly open = new Map<string, { lastUsed: number; spec: CreateSessionOptions; closing: boolean }>();
  private readonly turns = new Map<string, Promise<unknown>>();
  private opening = 0;
  private readonly now: () => number;

  constructor(private readonly deps: SessionDeps) {
    this.now = deps.now ?? Date.now;
    for (const record of deps.store.loadAll()) this.records.set(record.id, record);
  }

  /**
   * Records a previous serve left open: the daemon may still hold the session (serve was killed),
   * so its state is saved and it is closed now; either way the record says closed.
   */
  async recover(): Promise<void> {
    const stale = [...this.records.values()].filter((r) => r.status === "active");
    if (stale.length === 0) return;
    const live = new Set((await this.deps.bw.sessions().catch(() => [])).map((s) => s.session));
    for (const record of stale) {
      if (live.has(record.id)) await this.saveAndClose(record);
      this.settle(record, "closed");
    }
  }

  list(): SessionView[] {
    return [...this.records.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(viewOf);
  }

  activeIds(): string[] {
    return [...this.open.keys()];
  }

  record(id: string): SessionRecord {
    const record = this.records.get(id);
    if (!record) throw new BwError("NOT_FOUND", `no session ${id}; open it with POST /sessions`);
    return record;
  }

  private openRecord(id: string): SessionRecord {
    const record = this.record(id);
    const state = this.open.get(id);
    if (record.status !== "active" || !state || state.closing) throw new BwError("SESSION_CLOSED", `session ${id} is ${state?.closing ? "closing" : record.status}; open it again with POST /sessions`);
    return record;
  }

  /** One open/close of an id at a time. */
  private turn<T>(id: string, body: () => Promise<T>): Promise<T> {
    const previous = this.turns.get(id) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(body);
    const tail = next.catch(() => {});
    this.turns.set(id, tail);
    void tail.then(() => { if (this.turns.get(id) === tail) this.turns.delete(id); });
    return next;
  }

  private settle(record: SessionRecord, status: SessionRecord["status"]): void {
    record.status = status;
    record.updatedAt = new Date(this.now()).toISOString();
    this.deps.store.save(record);
  }

  /** POST /sessions: opens (or reopens, from its saved state) the session and navigates it; `handoff` lets people drive it from the live view. */
  openSession(id: string, url: string, options: { handoff?: boolean } = {}): Promise<SessionView> {
    return this.turn(id, async () => {
      const record = this.records.get(id) ?? this.deps.store.fresh(id, new Date(this.now()).toISOString());
      if (this.open.has(id)) throw new BwError("SESSION_EXISTS", `session ${id} is open already; POST /sessions/${id}/navigate goes elsewhere`);
      if (this.open.size + this.opening >= this.deps.settings.maxActiveSessions) {
        throw new BwError("SESSION_LIMIT", `${this.deps.settings.maxActiveSessions} sessions are open; close one first`);
      }
      this.opening++;
      try {
        if (!record.saved) await this.assertRoomToSave();
        const spec: CreateSessionOptions = { isolated: true, settings: SETTINGS, ...(record.saved ? { state: stateNameOf(id) } : {}) };
        await this.deps.bw.createSession(id, spec);
        // Downloads that ended while serve was not looking (it stopped mid-transfer): the daemon's history has them.
        const history = (await this.deps.bw.artifacts({ session: id })).sessions[0]?.downloads ?? [];
        this.deps.intake.take(record, history);
        record.handoff = options.handoff === true;
        this.records.set(id, record);
        this.open.set(id, { lastUsed: this.now(), spec, closing: false });
        try {
          await this.run(record, { name: "navigate", args: { url }, navigation: true, downloads: true });
        } catch (error) {
          // Nothing is saved: a first open leaves no state, a reopen keeps the one it had.
          this.open.delete(id);
          await this.deps.bw.closeSession(id).catch(() => false);
          this.settle(record, "error");
          throw error;
        }
        this.settle(record, "active");
        return viewOf(record);
      } finally {
        this.opening--;
      }
    });
  }

  private async assertRoomToSave(): Promise<void> {
    const saved = (await this.deps.bw.states.list()).states.filter((s) => s.name.startsWith(STATE_PREFIX)).length;
    if (saved >= this.deps.settings.maxSavedSessions) {
      throw new BwError("SESSION_LIMIT", `${saved} sessions have saved state, the most this server keeps (${this.deps.settings.maxSavedSessions}); reopen one of them`);
    }
  }

  /** POST /sessions/:id/close: saves the state and closes; a session that is not open is answered as it is. */
  closeSession(id: string): Promise<SessionView> {
    const record = this.record(id);
    return this.turn(id, async () => {
      if (!this.open.has(id)) return viewOf(record);
      await this.saveAndClose(record);
      this.settle(record, "closed");
      return viewOf(record);
    });
  }

  private async saveAndClose(record: SessionRecord): Promise<void> {
    const state = this.open.get(record.id);
    if (state) state.closing = true;
    try {
      await this.deps.bw.states.save(stateNameOf(record.id), { session: record.id });
      record.saved = true;
    } catch (error) {
      this.deps.log(`session ${record.id}: its state was not saved (${toBwError(error).code}); it closes without it`);
    }
    await this.deps.bw.closeSession(record.id).catch(() => false);
    this.open.delete(record.id);
  }

  /** Runs one typed operation in an open session; its page, title and downloads update the record. */
  async run<N extends OperationName>(record: SessionRecord, call: OpCall<N>): Promise<Envelope<OperationResult<N>>> {
    const state = this.open.get(record.id);
    if (!state) throw new BwError("SESSION_CLOSED", `session ${record.id} is not open`);
    state.lastUsed = this.now();
    const timeoutMs = call.navigation ? this.deps.settings.navigationTimeoutSeconds * 1000 : undefined;
    const envelope = await this.deps.bw.op(call.name, call.args, {
      session: record.id,
      create: state.spec,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(call.downloads ? { approveDownloads: true } : {}),
    });
    state.lastUsed = this.now();
    this.absorb(record, envelope);
    if (!envelope.ok) {
      const error = envelope.error!;
      if (call.navigation && error.code === "SNIPPET_TIMEOUT") {
        throw new BwError("NAVIGATION_FAILED", `the page did not load within ${this.deps.settings.navigationTimeoutSeconds} s`);
      }
      throw BwError.from(error);
    }
    // Spilled: the whole result, as the worker made it (its type is the operation's).
    if (envelope.truncated && envelope.fullOutputPath) envelope.result = readSpilled(envelope.fullOutputPath, this.deps.artifactDir(record.id)) as OperationResult<N>;
    return envelope;
  }

  /** Runs an operation in the session `id` names, which must be open. */
  runIn<N extends OperationName>(id: string, call: OpCall<N>): Promise<Envelope<OperationResult<N>>> {
    return this.run(this.openRecord(id), call);
  }

  /** A screenshot of the open session's viewport: the PNG's bytes, read from the artifact store, and the run that took it. */
  async screenshot(id: string): Promise<{ png: Buffer; runId: string }> {
    const envelope = await this.runIn(id, { name: "screenshot", args: { type: "png" } });
    const path = envelope.ok ? envelope.result?.path : undefined;
    if (path === undefined) throw new BwError("INTERNAL_ERROR", "the screenshot operation named no file");
    const read = readInside(path, this.deps.artifactDir(id), MAX_SCREENSHOT_BYTES);
    if (!("bytes" in read) || !isPng(read.bytes)) throw new BwError("INTERNAL_ERROR", "the screenshot file is not a PNG within its cap");
    return { png: read.bytes, runId: envelope.runId };
  }

  private absorb(record: SessionRecord, envelope: Envelope): void {
    const page = envelope.pages.find((p) => p.active) ?? envelope.pages[0];
    let changed = this.deps.intake.take(record, envelope.downloads ?? []);
    if (page && (page.url !== record.url || page.title !== record.title)) {
      record.url = page.url;
      record.title = page.title;
      changed = true;
    }
    if (!changed) return;
    record.updatedAt = new Date(this.now()).toISOString();
    this.deps.store.save(record);
  }

  /** Closes (saving state) every open session unused for the idle time. */
  async sweepIdle(): Promise<void> {
    const limit = this.deps.settings.idleCloseSeconds * 1000;
    for (const [id, state] of [...this.open]) {
      if (state.closing || this.now() - state.lastUsed < limit) continue;
      this.deps.log(`session ${id}: idle for ${this.deps.settings.idleCloseSeconds} s, saved and closed`);
      await this.closeSession(id).catch((error: unknown) => this.deps.log(`session ${id}: idle close failed: ${toBwError(error).message}`));
    }
  }

  /** serve is stopping: every open session is saved and closed. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((id) => this.closeSession(id).catch(() => undefined)));
  }
}
