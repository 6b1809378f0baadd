// A session's transcript: append-only JSONL, one line per finished exec,
// rotated to transcript.1.jsonl past TRANSCRIPT_ROTATE_BYTES (one older file
// is kept). Lines are written before the caller hears back.
import { appendFileSync, closeSync, fstatSync, openSync, readSync, renameSync, statSync, truncateSync } from "node:fs";
import path from "node:path";
import { ensurePrivateDir } from "../shared/secure-fs.js";
import { lastSeqOf, readTranscript, rotatedPath, TRANSCRIPT_ROTATE_BYTES, type TranscriptEntry } from "../shared/transcript-format.js";

export type { TranscriptEntry } from "../shared/transcript-format.js";

export const MAX_PREVIEW_CHARS = 2000;

export function preview(value: unknown): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value) ?? "undefined";
  return text.length > MAX_PREVIEW_CHARS ? `${text.slice(0, MAX_PREVIEW_CHARS)}…` : text;
}

function endsTorn(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return false;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    closeSync(fd);
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

export class Transcript {
  private tailChecked = false;
  /** The folder was made (or found) by an earlier append; one removed since is made again on ENOENT. */
  private dirReady = false;

  constructor(readonly file: string, private readonly rotateBytes: number = TRANSCRIPT_ROTATE_BYTES) {}

  read(sinceSeq = 0): TranscriptEntry[] {
    return readTranscript(this.file, sinceSeq);
  }

  lastSeq(): number {
    return lastSeqOf(this.file);
  }

  append(entry: TranscriptEntry): void {
    // Once per transcript, not per line: mkdir of an existing folder costs a thrown error and a stat.
    if (!this.dirReady) ensurePrivateDir(path.dirname(this.file));
    this.dirReady = true;
    const line = `${JSON.stringify(entry)}\n`;
    let before = sizeOf(this.file);
    if (before + line.length > this.rotateBytes && before > 0) {
      renameSync(this.file, rotatedPath(this.file));
      this.tailChecked = true;
      before = 0;
    }
    // A torn line left by a crash must not swallow this one: start on a fresh line.
    const lead = !this.tailChecked && endsTorn(this.file) ? "\n" : "";
    this.tailChecked = true;
    try {
      try {
        appendFileSync(this.file, `${lead}${line}`, { mode: 0o600 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        ensurePrivateDir(path.dirname(this.file));
        appendFileSync(this.file, `${lead}${line}`, { mode: 0o600 });
      }
    } catch (error) {
      // A full disk may have taken part of the line: cut it back off, and check the tail next time.
      try { truncateSync(this.file, before); } catch { /* read-only: the reader skips a torn line */ }
      this.tailChecked = false;
      throw error;
    }
  }
}
