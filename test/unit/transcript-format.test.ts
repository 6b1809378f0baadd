import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Transcript } from "../../daemon/sessions/transcript.js";
import { lastSeqOf, parseTranscript, readTranscript, rotatedPath, type TranscriptEntry } from "../../shared/transcript-format.js";

function entry(seq: number, extra: Partial<TranscriptEntry> = {}): TranscriptEntry {
  return { seq, runId: `run-${seq}`, at: new Date(seq * 1000).toISOString(), durationMs: 5, snippet: `return ${seq}`, ok: true, result: String(seq), artifacts: [], pages: [], ...extra };
}
const line = (e: TranscriptEntry) => `${JSON.stringify(e)}\n`;

describe("transcripts", () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "bw-transcript-"));
    file = path.join(dir, "transcript.jsonl");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("skips a torn last line and blank or foreign lines", () => {
    const text = line(entry(1)) + "\n" + line(entry(2)) + '{"not":"an entry"}\n' + JSON.stringify(entry(3)).slice(0, 30);
    expect(parseTranscript(text).map((e) => e.seq)).toEqual([1, 2]);
  });

  it("writes no raw terminal control, C1 or line separator to the file, and reads the same text back", () => {
    const hostile = "title\u009b2J \u001b]0;owned\u0007 line\u2028break\u2029end \u007f";
    const t = new Transcript(file);
    t.append(entry(1, { result: hostile, snippet: hostile, error: { code: "SNIPPET_ERROR", message: hostile } }));
    const raw = readFileSync(file, "utf8");
    expect(raw).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(readTranscript(file)[0]).toMatchObject({ result: hostile, snippet: hostile, error: { message: hostile } });
  });

  it("reads nothing from a missing file", () => {
    expect(readTranscript(file)).toEqual([]);
    expect(lastSeqOf(file)).toBe(0);
  });

  it("reads entries after a sequence number, across the rotated file and the current one", () => {
    writeFileSync(rotatedPath(file), [1, 2, 3].map((s) => line(entry(s))).join(""));
    writeFileSync(file, [4, 5].map((s) => line(entry(s))).join(""));
    expect(rotatedPath(file)).toBe(path.join(dir, "transcript.1.jsonl"));
    expect(readTranscript(file).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(readTranscript(file, 2).map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(readTranscript(file, 4).map((e) => e.seq)).toEqual([5]);
    expect(lastSeqOf(file)).toBe(5);
  });

  it("takes the last sequence number from the rotated file when the current one is empty", () => {
    writeFileSync(rotatedPath(file), line(entry(7)));
    writeFileSync(file, "");
    expect(lastSeqOf(file)).toBe(7);
  });

  it("appends after a torn line on a fresh line, so the new entry is kept", () => {
    writeFileSync(file, line(entry(1)) + JSON.stringify(entry(2)).slice(0, 20));
    const transcript = new Transcript(file);
    expect(transcript.lastSeq()).toBe(1);
    transcript.append(entry(2));
    transcript.append(entry(3));
    expect(transcript.read().map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it("rotates past its size bound, keeping every entry readable", () => {
    const transcript = new Transcript(file, 600);
    for (let seq = 1; seq <= 6; seq++) transcript.append(entry(seq));
    const current = parseTranscript(readFileSync(file, "utf8")).length;
    const older = parseTranscript(readFileSync(rotatedPath(file), "utf8")).length;
    expect(current).toBeGreaterThan(0);
    expect(older).toBeGreaterThan(0);
    expect(current + older).toBeLessThanOrEqual(6);
    const all = transcript.read();
    // One older file is kept: what is readable is a contiguous tail ending at the last entry.
    const seqs = all.map((e) => e.seq);
    expect(seqs.at(-1)).toBe(6);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => 7 - seqs.length + i));
    expect(transcript.lastSeq()).toBe(6);
  });

  it("writes the file owner-only", () => {
    const transcript = new Transcript(path.join(dir, "s", "transcript.jsonl"));
    transcript.append(entry(1));
    expect(statSync(path.join(dir, "s", "transcript.jsonl")).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, "s")).mode & 0o777).toBe(0o700);
  });
});
