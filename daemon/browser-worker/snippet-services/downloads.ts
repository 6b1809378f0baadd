// Downloads. Chromium's download behaviour is set per browser context, which
// every session shares, so approval is per run: a download is accepted only
// when the session owning the page that started it has a run in flight that
// its caller approved. Anything else is cancelled and its partial file
// removed. Accepted downloads grow inside reservations; every download in
// progress is measured together (download-meter.ts) and stopped once past the
// per-file cap or once the bytes past their reservations outgrow one shared
// slack (download-budget.ts). Finished ones land in the session's folder.
import { randomUUID } from "node:crypto";
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Download, Page } from "playwright-core";
import { BwError, toBwError } from "../../../shared/protocol/errors.js";
import type { DownloadOutcome, Warning } from "../../../shared/protocol/envelope.js";
import type { RunHandle } from "../facades/scope-functions.js";
import { sessionArtifactDir } from "./artifact-paths.js";
import { evictionWarnings, PIN_AFTER_RUN_MS, type ArtifactClient } from "./artifact-client.js";
import { downloadSlackBytes, reservationTarget, type StopCause } from "./download-budget.js";
import { copyRemoteDownload, discardDownload, downloadFileOf, moveFile, sleep } from "./download-files.js";
import { appendDownloadHistory } from "../../../shared/download-history.js";
import { DownloadEntry, DownloadMeter } from "./download-meter.js";
import { isProcessAlive } from "../../../shared/process-alive.js";

export { INITIAL_DOWNLOAD_RESERVE_BYTES } from "./download-budget.js";
/** How often downloads in progress are measured (a change in the incoming folder also triggers a measure). */
export const DOWNLOAD_POLL_MS = 20;
/** How long the end of a run waits for its downloads to be stopped and cleaned up. */
const END_RUN_SETTLE_MS = 5_000;
const MAX_URL_CHARS = 2_000;
const RUN_ENDED = "the run that approved it ended before it finished; wait for downloads with waitForDownload()";

type Halt = (reason: string, message: string) => void;

interface RunState {
  session: string;
  runId: string;
  approved: boolean;
  deadline: number;
  outcomes: DownloadOutcome[];
  warnings: Warning[];
  delivered: number;
  active: Set<Promise<void>>;
  halts: Set<Halt>;
  waiters: Set<() => void>;
  ended: boolean;
}

export interface DownloadGateOptions {
  client: ArtifactClient;
  artifactsDir: string;
  log: (line: string) => void;
  now?: () => number;
}


export class DownloadGate {
  /** This worker's own folder for downloads in progress (dot-named: never counted as an artifact). */
  readonly incomingDir: string;
  private readonly runs = new Map<string, RunState>();
  /** Downloads announced whose session is still being found: an operation's end gives them a moment. */
  private announcing = 0;
  private readonly now: () => number;
  private readonly meter: DownloadMeter;
  /** The per-file cap, once the quota service has told it (it is the daemon's, fixed while the worker lives). */
  private fileCapBytes: number | undefined;

  constructor(private readonly options: DownloadGateOptions) {
    this.incomingDir = path.join(options.artifactsDir, ".incoming", String(process.pid));
    this.now = options.now ?? Date.now;
    this.meter = new DownloadMeter({ dir: this.incomingDir, slackBytes: () => downloadSlackBytes(this.fileCapBytes), pollMs: DOWNLOAD_POLL_MS });
  }

  private remotePrepared = false;

  /** Empties this worker's incoming folder and removes those of workers that are gone. */
  private resetIncoming(): void {
    const parent = path.dirname(this.incomingDir);
    mkdirSync(this.incomingDir, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(parent)) {
      const full = path.join(parent, name);
      if (full === this.incomingDir) {
        for (const leftover of readdirSync(full)) rmSync(path.join(full, leftover), { recursive: true, force: true });
      } else if (!/^\d+$/.test(name) || !isProcessAlive(Number(name))) {
        rmSync(full, { recursive: true, force: true });
      }
    }
  }

  attach(context: BrowserContext, ownerOf: (page: Page) => string | undefined): void {
    this.resetIncoming();
    this.watch(context, ownerOf);
  }

  /** Guards the downloads of one more context of the same browser (an isolated session's); the incoming folder is left as it is. */
  /** `remote`: a remote browser's context, whose downloads are copied here once finished there (docs/remote-browsers.md). */
  watch(context: BrowserContext, ownerOf: (page: Page) => string | undefined, remote = false): void {
    // Without a local browser, the first remote context prepares the incoming folder its copies go to.
    if (remote && !this.remotePrepared) {
      this.remotePrepared = true;
      this.resetIncoming();
    }
    const watchPage = (page: Page) => page.on("download", (download) => this.onDownload(download, ownerOf, remote));
    for (const page of context.pages()) watchPage(page);
    context.on("page", watchPage);
  }

  beginRun(session: string, runId: string, approved: boolean, budgetMs: number): void {
    this.runs.set(session, {
      session, runId, approved, deadline: this.now() + budgetMs, outcomes: [], warnings: [], delivered: 0,
      active: new Set(), halts: new Set(), waiters: new Set(), ended: false,
    });
  }

  /**
   * Closes the run's approval: downloads still running are cancelled; returns what the run's downloads came to.
   * With `startGraceMs` (a typed operation, which cannot wait for its downloads itself), an approved run first
   * lets the downloads it started finish within its budget, and waits that long for one to start.
   */
  async endRun(session: string, runId: string, startGraceMs?: number): Promise<{ outcomes: DownloadOutcome[]; warnings: Warning[] }> {
    const run = this.runs.get(session);
    if (!run || run.runId !== runId) return { outcomes: [], warnings: [] };
    if (startGraceMs !== undefined && run.approved) await this.letFinish(run, startGraceMs);
    this.runs.delete(session);
    run.ended = true;
    for (const halt of run.halts) halt("DOWNLOAD_FAILED", RUN_ENDED);
    await Promise.race([Promise.allSettled([...run.active]), sleep(END_RUN_SETTLE_MS)]);
    for (const wake of run.waiters) wake();
    return { outcomes: [...run.outcomes], warnings: run.warnings };
  }

  private async letFinish(run: RunState, startGraceMs: number): Promise<void> {
    const graceEnd = Math.min(run.deadline, this.now() + startGraceMs);
    while (this.now() < run.deadline) {
      if (run.active.size > 0) await Promise.race([Promise.allSettled([...run.active]), sleep(Math.max(0, run.deadline - this.now()))]);
      else if (this.announcing > 0 || this.now() < graceEnd) await sleep(DOWNLOAD_POLL_MS);
      else return;
    }
  }

  /** waitForDownload({ timeout }?): the next download outcome of this run not yet returned, accepted or rejected. */
  async waitFor(ctx: RunHandle, raw: unknown): Promise<DownloadOutcome> {
    const run = this.runs.get(ctx.session);
    if (!run || run.runId !== ctx.runId) throw new BwError("INVALID_ARGUMENT", "waitForDownload() works only inside a run");
    const timeout = (raw as { timeout?: unknown } | undefined)?.timeout;
    if (raw !== undefined && raw !== null && (typeof raw !== "object" || (timeout !== undefined && (typeof timeout !== "number" || timeout < 0)))) {
      throw new BwError("INVALID_ARGUMENT", "waitForDownload(opts): opts is { timeout?: milliseconds }");
    }
    const waitMs = Math.min(ctx.remainingMs(), typeof timeout === "number" && timeout > 0 ? timeout : Infinity);
    const until = this.now() + waitMs;
    while (run.delivered >= run.outcomes.length) {
      const left = until - this.now();
      if (left <= 0 || !this.runs.has(ctx.session)) throw new BwError("SNIPPET_TIMEOUT", `no download finished within ${Math.round(waitMs)} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        function done() { clearTimeout(timer); run!.waiters.delete(done); resolve(); }
        run.waiters.add(done);
      });
    }
    ctx.assertLive();
    return run.outcomes[run.delivered++]!;
  }

  private onDownload(download: Download, ownerOf: (page: Page) => string | undefined, remote: boolean): void {
    const base = {
      id: randomUUID(),
      url: download.url().slice(0, MAX_URL_CHARS),
      suggestedFilename: download.suggestedFilename().slice(0, 255),
    };
    // Counted from the first moment: its bytes are on disk whatever becomes of it. A remote one's are
    // counted as they are copied here (its own path names a file on its host).
    const file = remote ? path.join(this.incomingDir, base.id) : downloadFileOf(download);
    const entry = new DownloadEntry(base.id, file === undefined ? undefined : path.basename(file));
    const uncount = this.meter.add(entry);
    this.announcing++;
    void (async () => {
      let session: string | undefined;
      try {
        session = await this.owner(download.page(), ownerOf);
      } finally {
        this.announcing--;
      }
      const run = session === undefined ? undefined : this.runs.get(session);
      // The run's end waits for this download's outcome.
      let settle!: () => void;
      const tracked = new Promise<void>((resolve) => (settle = resolve));
      run?.active.add(tracked);
      try {
        if (!run || !run.approved) {
          entry.markStopping();
          await discardDownload(download, remote ? { file: file!, stop: () => {} } : undefined);
          const why = session === undefined
            ? "the page that started it belongs to no session"
            : run
              ? `this run of session ${session} was not approved for downloads; run it with --approve-downloads (library: approveDownloads: true)`
              : `no run of session ${session} was in flight; downloads are accepted only during an approved run`;
          this.record(session, run, this.rejected(base, run, "DOWNLOAD_NOT_APPROVED", why, 0));
          return;
        }
        await this.accept(run, download, base, entry, remote ? file : undefined);
      } finally {
        uncount();
        settle();
        run?.active.delete(tracked);
      }
    })().catch((error: unknown) => this.options.log(`download ${base.url}: ${(error as Error).message}`));
  }

  private async owner(page: Page | null, ownerOf: (page: Page) => string | undefined): Promise<string | undefined> {
    let current: Page | null = page;
    // A popup belongs to the session whose page opened it.
    for (let depth = 0; current && depth < 4; depth++) {
      const session = ownerOf(current);
      if (session !== undefined) return session;
      current = await current.opener().catch(() => null);
    }
    return undefined;
  }

  private rejected(base: Omit<DownloadOutcome, "status" | "at">, run: RunState | undefined, reason: string, message: string, bytes: number): DownloadOutcome {
    return { ...base, status: "rejected", reason, message, bytes, ...(run ? { runId: run.runId } : {}), at: new Date(this.now()).toISOString() };
  }

  private record(session: string | undefined, run: RunState | undefined, outcome: DownloadOutcome): void {
    if (run) {
      run.outcomes.push(outcome);
      for (const wake of [...run.waiters]) wake();
    }
    this.options.log(`download ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ""}: ${outcome.url} ${outcome.message ?? outcome.path ?? ""}`);
    if (session === undefined) return;
    try {
      appendDownloadHistory(sessionArtifactDir(this.options.artifactsDir, session), outcome);
    } catch (error) {
      this.options.log(`could not record a download outcome for ${session}: ${(error as Error).message}`);
    }
  }

  /** `remoteFile`: a remote browser's download is copied here, to this file of the incoming folder. */
  private async accept(run: RunState, download: Download, base: Omit<DownloadOutcome, "status" | "at">, entry: DownloadEntry, remoteFile?: string): Promise<void> {
    const { client } = this.options;
    const request = { session: run.session, runId: run.runId, kind: "download" as const, name: base.suggestedFilename };
    let stop: { reason: string; message: string } | undefined;
    let wake!: () => void;
    const stopped = new Promise<"stopped">((resolve) => (wake = () => resolve("stopped")));
    const halt: Halt = (reason, message) => {
      if (stop) return;
      stop = { reason, message };
      entry.markStopping();
      wake();
    };
    entry.onStop((cause, bytes) => halt("QUOTA_EXCEEDED", stopMessage(cause, bytes, entry.cap, this.meter.slackBytes())));
    run.halts.add(halt);
    if (run.ended) halt("DOWNLOAD_FAILED", RUN_ENDED);
    // Nothing yet: this learns the path and the per-file cap, and the reservation grows at once.
    const reserved = client.reserve({ ...request, bytes: 0 }).then(
      (granted) => {
        entry.cap = granted.fileCapBytes;
        entry.reserved = granted.reservedBytes;
        this.fileCapBytes = granted.fileCapBytes;
        // Grow at once rather than at the next measure: until then its bytes borrow from the slack.
        queueMicrotask(() => entry.onGrowing?.(entry.bytes));
        return granted;
      },
      (error: unknown) => {
        halt("QUOTA_EXCEEDED", toBwError(error).message);
        return undefined;
      },
    );
    let growing = false;
    entry.onGrowing = (bytes) => {
      if (growing || stop || entry.cap === undefined) return;
      const target = reservationTarget(bytes, entry.reserved, entry.cap);
      if (target === undefined) return;
      growing = true;
      void reserved.then((granted) => granted && client.reserve({ ...request, bytes: target, extend: granted.reservationId })).then(
        (grown) => {
          if (!grown) return;
          entry.reserved = grown.reservedBytes;
          run.warnings.push(...evictionWarnings(grown.evicted));
        },
        (error: unknown) => halt("QUOTA_EXCEEDED", `stopped at ${bytes} bytes: ${toBwError(error).message}`),
      ).finally(() => { growing = false; });
    };
    const copy = remoteFile === undefined ? undefined : copyRemoteDownload(download, remoteFile, (bytes) => {
      if (entry.cap !== undefined && bytes > entry.cap) halt("QUOTA_EXCEEDED", stopMessage("file-cap", bytes, entry.cap, this.meter.slackBytes()));
    });
    const local = copy ? { file: remoteFile!, stop: copy.stop } : undefined;
    const fileDone = copy ? copy.done : download.path();
    let failedWith: string | undefined;
    const finished = fileDone.then(() => "done" as const, (error: Error) => {
      failedWith = error?.message?.split("\n")[0];
      return "failed" as const;
    });
    const first = await Promise.race([finished, stopped]);
    run.halts.delete(halt);
    // Cancel first, so the bytes stop; then give back what was reserved.
    const drop = async (reason: string, message: string, bytes: number) => {
      entry.markStopping();
      await discardDownload(download, local);
      const granted = await reserved;
      if (granted) await client.commit({ reservationId: granted.reservationId, discard: true }).catch(() => {});
      this.record(run.session, run, this.rejected(base, run, reason, message, bytes));
    };
    if (first === "stopped") return drop(stop!.reason, stop!.message, entry.bytes);
    if (first === "failed") return drop("DOWNLOAD_FAILED", `the download failed: ${(await download.failure().catch(() => null)) ?? failedWith ?? "unknown reason"}`, entry.bytes);
    const file = await fileDone;
    const bytes = statSync(file).size;
    entry.finalBytes = bytes;
    const reservation = await reserved;
    if (!reservation) return drop(stop?.reason ?? "QUOTA_EXCEEDED", stop?.message ?? "no room was reserved for it", bytes);
    const cap = reservation.fileCapBytes;
    if (bytes > cap) return drop("QUOTA_EXCEEDED", `larger than the per-file download cap of ${cap} bytes (${bytes} bytes)`, bytes);
    try {
      moveFile(file, reservation.path);
      chmodSync(reservation.path, 0o600);
    } catch (error) {
      return drop("DOWNLOAD_FAILED", `could not move the file into the artifact folder: ${(error as Error).message}`, bytes);
    }
    let committed;
    try {
      committed = await client.commit({ reservationId: reservation.reservationId, pinMs: Math.max(0, run.deadline - this.now()) + PIN_AFTER_RUN_MS });
    } catch (error) {
      return drop("QUOTA_EXCEEDED", toBwError(error).message, bytes);
    }
    if ("discarded" in committed) return drop("DOWNLOAD_FAILED", "the artifact was discarded", bytes);
    run.warnings.push(...evictionWarnings(committed.evicted));
    this.record(run.session, run, { ...base, status: "accepted", path: committed.path, bytes: committed.bytes, runId: run.runId, at: new Date(this.now()).toISOString() });
  }
}

function stopMessage(cause: StopCause, bytes: number, cap: number | undefined, slackBytes: number): string {
  if (cause === "file-cap") return `larger than the per-file download cap of ${cap} bytes; cancelled at ${bytes} bytes`;
  return `stopped at ${bytes} bytes: the downloads in progress together held more than ${slackBytes} bytes past the room reserved for them (the session's or the store's cap is near)`;
}
