// A session's last download outcomes, kept next to its artifacts so they
// survive restarts: append-only JSONL, cut back to the newest
// DOWNLOAD_HISTORY_LIMIT lines once it holds twice that many. The worker
// appends (it sees every download) and reads it for the `downloads`
// operation; the daemon reads it for `artifacts --session`, as a file the
// worker wrote: through no link, and each line held to the protocol's shape.
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { readBelow } from "./below-root.js";
import type { DownloadOutcome } from "./protocol/envelope.js";
import { DOWNLOAD_HISTORY_FILE, DOWNLOAD_HISTORY_LIMIT } from "./protocol/methods/artifacts.js";
import { downloadOutcome } from "./protocol/methods/worker-outcome.js";
import { writeFileAtomic } from "./secure-fs.js";

/** Twice the lines kept, each well within a frame: more is no history this code wrote. */
const MAX_HISTORY_BYTES = 8 * 1024 * 1024;

function asOutcome(value: unknown): DownloadOutcome | undefined {
  try {
    return downloadOutcome(value, "download");
  } catch {
    return undefined;
  }
}

/** The last DOWNLOAD_HISTORY_LIMIT outcomes of a history's text, oldest first; a torn or foreign line is skipped. */
export function parseDownloadHistory(text: string): DownloadOutcome[] {
  const out: DownloadOutcome[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // torn by a crash mid-append
    }
    const outcome = asOutcome(entry);
    if (outcome) out.push(outcome);
  }
  return out.slice(-DOWNLOAD_HISTORY_LIMIT);
}

/**
 * The session's history, oldest first; none when the file is missing or
 * unreadable. With `root` (the artifacts root: a reader other than the worker)
 * every folder below it is opened without following a link.
 */
export function readDownloadHistory(sessionDir: string, root?: string): DownloadOutcome[] {
  const file = path.join(sessionDir, DOWNLOAD_HISTORY_FILE);
  let text: string;
  try {
    if (root === undefined) text = readFileSync(file, "utf8");
    else {
      const read = readBelow(root, file, MAX_HISTORY_BYTES);
      if (!("bytes" in read)) return [];
      text = read.bytes.toString("utf8");
    }
  } catch {
    return [];
  }
  return parseDownloadHistory(text);
}

export function appendDownloadHistory(sessionDir: string, outcome: DownloadOutcome): void {
  const file = path.join(sessionDir, DOWNLOAD_HISTORY_FILE);
  appendFileSync(file, `${JSON.stringify(outcome)}\n`, { mode: 0o600 });
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "");
  if (lines.length > 2 * DOWNLOAD_HISTORY_LIMIT) writeFileAtomic(file, `${lines.slice(-DOWNLOAD_HISTORY_LIMIT).join("\n")}\n`);
}
