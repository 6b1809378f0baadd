import { describe, expect, it } from "vitest";
import { BwError } from "../../shared/protocol/errors.js";
import type { Envelope } from "../../shared/protocol/envelope.js";
import { RESULT_TTL_MS, RunTable } from "../../daemon/sessions/runs.js";

function envelope(result: unknown): Envelope {
  return { ok: true, result, session: "s", profile: "default", runId: "r", seq: 1, durationMs: 1, console: [], pages: [], artifacts: [], warnings: [] };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as BwError).code;
  }
  return undefined;
}

describe("the run table", () => {
  it("hands a reattaching client the same envelope as the original caller", async () => {
    const table = new RunTable();
    const gate = deferred<Envelope>();
    const original = table.add("run-1", "s", () => gate.promise);
    const attached = table.attach("run-1");
    gate.resolve(envelope(42));
    expect(await original).toEqual(envelope(42));
    expect(await attached).toBe(await original);
    expect(await table.attach("run-1")).toEqual(envelope(42));
  });

  it("refuses a runId that is already in use", () => {
    const table = new RunTable();
    void table.add("dup", "s", () => new Promise(() => {}));
    expect(codeOf(() => table.add("dup", "s", () => Promise.resolve(envelope(1))))).toBe("INVALID_ARGUMENT");
  });

  it("reports RUN_NOT_FOUND for unknown runs", () => {
    const table = new RunTable();
    expect(codeOf(() => table.attach("nope"))).toBe("RUN_NOT_FOUND");
    expect(codeOf(() => table.requestCancel("nope"))).toBe("RUN_NOT_FOUND");
  });

  it("tells a cancel request whether the run is queued, running or done, and lets the run see it", async () => {
    const table = new RunTable();
    const gate = deferred<void>();
    let handle!: { started(): void; cancelRequested(): boolean };
    const result = table.add("r", "sess", async (h) => {
      handle = h;
      await gate.promise;
      return envelope(h.cancelRequested() ? "cancelled" : "ran");
    });
    expect(handle.cancelRequested()).toBe(false);
    expect(table.requestCancel("r")).toEqual({ session: "sess", state: "queued" });
    expect(handle.cancelRequested()).toBe(true);
    handle.started();
    expect(table.requestCancel("r").state).toBe("running");
    gate.resolve();
    expect((await result).result).toBe("cancelled");
    expect(table.requestCancel("r").state).toBe("done");
  });

  it("keeps finished results for the attach window, then forgets them; unfinished runs are never pruned", async () => {
    let now = 1_000;
    const table = new RunTable(() => now);
    await table.add("finished", "s", () => Promise.resolve(envelope(1)));
    void table.add("forever", "s", () => new Promise(() => {}));
    now += RESULT_TTL_MS;
    table.prune();
    expect(await table.attach("finished")).toEqual(envelope(1));
    now += 1;
    table.prune();
    expect(codeOf(() => table.attach("finished"))).toBe("RUN_NOT_FOUND");
    now += 10 * RESULT_TTL_MS;
    table.prune();
    expect(table.attach("forever")).toBeInstanceOf(Promise);
  });

  it("keeps a failed run's rejection for the attach window too", async () => {
    let now = 0;
    const table = new RunTable(() => now);
    const failure = new BwError("INTERNAL_ERROR", "boom");
    await expect(table.add("bad", "s", () => Promise.reject(failure))).rejects.toBe(failure);
    await expect(table.attach("bad")).rejects.toBe(failure);
    now += RESULT_TTL_MS + 1;
    table.prune();
    expect(codeOf(() => table.attach("bad"))).toBe("RUN_NOT_FOUND");
  });
});
