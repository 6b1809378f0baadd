// A session's last download outcomes, kept next to its artifacts so they
// survive restarts: append-only JSONL, cut back to the newest
// DOWNLOAD_HISTORY_LIMIT lines once it holds twice that many.
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import type { DownloadOutcome } from "../../../shared/envelope.js";
import { DOWNLOAD_HISTORY_FILE, DOWNLOAD_HISTORY_LIMIT } from "../../../shared/protocol/artifacts.js";
import { writeFileAtomic } from "../../../shared/secure-fs.js";

export function appendDownloadHistory(sessionDir: string, outcome: DownloadOutcome): void {
  const file = path.join(sessionDir, DOWNLOAD_HISTORY_FILE);
  appendFileSync(file, `${JSON.stringify(outcome)}\n`, { mode: 0o600 });
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "");
  if (lines.length > 2 * DOWNLOAD_HISTORY_LIMIT) writeFileAtomic(file, `${lines.slice(-DOWNLOAD_HISTORY_LIMIT).join("\n")}\n`);
}
