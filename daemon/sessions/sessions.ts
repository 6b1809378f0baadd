// Sessions of one profile: each a FIFO lane (strictly in order within a
// session, concurrent across sessions), one absolute budget per exec counted
// from acceptance, and a transcript line written before the caller hears back.
import { randomUUID } from "node:crypto";
import { raiseHint, type LimitSettings } from "../../shared/config-limits.js";
import { closeReasons, type CloseReason } from "../../shared/protocol/close-reason.js";
import { BwError, toBwError } from "../../shared/protocol/errors.js";
import { describeFsError } from "../../shared/fs-problem.js";
import { envelopeOf, type Envelope, type WorkerOutcome } from "../../shared/protocol/envelope.js";
import type { HomeLayout } from "../../shared/paths.js";
import { WorkerCancel, WorkerCloseSession, WorkerRun, type RunRequest, type SessionSummary } from "../../shared/protocol/methods/index.js";
import { opTranscriptText } from "./op-transcript.js";
import type { StateSaveResult } from "../../shared/protocol/methods/index.js";
import { SHARED_SPEC, type SessionSpec } from "../../shared/session-settings.js";
import { RunTable } from "./runs.js";
import { assertSameSpec, type SessionContexts } from "./session-contexts.js";
import { preview, type TranscriptEntry } from "./transcript.js";
import { DaemonSession } from "./daemon-session.js";
import { holderGoneReason, type SessionRecord, type SessionRecords } from "./session-records.js";
import type { LockHolder } from "../profile-lock.js";
import type { WorkerSupervisor } from "../supervisor/supervisor.js";

/** Extra time the daemon gives the worker past a run's budget before it stops waiting. */
const WORKER_REPLY_GRACE_MS = 5000;

/** A run as its transcript keeps it: a snippet's code and the JSON `args` it was given, an operation's name and arguments (redacted like the rest). */
function transcriptText(run: RunRequest, secretArgs: readonly string[] | undefined): string {
  if (run.kind === "operation") return opTranscriptText(run, secretArgs);
  return run.args === undefined ? run.code : `${run.code}\n// args: ${JSON.stringify(run.args)}`;
}

export interface ExecRequest {
  session: string;
  /** A snippet or a typed operation: same lane, budget and transcript. */
  run: RunRequest;
  timeoutMs: number;
  runId?: string | undefined;
  /** Downloads started by this session's pages during the run are accepted (exec --approve-downloads). */
  approveDownloads?: boolean | undefined;
  /** How the session is made if this run creates it (exec --isolated …); an existing one must match. */
  create?: SessionSpec | undefined;
  /** The budget counts from when the run starts, not from acceptance (runs queued ahead by repl). */
  budgetFromStart?: boolean | undefined;
}

/** Applied to every envelope before it is recorded and returned (artifacts: spill, pins). */
export type EnvelopeFinisher = (envelope: Envelope, outcome: WorkerOutcome) => Promise<Envelope>;

/** The first thing a run's output meets (vault redaction): it returns what may be sent and recorded. */
export type OutputFilter = (outcome: WorkerOutcome, snippet: string) => { outcome: WorkerOutcome; snippet: string };

/** An outcome for a run that never reached the worker. */
function failed(error: BwError): WorkerOutcome {
  return { ok: false, error: error.toJSON(), console: [], pages: [], artifacts: [], warnings: [] };
}

export interface SessionRegistryOptions {
  layout: HomeLayout;
  worker: WorkerSupervisor;
  now: () => number;
  /** Applied to every envelope before it is returned (spill, pins, the containment warning). */
  finishEnvelope: EnvelopeFinisher;
  /** The vault's redaction of outcomes and transcript text. */
  filterOutput: OutputFilter;
  limits: LimitSettings;
  /** Isolated sessions' contexts and saved states. */
  contexts: SessionContexts;
  /** Which sessions this host holds, for a daemon that takes over after a crash. */
  records: SessionRecords;
}

export class SessionRegistry {
  private readonly sessions = new Map<string, DaemonSession>();
  private readonly runs: RunTable;

  private readonly layout: HomeLayout;
  private readonly worker: WorkerSupervisor;
  private readonly now: () => number;
  private readonly finishEnvelope: EnvelopeFinisher;
  private readonly filterOutput: OutputFilter;
  private readonly limits: LimitSettings;
  private readonly contexts: SessionContexts;
  /** The file that tells a daemon taking over after a crash which sessions lost their pages. */
  private readonly records: SessionRecords;

  /** Every option is required: a registry without its envelope finisher or redaction would pass on what it must not, fail open. */
  constructor(options: SessionRegistryOptions) {
    this.layout = options.layout;
    this.worker = options.worker;
    this.now = options.now;
    this.finishEnvelope = options.finishEnvelope;
    this.filterOutput = options.filterOutput;
    this.limits = options.limits;
    this.contexts = options.contexts;
    this.records = options.records;
    this.runs = new RunTable(this.now);
  }

  get size(): number {
    return this.sessions.size;
  }

  get busy(): boolean {
    for (const s of this.sessions.values()) if (s.inFlight + s.queued > 0) return true;
    return false;
  }

  private session(name: string, spec: SessionSpec = SHARED_SPEC): DaemonSession {
    let session = this.sessions.get(name);
    if (!session) {
      session = new DaemonSession(name, this.layout, this.now(), spec);
      this.sessions.set(name, session);
      this.recordSessions();
    }
    return session;
  }

  private recordSessions(): void {
    this.records.write([...this.sessions.values()].map((s) => ({ session: s.name, spec: s.spec })));
  }

  /**
   * This host holds the profile lock (taken over from `from`, if its holder had died): the session records
   * and autosaves are its own, and the sessions a holder that did not stop cleanly left come back.
   */
  claimProfile(lockPath: string, from: LockHolder | undefined, log: (line: string) => void): void {
    if (from) log(`took over the profile lock of pid ${from.pid}, which had stopped without releasing it`);
    this.contexts.claim();
    const left = this.records.claim(lockPath);
    if (left.length === 0) return;
    log(`sessions that lost their pages with it: ${left.map((r) => r.session).join(", ")}`);
    this.restore(left, holderGoneReason(this.layout.profile, from));
  }

  /**
   * The sessions of a holder of the profile that did not stop cleanly: back as they were made (within the
   * session limit), each told on its next run, with `why`, that its pages were lost.
   */
  restore(records: SessionRecord[], why: string): void {
    for (const { session: name, spec } of records) {
      if (this.sessions.has(name) || this.sessions.size >= this.limits.maxSessions) continue;
      this.session(name, spec).resetPending = why;
    }
  }

  /**
   * The session for a new run, made if needed (as `spec`, else shared); refused (LIMIT_EXCEEDED) past the
   * daemon's session or queue limit, and (SESSION_EXISTS) when it exists made otherwise than `spec`.
   */
  private admit(name: string, spec?: SessionSpec): DaemonSession {
    const { maxSessions, maxQueuedExecs } = this.limits;
    const existing = this.sessions.get(name);
    if (existing === undefined && this.sessions.size >= maxSessions) {
      throw new BwError("LIMIT_EXCEEDED", `this daemon already holds ${this.sessions.size} sessions, its limit (maxSessions); close one (betterwright close --session NAME) or raise ${raiseHint("maxSessions")}`, {
        details: { limit: "maxSessions", value: maxSessions },
      });
    }
    if (existing !== undefined && existing.queued >= maxQueuedExecs) {
      throw new BwError("LIMIT_EXCEEDED", `session ${name} already has ${existing.queued} runs waiting, its limit (maxQueuedExecs); wait for them or raise ${raiseHint("maxQueuedExecs")}`, {
        retryable: true,
        details: { limit: "maxQueuedExecs", value: maxQueuedExecs },
      });
    }
    if (existing !== undefined && spec !== undefined) assertSameSpec(name, existing.spec, spec);
    return existing ?? this.session(name, spec);
  }

  /** session.create: true when made now (an isolated one with its context ready); false for one made the same way before. */
  async create(name: string, spec: SessionSpec): Promise<boolean> {
    const existed = this.sessions.has(name);
    const session = this.admit(name, spec);
    if (existed) return false;
    if (!spec.isolated) return true;
    try {
      await session.enqueue(async () => {
        const worker = await this.worker.ensure();
        if (session.closed) throw session.closingError();
        const generation = this.worker.generation;
        session.placement = await this.contexts.open(worker, name, spec, true);
        session.workerGeneration = generation;
      });
    } catch (error) {
      // A session that could not be made (a missing state, a setting Chromium refused) is not left behind.
      if (this.sessions.get(name) === session) await this.close(name, closeReasons.notMade(name));
      throw error;
    }
    return true;
  }

  /** state.save: in the session's queue, after the runs before it. */
  saveState(name: string, stateName: string): Promise<StateSaveResult> {
    const session = this.sessions.get(name);
    if (!session) return Promise.reject(new BwError("SESSION_NOT_FOUND", `no session ${name} in profile ${this.layout.profile}`));
    return session.enqueue(async () => {
      if (session.closed) throw session.closingError();
      const worker = await this.worker.ensure();
      if (session.spec.isolated && session.workerGeneration !== this.worker.generation) {
        throw new BwError("SESSION_RESET", `session ${name}'s context was lost with a worker restart; nothing was saved`);
      }
      return this.contexts.save(worker, name, stateName);
    });
  }

  async exec(request: ExecRequest): Promise<Envelope> {
    // A run that creates its session waits for it to be made; a session that cannot be made fails the call.
    if (request.create !== undefined && !this.sessions.has(request.session)) await this.create(request.session, request.create);
    const acceptedAt = this.now();
    const runId = request.runId ?? randomUUID();
    const session = this.admit(request.session, request.create);
    session.lastUsedAt = acceptedAt;
    return this.runs.add(runId, request.session, (run) => session.enqueue(async () => {
      run.started();
      const deadline = (request.budgetFromStart ? this.now() : acceptedAt) + request.timeoutMs;
      const raw = run.cancelRequested()
        ? failed(new BwError("CANCELLED", "the run was cancelled before it started"))
        : session.closed ? failed(session.closingError()) : await this.runOnWorker(session, request, runId, deadline);
      const { outcome, snippet } = this.filterOutput(raw, transcriptText(request.run, raw.secretArgs));
      const envelope: Envelope = await this.finishEnvelope(envelopeOf(outcome, {
        session: request.session,
        profile: this.layout.profile,
        runId,
        seq: session.nextSeq(),
        durationMs: this.now() - acceptedAt,
        console: outcome.console,
        pages: outcome.pages,
        artifacts: outcome.artifacts,
        warnings: outcome.warnings,
        ...(outcome.blocked?.length ? { blocked: outcome.blocked } : {}),
        // Cut short in the worker (too large to cross): only the preview came.
        ...(outcome.truncated ? { truncated: true, preview: outcome.preview ?? "" } : {}),
      }), outcome);
      session.lastUsedAt = this.now();
      this.record(session, envelope, {
        seq: envelope.seq,
        runId,
        at: new Date(acceptedAt).toISOString(),
        durationMs: envelope.durationMs,
        snippet,
        ...(request.run.kind === "operation" ? { op: request.run.name } : {}),
        ok: envelope.ok,
        ...(envelope.ok ? { result: preview(envelope.truncated ? envelope.preview : envelope.result) } : { error: { code: envelope.error.code, message: envelope.error.message } }),
        artifacts: envelope.artifacts.map((a) => a.path),
        pages: envelope.pages.map((p) => p.url),
      });
      return envelope;
    }));
  }

  /** A transcript the disk refuses (full, read-only) costs the line, not the run's result: the caller is told. */
  private record(session: DaemonSession, envelope: Envelope, entry: TranscriptEntry): void {
    try {
      session.transcript.append(entry);
      // The last run of a session closed meanwhile: its file is not held for nothing.
      if (session.closed) session.transcript.close();
    } catch (error) {
      envelope.warnings = [...envelope.warnings, { code: "TRANSCRIPT_NOT_SAVED", message: `this run is missing from the transcript: ${describeFsError(error, "append to", session.transcript.file)}` }];
    }
  }

  attach(runId: string): Promise<Envelope> {
    return this.runs.attach(runId);
  }

  /** Cancels a queued run before it starts, or a running one through the worker. */
  async cancel(runId: string): Promise<boolean> {
    const { session, state } = this.runs.requestCancel(runId);
    if (state === "running") await this.worker.current()?.call(WorkerCancel, { session, runId }).catch(() => {});
    return state !== "done";
  }

  /** Forgets results older than the attach window. */
  pruneRuns(): void {
    this.runs.prune();
  }

  /** `session` is the run's own, never looked up again by name: a closed session must not come back. */
  private async runOnWorker(session: DaemonSession, request: ExecRequest, runId: string, deadline: number): Promise<WorkerOutcome> {
    const budgetMs = deadline - this.now();
    if (budgetMs <= 0) return failed(new BwError("SNIPPET_TIMEOUT", "the budget ran out while the run waited in its session's queue"));
    let generation: number | undefined;
    try {
      const worker = await this.worker.ensure();
      // Closed while the worker started: the worker must not make the session again.
      if (session.closed) return failed(session.closingError());
      generation = this.worker.generation;
      const lostPages = session.resetPending !== undefined || (session.workerGeneration !== undefined && session.workerGeneration !== generation);
      // A new worker places the session anew (remote browsers): where it lived is not where it lives.
      if (lostPages) session.placement = undefined;
      // An isolated session on a new worker (or a daemon that took over) gets its context again: its settings and its autosaved storage.
      const fresh = session.workerGeneration === undefined && session.resetPending === undefined;
      if (session.spec.isolated && session.workerGeneration !== generation) session.placement = await this.contexts.open(worker, session.name, session.spec, fresh);
      session.workerGeneration = generation;
      const outcome = await worker.call(WorkerRun, { session: request.session, run: request.run, runId, budgetMs, ...(request.approveDownloads ? { approveDownloads: true } : {}) }, budgetMs + WORKER_REPLY_GRACE_MS);
      if (session.spec.isolated && !session.closed) this.contexts.autosave(worker, session.name);
      if (outcome.placement !== undefined) session.placement = outcome.placement;
      delete outcome.placement;
      if (lostPages && !outcome.warnings.some((w) => w.code === "SESSION_RESET")) {
        const storage = session.spec.isolated ? " (its settings, and its cookies and storage as its last autosaved run left them, were kept)" : "";
        const why = session.resetPending ?? "the worker restarted since this session's last call";
        outcome.warnings.unshift({ code: "SESSION_RESET", message: `${why}; its pages and page state were lost${storage}` });
      }
      session.resetPending = undefined;
      return outcome;
    } catch (error) {
      const blocked = generation === undefined ? undefined : this.worker.blockedBy(request.session, generation);
      const failure = blocked
        ? new BwError("SNIPPET_TIMEOUT", `the snippet held the worker's event loop for ${Math.round(blocked.blockedMs / 1000)} s (a CPU loop?); the worker was restarted and the session's pages were lost`, { retryable: false })
        : toBwError(error);
      return failed(failure);
    }
  }

  list(): SessionSummary[] {
    const now = this.now();
    return [...this.sessions.values()].map((s) => ({
      session: s.name,
      idleMs: s.inFlight > 0 ? 0 : now - s.lastUsedAt,
      inFlight: s.inFlight,
      queued: s.queued,
      createdAt: new Date(s.createdAt).toISOString(),
      isolated: s.spec.isolated,
      settings: s.spec.settings,
      ...(s.spec.state === undefined ? {} : { state: s.spec.state }),
      ...(s.placement === undefined ? {} : { placement: s.placement }),
    }));
  }

  /** `reason`, made where the close started, is what every run the close ends fails with, here and in the worker. */
  async close(name: string, reason: CloseReason): Promise<boolean> {
    const session = this.sessions.get(name);
    if (!session) return false;
    this.sessions.delete(name);
    this.recordSessions();
    session.close(reason);
    const worker = this.worker.current();
    if (worker) await worker.call(WorkerCloseSession, { session: name, reason }).catch(() => {});
    if (session.spec.isolated) await this.contexts.forget(name);
    return true;
  }

  /** Every session, for one reason (the daemon stopping). */
  async closeAll(reason: CloseReason): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((name) => this.close(name, reason)));
  }

  /** A clean stop: nothing is left for a daemon taking over to restore. */
  async stopCleanly(): Promise<void> {
    this.records.remove();
    await this.contexts.forgetAll();
  }

  /** Sessions idle past the TTL, for the reaper. */
  idleSince(ttlMs: number): string[] {
    const now = this.now();
    return [...this.sessions.values()].filter((s) => s.inFlight + s.queued === 0 && now - s.lastUsedAt >= ttlMs).map((s) => s.name);
  }
}
