// What the daemon accepts of a worker's outcome: exactly the declared fields,
// codes of the error table, bounded lists and strings, download ids the
// worker makes (UUIDs). Anything else is refused whole, never trimmed.
import { describe, expect, it } from "vitest";
import { workerOutcome, WorkerRun, WorkerPing } from "../../shared/protocol/methods/index.js";

const base = { ok: true, console: [], pages: [], artifacts: [], warnings: [] };
const download = { id: "0b0d7a63-1c2e-4a4b-8d3e-5f6a7b8c9d0e", url: "http://127.0.0.1/f.pdf", suggestedFilename: "f.pdf", status: "accepted", path: "/home/u/.betterwright/artifacts/default/s/download-x.pdf", bytes: 5, at: "2026-01-01T00:00:00.000Z" };

describe("a worker's outcome", () => {
  it.each([
    ["a plain result", { ...base, result: { any: ["json", 1] } }],
    ["a null result (a snippet's null, or a statement's), kept as null", { ...base, result: null }],
    ["an error of the table", { ...base, ok: false, error: { code: "SNIPPET_ERROR", message: "boom", retryable: false, details: { line: 1 } } }],
    ["a screenshot and a download", { ...base, artifacts: [{ kind: "screenshot", path: "/a/b/c/screenshot-1.png", bytes: 10, width: 1, height: 1, type: "png" }], downloads: [download] }],
    ["a truncated result", { ...base, truncated: true, preview: "[1,2" }],
  ])("accepts %s", (_name, outcome) => {
    expect(workerOutcome(outcome)).toEqual(outcome);
  });

  it.each([
    ["a field the protocol does not declare", { ...base, injected: "evil" }],
    ["an artifact with an extra field", { ...base, artifacts: [{ kind: "screenshot", path: "/a/s.png", bytes: 1, secret: "x" }] }],
    ["a download id made to be joined into a path", { ...base, downloads: [{ ...download, id: "../../../tmp/evil" }] }],
    ["a relative path", { ...base, artifacts: [{ kind: "screenshot", path: "s.png", bytes: 1 }] }],
    ["an error code not in the table", { ...base, ok: false, error: { code: "MADE_UP", message: "x", retryable: false } }],
    ["a console past any run's length", { ...base, console: Array.from({ length: 1001 }, () => ({ type: "log", text: "x", source: "page" })) }],
    ["a string past its bound", { ...base, warnings: [{ code: "X".repeat(200), message: "m" }] }],
    ["no outcome at all", ["not", "an", "outcome"]],
    ["a missing list", { ok: true, console: [], pages: [], artifacts: [] }],
    ["a failure without its error", { ...base, ok: false }],
    ["a success with an error", { ...base, error: { code: "SNIPPET_ERROR", message: "boom", retryable: false } }],
  ])("refuses %s", (_name, outcome) => {
    expect(() => workerOutcome(outcome)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });

  it("is the declared result of worker.run, and the small answers are declared too", () => {
    expect(WorkerRun.checkResult).toBe(workerOutcome);
    expect(WorkerPing.checkResult!({ now: 1, browser: { running: true } })).toEqual({ now: 1, browser: { running: true } });
    expect(() => WorkerPing.checkResult!({ now: 1, browser: { running: true }, extra: 1 })).toThrow();
  });
});
