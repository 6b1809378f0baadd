// How much the downloads in progress may hold, pure. Chromium writes a download
// as fast as the link allows; the quota service only grants reservations. Every
// download of the worker is counted together, what its file holds against what
// was reserved for it, so the bytes past their reservations never add up to
// more than one shared slack, however many downloads run at once. Reservations
// fit the session and global caps, so the store holds at most the caps plus the
// slack (plus what is written while a stop is on its way; docs/artifacts.md).

const MiB = 1024 * 1024;

/** The first growth of a download's reservation; it doubles as the file grows, up to the per-file cap. */
export const INITIAL_DOWNLOAD_RESERVE_BYTES = MiB;

/** The least slack: room for a burst of small files while their reservations are granted. */
export const MIN_DOWNLOAD_SLACK_BYTES = 2 * MiB;

/**
 * Bytes that downloads in progress may hold past their reservations, all of them
 * together: one more download's worth (the per-file cap), and never less than
 * MIN_DOWNLOAD_SLACK_BYTES. Small next to the caps, yet wide enough that a
 * reservation granted a little late does not stop a download that fits. Until
 * the quota service has told the cap (its first answer to the worker's first
 * download), there is no telling what fits, so nothing is stopped for it.
 */
export function downloadSlackBytes(fileCapBytes: number | undefined): number {
  return fileCapBytes === undefined ? Infinity : Math.max(MIN_DOWNLOAD_SLACK_BYTES, fileCapBytes);
}

/** What the worker knows of a download in progress, for a measure. */
export interface DownloadState {
  id: string;
  /** Its file's name in the incoming folder (`<guid>`), when Playwright has told it. */
  fileName: string | undefined;
  /** Its size once complete and taken out of the incoming folder. */
  finalBytes: number | undefined;
  reservedBytes: number;
  fileCapBytes: number | undefined;
  /** Already being stopped or discarded. */
  stopping: boolean;
}

/** The id of the gauge that counts files no download claims yet (Chromium writes before the worker hears of it). */
export const UNANNOUNCED = "";

/**
 * One measure's gauges, from the incoming folder's listing (name → bytes):
 * each download's file is `<name>.crdownload` while Chromium writes it and
 * `<name>` once complete; whatever no download claims is one more gauge, counted
 * but never chosen, since nothing can stop it yet.
 */
export function measureDownloads(listing: ReadonlyMap<string, number>, downloads: readonly DownloadState[]): DownloadGauge[] {
  const unclaimed = new Map(listing);
  const gauges = downloads.map((d): DownloadGauge => {
    const writing = d.fileName === undefined ? undefined : listing.get(`${d.fileName}.crdownload`);
    const written = d.fileName === undefined ? undefined : listing.get(d.fileName);
    if (d.fileName !== undefined) {
      unclaimed.delete(d.fileName);
      unclaimed.delete(`${d.fileName}.crdownload`);
    }
    const complete = d.finalBytes !== undefined || (writing === undefined && written !== undefined);
    return {
      id: d.id,
      bytes: d.finalBytes ?? writing ?? written ?? 0,
      reservedBytes: d.reservedBytes,
      fileCapBytes: d.fileCapBytes,
      stoppable: !d.stopping && !complete,
    };
  });
  const rest = [...unclaimed.values()].reduce((n, bytes) => n + bytes, 0);
  if (rest > 0) gauges.push({ id: UNANNOUNCED, bytes: rest, reservedBytes: 0, fileCapBytes: undefined, stoppable: false });
  return gauges;
}

/** One download in progress as last measured. */
export interface DownloadGauge {
  id: string;
  /** What its file holds now. */
  bytes: number;
  /** What the quota service has granted it so far (0 before the first grant). */
  reservedBytes: number;
  /** The per-file cap, once the quota service has told it. */
  fileCapBytes: number | undefined;
  /**
   * False for a download already being stopped or discarded, or complete (its
   * bytes are final and judged exactly when it is committed): its bytes count
   * until they are gone or committed, but it is never chosen.
   */
  stoppable: boolean;
}

export type StopCause = "file-cap" | "unreserved";

export interface DownloadStop {
  id: string;
  cause: StopCause;
}

/**
 * Which downloads to stop now: every one past the per-file cap; then, while the
 * bytes past reservations (those of downloads that cannot be stopped included)
 * add up to more than `slackBytes`, the ones furthest past their own reservation first.
 * A download within its reservation is never stopped for another's sake.
 */
export function downloadsToStop(gauges: readonly DownloadGauge[], slackBytes: number): DownloadStop[] {
  const stops: DownloadStop[] = [];
  const over: { id: string; overage: number }[] = [];
  let unreserved = 0;
  for (const g of gauges) {
    if (g.stoppable && g.fileCapBytes !== undefined && g.bytes > g.fileCapBytes) {
      stops.push({ id: g.id, cause: "file-cap" });
      continue;
    }
    const overage = g.bytes - g.reservedBytes;
    if (overage <= 0) continue;
    unreserved += overage;
    if (g.stoppable) over.push({ id: g.id, overage });
  }
  over.sort((a, b) => b.overage - a.overage || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const { id, overage } of over) {
    if (unreserved <= slackBytes) break;
    stops.push({ id, cause: "unreserved" });
    unreserved -= overage;
  }
  return stops;
}

/**
 * What to ask the quota service to grow a reservation to, or undefined while it
 * is far enough ahead of the file: at least INITIAL_DOWNLOAD_RESERVE_BYTES, then
 * twice the file once the file passes half of it, never past the per-file cap.
 */
export function reservationTarget(bytes: number, reservedBytes: number, fileCapBytes: number): number | undefined {
  const floor = Math.min(fileCapBytes, INITIAL_DOWNLOAD_RESERVE_BYTES);
  if (reservedBytes >= fileCapBytes || (reservedBytes >= floor && bytes * 2 <= reservedBytes)) return undefined;
  return Math.min(fileCapBytes, Math.max(reservedBytes * 2, bytes * 2, floor));
}
