// Downloads. Chromium's download behaviour is set per browser context, which
// every session shares, so approval is per run: a download is accepted only
// when the session owning the page that started it has a run in flight that
// its caller approved. Anything else is cancelled and its partial file
// removed. Accepted downloads grow inside a reservation, are cancelled once
// past the per-file cap, and land in the session's artifact folder.
import { randomUUID } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, watch, type FSWatcher } from "node:fs";
import path from "node:path";
import type { BrowserContext, Download, Page } from "playwright-core";
import { BwError, toBwError } from "../../../shared/errors.js";
import type { DownloadOutcome, Warning } from "../../../shared/envelope.js";
import type { RunContext } from "../sandbox/scope-functions.js";
import { sessionArtifactDir } from "./artifact-paths.js";
import { evictionWarnings, PIN_AFTER_RUN_MS, type ArtifactClient } from "./artifact-client.js";
import { appendDownloadHistory } from "./download-history.js";
import { isProcessAlive } from "../../../shared/process-alive.js";

/** The first growth of a download's reservation; it doubles as the file grows, up to the per-file cap. */
export const INITIAL_DOWNLOAD_RESERVE_BYTES = 1024 * 1024;
/** How often a growing download is measured (a change in the folder also triggers a measure). */
export const DOWNLOAD_POLL_MS = 50;
/** How long the end of a run waits for its downloads to be stopped and cleaned up. */
const END_RUN_SETTLE_MS = 5_000;
const DISCARD_WAIT_MS = 5_000;
const MAX_URL_CHARS = 2_000;

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

export interface DownloadGuardOptions {
  client: ArtifactClient;
  artifactsDir: string;
  log: (line: string) => void;
  now?: () => number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

function sizeOf(file: string): number {
  for (const candidate of [`${file}.crdownload`, file]) {
    try {
      return statSync(candidate).size;
    } catch {
      // not there (yet, or any more)
    }
  }
  return 0;
}

/** Where Chromium writes this download (`<guid>`, `<guid>.crdownload` while in progress); Playwright keeps it on its artifact. */
function partialPathOf(download: Download): string | undefined {
  const p = (download as unknown as { _artifact?: { _initializer?: { absolutePath?: unknown } } })._artifact?._initializer?.absolutePath;
  return typeof p === "string" ? p : undefined;
}


export class DownloadGuard {
  /** This worker's own folder for downloads in progress (dot-named: never counted as an artifact). */
  readonly incomingDir: string;
  private readonly runs = new Map<string, RunState>();
  private readonly now: () => number;

  constructor(private readonly options: DownloadGuardOptions) {
    this.incomingDir = path.join(options.artifactsDir, ".incoming", String(process.pid));
    this.now = options.now ?? Date.now;
  }

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
  watch(context: BrowserContext, ownerOf: (page: Page) => string | undefined): void {
    const watchPage = (page: Page) => page.on("download", (download) => this.onDownload(download, ownerOf));
    for (const page of context.pages()) watchPage(page);
    context.on("page", watchPage);
  }

  beginRun(session: string, runId: string, approved: boolean, budgetMs: number): void {
    this.runs.set(session, {
      session, runId, approved, deadline: this.now() + budgetMs, outcomes: [], warnings: [], delivered: 0,
      active: new Set(), halts: new Set(), waiters: new Set(), ended: false,
    });
  }

  /** Closes the run's approval: downloads still running are cancelled; returns what the run's downloads came to. */
  async endRun(session: string, runId: string): Promise<{ outcomes: DownloadOutcome[]; warnings: Warning[] }> {
    const run = this.runs.get(session);
    if (!run || run.runId !== runId) return { outcomes: [], warnings: [] };
    this.runs.delete(session);
    run.ended = true;
    for (const halt of run.halts) halt("DOWNLOAD_FAILED", "the run that approved it ended before it finished; wait for downloads with waitForDownload()");
    await Promise.race([Promise.allSettled([...run.active]), sleep(END_RUN_SETTLE_MS)]);
    for (const wake of run.waiters) wake();
    return { outcomes: [...run.outcomes], warnings: run.warnings };
  }

  /** waitForDownload({ timeout }?): the next download outcome of this run not yet returned, accepted or rejected. */
  async waitFor(ctx: RunContext, raw: unknown): Promise<DownloadOutcome> {
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

  private onDownload(download: Download, ownerOf: (page: Page) => string | undefined): void {
    const base = {
      id: randomUUID(),
      url: download.url().slice(0, MAX_URL_CHARS),
      suggestedFilename: download.suggestedFilename().slice(0, 255),
    };
    void (async () => {
      const session = await this.owner(download.page(), ownerOf);
      const run = session === undefined ? undefined : this.runs.get(session);
      // The run's end waits for this download's outcome.
      let settle!: () => void;
      const tracked = new Promise<void>((resolve) => (settle = resolve));
      run?.active.add(tracked);
      try {
        if (!run || !run.approved) {
          await this.discard(download);
          const why = session === undefined
            ? "the page that started it belongs to no session"
            : run
              ? `this run of session ${session} was not approved for downloads; run it with --approve-downloads (library: approveDownloads: true)`
              : `no run of session ${session} was in flight; downloads are accepted only during an approved run`;
          this.record(session, run, this.rejected(base, run, "DOWNLOAD_NOT_APPROVED", why, 0));
          return;
        }
        await this.accept(run, download, base);
      } finally {
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

  private async discard(download: Download): Promise<void> {
    const partial = partialPathOf(download);
    await Promise.race([(async () => {
      await download.cancel().catch(() => {});
      // Settled (cancelled, or finished before the cancel landed): Chromium renames nothing any more.
      await download.failure().catch(() => {});
      await download.delete().catch(() => {});
    })(), sleep(DISCARD_WAIT_MS)]);
    if (partial) for (const f of [partial, `${partial}.crdownload`]) rmSync(f, { force: true });
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

  private async accept(run: RunState, download: Download, base: Omit<DownloadOutcome, "status" | "at">): Promise<void> {
    const { client } = this.options;
    const request = { session: run.session, runId: run.runId, kind: "download" as const, name: base.suggestedFilename };
    let reservation;
    try {
      // Nothing yet: this learns the path and the per-file cap; the first measure grows it.
      reservation = await client.reserve({ ...request, bytes: 0 });
    } catch (error) {
      await this.discard(download);
      this.record(run.session, run, this.rejected(base, run, "QUOTA_EXCEEDED", toBwError(error).message, 0));
      return;
    }
    const cap = reservation.fileCapBytes;
    const partial = partialPathOf(download);
    let reserved = reservation.reservedBytes;
    let seen = 0;
    let stop: { reason: string; message: string } | undefined;
    let wake!: () => void;
    const stopped = new Promise<"stopped">((resolve) => (wake = () => resolve("stopped")));
    const halt: Halt = (reason, message) => {
      if (stop) return;
      stop = { reason, message };
      wake();
    };
    run.halts.add(halt);
    if (run.ended) halt("DOWNLOAD_FAILED", "the run that approved it ended before it finished; wait for downloads with waitForDownload()");
    let growing = false;
    const measure = (): void => {
      if (stop || !partial) return;
      const size = sizeOf(partial);
      seen = Math.max(seen, size);
      if (size > cap) return halt("QUOTA_EXCEEDED", `larger than the per-file download cap of ${cap} bytes; cancelled at ${size} bytes`);
      // Keep the reservation ahead of the file: grow it once the file passes half of it.
      const floor = Math.min(cap, INITIAL_DOWNLOAD_RESERVE_BYTES);
      if (growing || reserved >= cap || (reserved >= floor && size * 2 <= reserved)) return;
      growing = true;
      const bytes = Math.min(cap, Math.max(reserved * 2, size * 2, floor));
      client.reserve({ ...request, bytes, extend: reservation.reservationId }).then(
        (grown) => { reserved = grown.reservedBytes; run.warnings.push(...evictionWarnings(grown.evicted)); },
        (error: unknown) => halt("QUOTA_EXCEEDED", `stopped at ${size} bytes: ${toBwError(error).message}`),
      ).finally(() => { growing = false; });
    };
    const poll = setInterval(measure, DOWNLOAD_POLL_MS);
    let watcher: FSWatcher | undefined;
    try {
      watcher = watch(this.incomingDir, () => measure());
      watcher.on("error", () => {});
    } catch {
      // polling alone still bounds it
    }
    const finished = download.path().then(() => "done" as const, () => "failed" as const);
    const first = await Promise.race([finished, stopped]);
    clearInterval(poll);
    watcher?.close();
    run.halts.delete(halt);
    const drop = async (reason: string, message: string, bytes: number) => {
      await this.discard(download);
      await client.commit({ reservationId: reservation.reservationId, discard: true }).catch(() => {});
      this.record(run.session, run, this.rejected(base, run, reason, message, bytes));
    };
    if (first === "stopped") return drop(stop!.reason, stop!.message, seen);
    if (first === "failed") return drop("DOWNLOAD_FAILED", `the download failed: ${(await download.failure().catch(() => null)) ?? "unknown reason"}`, seen);
    const file = await download.path();
    const bytes = statSync(file).size;
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

function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    copyFileSync(from, to);
    rmSync(from, { force: true });
  }
}
