// A run as the worker receives it (worker.run): a snippet or an operation,
// told apart by `kind` alone, an operation's arguments checked against the
// operation table on arrival (the pipe is a trust boundary), nothing else let through.
import { describe, expect, it } from "vitest";
import { runRequest, WorkerRun } from "../../shared/protocol/methods/index.js";

const params = (run: unknown) => ({ session: "s", run, runId: "r1", budgetMs: 1000 });

describe("a run request", () => {
  it("is a snippet with its JSON args, or an operation with its checked arguments", () => {
    expect(runRequest({ kind: "snippet", code: "return args.n", args: { n: 1 } })).toEqual({ kind: "snippet", code: "return args.n", args: { n: 1 } });
    expect(runRequest({ kind: "snippet", code: "return 1" })).toEqual({ kind: "snippet", code: "return 1" });
    // The table's check normalizes as it checks: a ref written as a plain string becomes a ref target.
    expect(runRequest({ kind: "operation", name: "click", args: { target: "e12" }, elementWaitMs: 500 })).toEqual({ kind: "operation", name: "click", args: { target: { ref: "e12" } }, elementWaitMs: 500 });
    expect(WorkerRun.params(params({ kind: "operation", name: "back", args: {} }))).toMatchObject({ run: { kind: "operation", name: "back", args: {} } });
  });

  it.each([
    ["no kind", { code: "return 1" }, "run.kind: expected snippet or operation"],
    ["another kind", { kind: "exec", code: "return 1" }, "run.kind: expected snippet or operation"],
    ["a snippet's code that is not text", { kind: "snippet", code: 1 }, "run.code: expected a string"],
    ["a snippet with an operation's field", { kind: "snippet", code: "1", name: "click" }, "run: unknown field 'name'"],
    ["an operation with a snippet's code", { kind: "operation", name: "back", args: {}, code: "evil()" }, "run: unknown field 'code'"],
    ["an operation not in the table", { kind: "operation", name: "evil", args: {} }, "op: no operation \"evil\""],
    ["an operation's bad argument", { kind: "operation", name: "click", args: { target: "e12", button: "huge" } }, "args.button: expected one of left, right, middle"],
    ["an operation's unknown argument", { kind: "operation", name: "back", args: { code: "evil()" } }, "back takes no argument 'code'"],
  ])("refuses %s (INVALID_ARGUMENT)", (_name, run, message) => {
    expect(() => WorkerRun.params(params(run))).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT", message: expect.stringContaining(message) }));
  });
});
