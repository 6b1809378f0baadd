import { describe, expect, it } from "vitest";
import { boundResult, RESULT_PREVIEW_CHARS } from "../../daemon/browser-worker/result-bound.js";
import type { WorkerOutcome } from "../../shared/protocol/envelope.js";
import { describeFsError, isStorageFailure } from "../../shared/fs-problem.js";

const outcome = (result: unknown, ok = true): WorkerOutcome => ({ ok, result, console: [], pages: [], artifacts: [], warnings: [] });

describe("the worker's result bound", () => {
  it("lets a result within the bound through untouched", () => {
    const small = outcome({ a: "x".repeat(100) });
    expect(boundResult(small, 1000)).toBe(small);
  });

  it("cuts a result past the bound to a preview, says so, and keeps the rest of the outcome", () => {
    const big = { ...outcome("y".repeat(5000)), console: [{ type: "log", text: "kept", source: "snippet" as const }] };
    const bounded = boundResult(big, 1000);
    expect(bounded.result).toBeUndefined();
    expect(bounded.truncated).toBe(true);
    expect(bounded.preview).toBe(`"${"y".repeat(RESULT_PREVIEW_CHARS - 1)}…`);
    expect(bounded.console).toEqual(big.console);
    expect(bounded.warnings).toEqual([{ code: "OUTPUT_NOT_SAVED", message: expect.stringContaining("5002 bytes of JSON, more than the 1000 bytes") }]);
  });

  it("counts UTF-8 bytes, not characters", () => {
    // 400 characters of three bytes each: 1,202 bytes of JSON.
    expect(boundResult(outcome("€".repeat(400)), 1000).truncated).toBe(true);
    expect(boundResult(outcome("e".repeat(400)), 1000).truncated).toBeUndefined();
  });

  it("leaves failures and empty results alone", () => {
    const failed: WorkerOutcome = { ...outcome(undefined, false), error: { code: "SNIPPET_ERROR", message: "x".repeat(5000), retryable: false } };
    expect(boundResult(failed, 10)).toBe(failed);
    const nothing = outcome(undefined);
    expect(boundResult(nothing, 10)).toBe(nothing);
  });
});

describe("filesystem problems in plain words", () => {
  const errno = (code: string) => Object.assign(new Error(`${code}: raw`), { code, syscall: "open", path: "/h/x" });

  it("names the path, the condition and the code", () => {
    expect(describeFsError(errno("ENOSPC"), "write", "/h/daemon.json")).toBe("cannot write /h/daemon.json: no space left on the device (ENOSPC)");
    expect(describeFsError(errno("EROFS"), "write", "/h/daemon.log")).toBe("cannot write /h/daemon.log: the file system is read-only (EROFS)");
    expect(describeFsError(new Error("odd"), "write", "/h/f")).toBe("cannot write /h/f: odd");
  });

  it("tells the machine's conditions from a caller's bad path", () => {
    for (const code of ["ENOSPC", "EDQUOT", "EROFS", "EIO"]) expect(isStorageFailure(errno(code))).toBe(true);
    for (const code of ["ENOTDIR", "ENOENT", "EACCES"]) expect(isStorageFailure(errno(code))).toBe(false);
    expect(isStorageFailure(new Error("plain"))).toBe(false);
  });
});
