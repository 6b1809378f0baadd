// A session's last download outcomes, kept next to its artifacts so they
// survive restarts: append-only JSONL, cut back to the newest
// DOWNLOAD_HISTORY_LIMIT lines once it holds twice that many. The worker
// appends (it sees every download) and reads it for the `downloads`
// operation; the daemon reads it for `artifacts --session`.
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import type { DownloadOutcome } from "./envelope.js";
import { DOWNLOAD_HISTORY_FILE, DOWNLOAD_HISTORY_LIMIT } from "./protocol/artifacts.js";
import { writeFileAtomic } from "./secure-fs.js";

function isOutcome(value: unknown): value is DownloadOutcome {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === "string" && (v.status === "accepted" || v.status === "rejected");
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
    if (isOutcome(entry)) out.push(entry);
  }
  return out.slice(-DOWNLOAD_HISTORY_LIMIT);
}

/** The session's history, oldest first; none when the file is missing or unreadable. */
export function readDownloadHistory(sessionDir: string): DownloadOutcome[] {
  let text: string;
  try {
    text = readFileSync(path.join(sessionDir, DOWNLOAD_HISTORY_FILE), "utf8");
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
