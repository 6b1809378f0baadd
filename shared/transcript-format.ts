// The transcript's line format and its reader, shared by the daemon (which
// appends) and the CLI (which reads files directly, daemon or not). A torn
// last line after a crash is skipped, never fatal.
import { readFileSync } from "node:fs";

export const TRANSCRIPT_ROTATE_BYTES = 8 * 1024 * 1024;

export interface TranscriptEntry {
  seq: number;
  runId: string;
  at: string;
  durationMs: number;
  /** The snippet, or for a typed operation its name and JSON arguments. */
  snippet: string;
  /** Set for a typed operation: its name. */
  op?: string;
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
      if (entry && typeof entry.seq === "number") entries.push(entry);
    } catch {
      // A torn line (crash mid-append) carries nothing we can trust.
    }
  }
  return entries;
}

export function rotatedPath(file: string): string {
  return file.replace(/\.jsonl$/, ".1.jsonl");
}

function readEntries(file: string): TranscriptEntry[] {
  try {
    return parseTranscript(readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** Entries with seq > sinceSeq, oldest first, from the rotated file and the current one. */
export function readTranscript(file: string, sinceSeq = 0): TranscriptEntry[] {
  const current = readEntries(file);
  const older = current.length === 0 || current[0]!.seq > sinceSeq + 1 ? readEntries(rotatedPath(file)) : [];
  return [...older, ...current].filter((e) => e.seq > sinceSeq);
}

export function lastSeqOf(file: string): number {
  const current = readEntries(file);
  if (current.length > 0) return current[current.length - 1]!.seq;
  const older = readEntries(rotatedPath(file));
  return older.length > 0 ? older[older.length - 1]!.seq : 0;
}
