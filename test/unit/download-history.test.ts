// A session's download history: one reader for the daemon (artifacts --session)
// and the worker (the downloads operation); torn and foreign lines are skipped,
// and the file is cut back to the newest outcomes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { appendDownloadHistory, parseDownloadHistory, readDownloadHistory } from "../../shared/download-history.js";
import type { DownloadOutcome } from "../../shared/protocol/envelope.js";
import { DOWNLOAD_HISTORY_FILE, DOWNLOAD_HISTORY_LIMIT } from "../../shared/protocol/methods/artifacts.js";

/** A download id as the worker makes them (a UUID), carrying a short label to compare by. */
const uuid = (label: string) => `00000000-0000-4000-8000-${Buffer.from(label).toString("hex").padStart(12, "0")}`;
const label = (id: string) => Buffer.from(id.slice(24).replace(/^(00)+/, ""), "hex").toString();

const outcome = (id: string, extra: Partial<DownloadOutcome> = {}): DownloadOutcome => ({
  id: uuid(id), url: `http://127.0.0.1/${id}`, suggestedFilename: `${id}.txt`, status: "accepted", path: `/a/${id}.txt`, bytes: 5, at: "2024-01-01T00:00:00.000Z", ...extra,
});

describe("download history", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "bw-history-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }); });

  it("parses outcomes in file order and skips torn, blank and foreign lines", () => {
    const rejected = outcome("b", { status: "rejected", reason: "DOWNLOAD_NOT_APPROVED", message: "no", bytes: 0, path: undefined });
    const text = [
      JSON.stringify(outcome("a")),
      "",
      '{"id":"torn","status":"acc',
      JSON.stringify({ ...outcome("c"), status: "pending" }),
      JSON.stringify({ status: "accepted" }),
      // A worker's forgeries: an id made to be joined into a path, a field the protocol does not declare.
      JSON.stringify({ ...outcome("x"), id: "../../../tmp/evil" }),
      JSON.stringify({ ...outcome("y"), injected: true }),
      "null",
      "[1]",
      JSON.stringify(rejected),
    ].join("\n");
    expect(parseDownloadHistory(text).map((d) => label(d.id))).toEqual(["a", "b"]);
    expect(parseDownloadHistory(text)[1]).toEqual(JSON.parse(JSON.stringify(rejected)));
    expect(parseDownloadHistory("")).toEqual([]);
  });

  it("keeps the newest outcomes only", () => {
    const text = Array.from({ length: DOWNLOAD_HISTORY_LIMIT + 5 }, (_, i) => JSON.stringify(outcome(`d${i}`))).join("\n");
    const parsed = parseDownloadHistory(text);
    expect(parsed).toHaveLength(DOWNLOAD_HISTORY_LIMIT);
    expect(label(parsed[0]!.id)).toBe("d5");
    expect(label(parsed.at(-1)!.id)).toBe(`d${DOWNLOAD_HISTORY_LIMIT + 4}`);
  });

  it("reads what was appended, none for a session without a history, and cuts the file back", () => {
    const dir = tempDir();
    expect(readDownloadHistory(dir)).toEqual([]);
    expect(readDownloadHistory(path.join(dir, "missing"))).toEqual([]);
    for (let i = 0; i < 2 * DOWNLOAD_HISTORY_LIMIT + 1; i++) appendDownloadHistory(dir, outcome(`d${i}`));
    const file = path.join(dir, DOWNLOAD_HISTORY_FILE);
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(DOWNLOAD_HISTORY_LIMIT);
    expect(label(readDownloadHistory(dir).at(-1)!.id)).toBe(`d${2 * DOWNLOAD_HISTORY_LIMIT}`);
    writeFileSync(file, `${readFileSync(file, "utf8")}{"id":"torn`);
    expect(readDownloadHistory(dir)).toHaveLength(DOWNLOAD_HISTORY_LIMIT);
  });
});
