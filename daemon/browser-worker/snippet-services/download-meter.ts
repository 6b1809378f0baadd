// The one measure of every download in progress in this worker: a poll and a
// watch on the incoming folder while any runs. Each measure lists the folder
// once, sizes every download from it (download-budget.ts decides which to
// stop) and tells each download its size and whether to stop. A download
// counts from the moment Playwright announces it until its bytes are gone or
// committed; files nobody has announced yet count too.
import { readdirSync, statSync, watch, type FSWatcher } from "node:fs";
import path from "node:path";
import { downloadsToStop, measureDownloads, type DownloadState, type StopCause } from "./download-budget.js";

export interface MeteredDownload {
  state(): DownloadState;
  /** Its size at this measure, and why it must stop if it must; `growing` when it may still grow. */
  measured(bytes: number, stop: StopCause | undefined, growing: boolean): void;
}

export interface DownloadMeterOptions {
  /** The folder Chromium writes downloads to; a change there triggers a measure. */
  dir: string;
  /** Asked at every measure (it follows the per-file cap once the quota service has told it). */
  slackBytes: () => number;
  pollMs: number;
}

export class DownloadMeter {
  private readonly downloads = new Set<MeteredDownload>();
  private poll: NodeJS.Timeout | undefined;
  private watcher: FSWatcher | undefined;
  private queued = false;

  constructor(private readonly options: DownloadMeterOptions) {}

  /** Counts `download` until the returned function is called. */
  add(download: MeteredDownload): () => void {
    this.downloads.add(download);
    this.start();
    this.measure();
    return () => {
      if (!this.downloads.delete(download)) return;
      if (this.downloads.size === 0) this.halt();
    };
  }

  slackBytes(): number {
    return this.options.slackBytes();
  }

  measure(): void {
    const downloads = [...this.downloads];
    const states = downloads.map((d) => d.state());
    const gauges = measureDownloads(listing(this.options.dir), states);
    const stops = new Map(downloadsToStop(gauges, this.options.slackBytes()).map((s) => [s.id, s.cause]));
    downloads.forEach((download, i) => {
      const gauge = gauges[i]!;
      download.measured(gauge.bytes, stops.get(gauge.id), gauge.stoppable);
    });
  }

  private start(): void {
    if (this.poll !== undefined) return;
    this.poll = setInterval(() => this.measure(), this.options.pollMs);
    try {
      // Chromium writes in small chunks: measure at most once per turn of the event loop.
      this.watcher = watch(this.options.dir, () => this.soon());
      this.watcher.on("error", () => {});
    } catch {
      // polling alone still bounds it
    }
  }

  private soon(): void {
    if (this.queued) return;
    this.queued = true;
    setImmediate(() => {
      this.queued = false;
      this.measure();
    });
  }

  private halt(): void {
    clearInterval(this.poll);
    this.poll = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }
}

/** Name → bytes of every file in `dir` (none when it cannot be read). */
function listing(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    try {
      out.set(name, statSync(path.join(dir, name)).size);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * One download's entry in the meter. The accept flow fills in its reservation
 * as the quota service grants it, reacts to a stop, and fixes its size once the
 * file is complete; a stop decided before anyone listens is kept for them.
 */
export class DownloadEntry implements MeteredDownload {
  reserved = 0;
  cap: number | undefined;
  /** The complete file's size, once Chromium is done with it (it may move out of the incoming folder). */
  finalBytes: number | undefined;
  /** Its size at the last measure. */
  bytes = 0;
  /** After each measure while it may still grow (the reservation may follow). */
  onGrowing: ((bytes: number) => void) | undefined;
  private stopped: { cause: StopCause; bytes: number } | undefined;
  private discarding = false;
  private listener: ((cause: StopCause, bytes: number) => void) | undefined;

  constructor(readonly id: string, private readonly fileName: string | undefined) {}

  state(): DownloadState {
    return {
      id: this.id, fileName: this.fileName, finalBytes: this.finalBytes, reservedBytes: this.reserved, fileCapBytes: this.cap,
      stopping: this.stopped !== undefined || this.discarding,
    };
  }

  measured(bytes: number, stop: StopCause | undefined, growing: boolean): void {
    this.bytes = bytes;
    if (stop !== undefined && this.stopped === undefined && !this.discarding) {
      this.stopped = { cause: stop, bytes };
      this.listener?.(stop, bytes);
    } else if (growing) {
      this.onGrowing?.(bytes);
    }
  }

  /** Being cancelled for a reason decided elsewhere (not approved, its run ended, no room granted). */
  markStopping(): void {
    this.discarding = true;
  }

  onStop(listener: (cause: StopCause, bytes: number) => void): void {
    this.listener = listener;
    if (this.stopped) listener(this.stopped.cause, this.stopped.bytes);
  }
}
