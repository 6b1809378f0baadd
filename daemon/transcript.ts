// A session's transcript: append-only JSONL, one line per finished exec. A
// torn last line (a crash mid-write) is skipped when reading, never fatal.
import { appendFileSync, closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import path from "node:path";
import { ensurePrivateDir } from "../shared/secure-fs.js";

export const MAX_PREVIEW_CHARS = 2000;

export interface TranscriptEntry {
  seq: number;
  runId: string;
  at: string;
  durationMs: number;
  snippet: string;
  ok: boolean;
  result?: string;
  error?: { code: string; message: string };
  artifacts: string[];
  pages: string[];
}

export function parseTranscript(text: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const entry = JSON.parse(line) as TranscriptEntry;
      if (typeof entry.seq === "number") entries.push(entry);
    } catch {
      // A torn line (crash mid-append) carries nothing we can trust.
    }
  }
  return entries;
}

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

export class Transcript {
  private tailChecked = false;

  constructor(readonly file: string) {}

  read(): TranscriptEntry[] {
    try {
      return parseTranscript(readFileSync(this.file, "utf8"));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  }

  lastSeq(): number {
    const entries = this.read();
    return entries.length === 0 ? 0 : entries[entries.length - 1]!.seq;
  }

  append(entry: TranscriptEntry): void {
    ensurePrivateDir(path.dirname(this.file));
    // A torn line left by a crash must not swallow this one: start on a fresh line.
    const lead = !this.tailChecked && endsTorn(this.file) ? "\n" : "";
    this.tailChecked = true;
    appendFileSync(this.file, `${lead}${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }
}
