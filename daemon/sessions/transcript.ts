// A session's transcript: append-only JSONL, one line per finished exec,
// rotated to transcript.1.jsonl past TRANSCRIPT_ROTATE_BYTES (one older file
// is kept). Lines are written before the caller hears back, to a file held
// open while its session lives.
import { closeSync, constants, fstatSync, ftruncateSync, readSync, renameSync, writeSync } from "node:fs";
import path from "node:path";
import { safeJson } from "../../shared/safe-text.js";
import { ensurePrivateDir, openPrivateFile } from "../../shared/secure-fs.js";
import { lastSeqOf, readTranscript, rotatedPath, TRANSCRIPT_ROTATE_BYTES, type TranscriptEntry } from "../../shared/transcript-format.js";

export type { TranscriptEntry } from "../../shared/transcript-format.js";

/** Read (for the torn-tail check) and append, never through a link. */
const APPEND_AND_READ = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT;

export const MAX_PREVIEW_CHARS = 2000;

export function preview(value: unknown): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value) ?? "undefined";
  return text.length > MAX_PREVIEW_CHARS ? `${text.slice(0, MAX_PREVIEW_CHARS)}…` : text;
}

function endsTorn(fd: number, size: number): boolean {
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done);
}

export class Transcript {
  private tailChecked = false;
  /** The folder was made (or found) by an earlier append; one removed since is made again on ENOENT. */
  private dirReady = false;
  /**
   * The file, held open between appends: opening it (no link, ours, checked on the fd) cost most of
   * an append, on the path of every run's answer. A file removed since is opened anew.
   */
  private fd: number | undefined;

  constructor(readonly file: string, private readonly rotateBytes: number = TRANSCRIPT_ROTATE_BYTES) {}

  read(sinceSeq = 0): TranscriptEntry[] {
    return readTranscript(this.file, sinceSeq);
  }

  lastSeq(): number {
    return lastSeqOf(this.file);
  }

  /** Opens the file for appending; a folder removed since the last append is made again. */
  private open(): number {
    try {
      return openPrivateFile(this.file, APPEND_AND_READ);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      ensurePrivateDir(path.dirname(this.file));
      return openPrivateFile(this.file, APPEND_AND_READ);
    }
  }

  /** The held file and its size now; reopened when the one held was removed (its last link gone). */
  private held(): { fd: number; size: number } {
    if (this.fd !== undefined) {
      const info = fstatSync(this.fd);
      if (info.nlink > 0) return { fd: this.fd, size: info.size };
      this.close();
    }
    const fd = this.open();
    this.fd = fd;
    return { fd, size: fstatSync(fd).size };
  }

  append(entry: TranscriptEntry): void {
    // Once per transcript, not per line: mkdir of an existing folder costs a thrown error and a stat.
    if (!this.dirReady) ensurePrivateDir(path.dirname(this.file));
    this.dirReady = true;
    // Escaped as every human-facing output is: `cat` or `tail -f` of the file cannot drive a terminal.
    const line = `${safeJson(entry)}\n`;
    let { fd, size: before } = this.held();
    if (before + line.length > this.rotateBytes && before > 0) {
      this.close();
      renameSync(this.file, rotatedPath(this.file));
      ({ fd } = this.held());
      this.tailChecked = true;
      before = 0;
    }
    // A torn line left by a crash must not swallow this one: start on a fresh line.
    const lead = !this.tailChecked && endsTorn(fd, before) ? "\n" : "";
    this.tailChecked = true;
    try {
      writeAll(fd, `${lead}${line}`);
    } catch (error) {
      // A full disk may have taken part of the line: cut it back off, and check the tail next time.
      try { ftruncateSync(fd, before); } catch { /* read-only: the reader skips a torn line */ }
      this.tailChecked = false;
      this.close();
      throw error;
    }
  }

  /** Lets go of the file (the session closed); a later append opens it again. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try { closeSync(fd); } catch { /* already gone */ }
  }
}
