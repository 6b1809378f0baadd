// The worker's side of the artifact store: snippet globals (screenshot,
// artifactPath, waitForDownload), the download guard, and the checks on file
// arguments. Every byte written is reserved with the daemon's quota service
// first (artifacts.reserve) and reported once complete (artifacts.commit).
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { readDownloadHistory } from "../../../shared/download-history.js";
import { BwError } from "../../../shared/protocol/errors.js";
import type { DownloadOutcome, WorkerOutcome } from "../../../shared/protocol/envelope.js";
import type { CommitResult } from "../../../shared/protocol/methods/index.js";
import type { RunHandle, ScopeFunction } from "../facades/scope-functions.js";
import { evictionWarnings, PIN_AFTER_RUN_MS, type ArtifactClient } from "./artifact-client.js";
import { checkFileArguments, safeArtifactPath, sessionArtifactDir } from "./artifact-paths.js";
import { DownloadGate } from "./downloads.js";

/**
 * How long an approved typed operation (a click on a link, a navigation to a file) waits after it
 * returns for a download to start; one that does is then let finish within the budget.
 */
export const OPERATION_DOWNLOAD_START_MS = 250;
import { takeScreenshot } from "./screenshots.js";

export class WorkerArtifacts {
  readonly downloads: DownloadGate;

  constructor(private readonly client: ArtifactClient, private readonly artifactsDir: string, log: (line: string) => void) {
    this.downloads = new DownloadGate({ client, artifactsDir, log });
  }

  sessionDir(session: string): string {
    return sessionArtifactDir(this.artifactsDir, session);
  }

  /** Reserves, writes (never over an existing file), commits: a complete file or none. */
  async writeNew(run: RunHandle, kind: "screenshot", extension: string, data: Buffer): Promise<CommitResult> {
    const dir = this.sessionDir(run.session);
    const reserved = await this.client.reserve({ session: run.session, runId: run.runId, kind, bytes: data.length, extension });
    for (const w of evictionWarnings(reserved.evicted)) run.addWarning(w);
    if (path.dirname(reserved.path) !== dir) {
      await this.client.commit({ reservationId: reserved.reservationId, discard: true }).catch(() => {});
      throw new BwError("INTERNAL_ERROR", `the quota service handed out ${reserved.path}, outside ${dir}`);
    }
    try {
      writeFileSync(reserved.path, data, { flag: "wx", mode: 0o600 });
    } catch (error) {
      await this.client.commit({ reservationId: reserved.reservationId, discard: true }).catch(() => {});
      throw new BwError("INTERNAL_ERROR", `could not write ${reserved.path}: ${(error as Error).message}`);
    }
    const committed = await this.client.commit({ reservationId: reserved.reservationId, pinMs: Math.round(run.remainingMs() + PIN_AFTER_RUN_MS) });
    if ("discarded" in committed) throw new BwError("INTERNAL_ERROR", "the artifact was discarded");
    for (const w of evictionWarnings(committed.evicted)) run.addWarning(w);
    return committed;
  }

  scopeFunctions(): ScopeFunction[] {
    return [
      { name: "screenshot", kind: "async", call: (run, args) => takeScreenshot(run, args[0], (ext, data) => this.writeNew(run, "screenshot", ext, data)) },
      { name: "artifactPath", kind: "sync", call: (run, args) => safeArtifactPath(this.artifactsDir, run.session, args[0]) },
      { name: "waitForDownload", kind: "async", call: (run, args) => this.downloads.waitFor(run, args[0]) },
    ];
  }

  /** Options merged into the browser launch: downloads land in this worker's private incoming folder. */
  launchOptions(): { downloadsPath: string } {
    return { downloadsPath: this.downloads.incomingDir };
  }

  attach(context: BrowserContext, ownerOf: (page: Page) => string | undefined): void {
    this.downloads.attach(context, ownerOf);
  }

  /** Another context of the same browser (an isolated session's): its downloads land in the same incoming folder. */
  watch(context: BrowserContext, ownerOf: (page: Page) => string | undefined, remote = false): void {
    this.downloads.watch(context, ownerOf, remote);
  }

  /** Opens the run's download approval window (approved or not, its downloads are reported in its outcome). */
  beginRun(session: string, runId: string, approveDownloads: boolean, budgetMs: number): void {
    this.downloads.beginRun(session, runId, approveDownloads, budgetMs);
  }

  /** Ends the run's download approval and lists its downloads in the outcome (a typed operation's are let finish first). */
  async finishRun(session: string, runId: string, outcome: WorkerOutcome, operation = false): Promise<void> {
    const { outcomes: downloads, warnings } = await this.downloads.endRun(session, runId, operation ? OPERATION_DOWNLOAD_START_MS : undefined);
    outcome.warnings.push(...warnings);
    if (downloads.length === 0) return;
    outcome.downloads = downloads;
    for (const d of downloads) {
      if (d.status === "accepted" && d.path) outcome.artifacts.push({ kind: "download", path: d.path, bytes: d.bytes ?? 0, url: d.url });
    }
  }

  /** The session's download outcomes, as its history file keeps them (oldest first). */
  downloadHistory(session: string): DownloadOutcome[] {
    return readDownloadHistory(this.sessionDir(session));
  }

  /** For the session's facade calls: file arguments must be real files inside the session's artifact folder. */
  checkFileArgs(session: string, target: string, method: string, args: unknown[]): unknown[] {
    return checkFileArguments(() => this.sessionDir(session), target, method, args);
  }
}
