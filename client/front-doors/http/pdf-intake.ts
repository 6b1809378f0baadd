// Downloads of the HTTP API's sessions: the daemon's artifact store and quota
// service take every approved download (cancelled in flight past the
// per-file cap, which serve sets to its PDF cap); this keeps only PDFs. A file
// is published (its metadata recorded, a copy kept in serve's folder) once
// its real byte count is within the cap and its first bytes are `%PDF-`; at
// most maxDownloads per session. Everything refused is recorded as a failure
// (the latest MAX_FAILURES kept), and both checks run again before serving.
import { randomUUID } from "node:crypto";
import path from "node:path";
import type { DownloadOutcome } from "../../../shared/protocol/envelope.js";
import { BwError } from "../../../shared/protocol/errors.js";
import { DOWNLOAD_ID } from "../../../shared/protocol/methods/index.js";
import { ensurePrivateDir, writeFileAtomic } from "../../../shared/secure-fs.js";
import { readBounded, readInside, type BoundedRead } from "../common/artifact-files.js";
import type { FailureRecord, PdfRecord, RecordStore, SessionRecord } from "./records.js";

export const PDF_SIGNATURE = Buffer.from("%PDF-");
const MAX_NAME = 200;

export interface PdfLimits {
  maxDownloads: number;
  maxDownloadBytes: number;
}

/** A file name safe to show and to put in a Content-Disposition header. */
export function safeFileName(name: string): string {
  const cleaned = name.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029"\\/:*?<>|]/g, "_").replace(/^[.\s]+/, "").trim().slice(0, MAX_NAME);
  return cleaned === "" ? "download.pdf" : cleaned;
}

export class PdfIntake {
  constructor(
    private readonly store: RecordStore,
    private readonly limits: PdfLimits,
    /** The session's folder in the artifact store: accepted downloads must be inside it. */
    private readonly artifactDir: (session: string) => string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Takes in the outcomes not seen yet; true when the record changed. */
  take(record: SessionRecord, outcomes: readonly DownloadOutcome[]): boolean {
    let changed = false;
    for (const outcome of outcomes) {
      // The id names the kept file: one the worker did not make (randomUUID) is never joined into a path.
      if (!DOWNLOAD_ID.test(outcome.id)) {
        record.failures.push(this.failure({ ...outcome, id: randomUUID() }, "DOWNLOAD_FAILED", "the browser side reported a download with a malformed id; it was not kept"));
        changed = true;
        continue;
      }
      if (record.seen.includes(outcome.id)) continue;
      record.seen.push(outcome.id);
      changed = true;
      const failure = outcome.status === "accepted" ? this.publish(record, outcome) : this.rejection(outcome);
      if (failure) record.failures.push(failure);
    }
    return changed;
  }

  private failure(outcome: DownloadOutcome, code: string, message: string): FailureRecord {
    return { id: outcome.id, name: safeFileName(outcome.suggestedFilename), code, message, createdAt: this.now().toISOString() };
  }

  private rejection(outcome: DownloadOutcome): FailureRecord {
    const reason = outcome.reason ?? "DOWNLOAD_FAILED";
    const message = outcome.message ?? "the download did not complete";
    // The per-file cap is serve's PDF cap: past it, the quota service cancelled it in flight.
    if (reason === "QUOTA_EXCEEDED" && /per-file/.test(message)) return this.failure(outcome, "DOWNLOAD_TOO_LARGE", `larger than ${this.limits.maxDownloadBytes} bytes; cancelled in flight`);
    return this.failure(outcome, reason, message);
  }

  private publish(record: SessionRecord, outcome: DownloadOutcome): FailureRecord | undefined {
    if (record.downloads.length >= this.limits.maxDownloads) {
      return this.failure(outcome, "DOWNLOAD_LIMIT", `this session already keeps ${this.limits.maxDownloads} PDFs`);
    }
    let read: BoundedRead;
    try {
      read = readInside(outcome.path ?? "", this.artifactDir(record.id), this.limits.maxDownloadBytes);
    } catch (error) {
      return this.failure(outcome, "DOWNLOAD_FAILED", `the downloaded file could not be read: ${(error as Error).message}`);
    }
    if ("tooLarge" in read) return this.failure(outcome, "DOWNLOAD_TOO_LARGE", `${read.tooLarge} bytes, more than ${this.limits.maxDownloadBytes}`);
    const { bytes } = read;
    if (!bytes.subarray(0, PDF_SIGNATURE.length).equals(PDF_SIGNATURE)) {
      return this.failure(outcome, "DOWNLOAD_UNSUPPORTED", "not a PDF: its first bytes are not %PDF-");
    }
    const dir = this.store.downloadsDir(record.id);
    ensurePrivateDir(this.store.home);
    ensurePrivateDir(dir, this.store.home);
    writeFileAtomic(path.join(dir, `${outcome.id}.pdf`), bytes);
    const pdf: PdfRecord = { id: outcome.id, name: safeFileName(outcome.suggestedFilename), size: bytes.length, mimeType: "application/pdf", createdAt: this.now().toISOString() };
    record.downloads.push(pdf);
    return undefined;
  }

  /** The kept PDF's bytes, checked again (cap, signature, recorded size) before they are served. */
  serve(record: SessionRecord, downloadId: string): { pdf: PdfRecord; bytes: Buffer } {
    const pdf = record.downloads.find((d) => d.id === downloadId);
    if (!pdf) throw new BwError("NOT_FOUND", `session ${record.id} has no download ${JSON.stringify(downloadId.slice(0, 80))}`);
    let read: BoundedRead;
    try {
      read = readBounded(path.join(this.store.downloadsDir(record.id), `${pdf.id}.pdf`), this.limits.maxDownloadBytes);
    } catch (error) {
      throw new BwError("NOT_FOUND", `download ${pdf.id} of session ${record.id} is gone: ${(error as Error).message}`);
    }
    if ("tooLarge" in read) throw new BwError("DOWNLOAD_TOO_LARGE", `download ${pdf.id} is ${read.tooLarge} bytes, more than ${this.limits.maxDownloadBytes}`);
    if (read.bytes.length !== pdf.size || !read.bytes.subarray(0, PDF_SIGNATURE.length).equals(PDF_SIGNATURE)) {
      throw new BwError("DOWNLOAD_UNSUPPORTED", `download ${pdf.id} changed since it was kept and is not served`);
    }
    return { pdf, bytes: read.bytes };
  }
}
