// One schema kit: an operation's argument and an RPC parameter of the same
// kind are checked by the same validators, so a bad value gets the same words
// wherever it came in, and each says what was expected and what came.
import { describe, expect, it } from "vitest";
import { checkArg } from "../../shared/protocol/operations/spec.js";
import { arr, bool, num, str } from "../../shared/protocol/validate.js";
import { failure } from "../helpers/failure.js";

const message = (check: () => unknown) => failure(check).message;

describe("the one schema kit", () => {
  it("gives an operation's argument and an RPC parameter the same words for the same bad value", () => {
    const cases: [unknown, Parameters<typeof checkArg>[2], () => unknown][] = [
      [5, { kind: "string" }, () => str()(5, "p")],
      ["x".repeat(11), { kind: "string", max: 10 }, () => str({ max: 10 })("x".repeat(11), "p")],
      ["top", { kind: "string", choices: ["left", "right"] }, () => str({ choices: ["left", "right"] })("top", "p")],
      [Number.NaN, { kind: "number" }, () => num()(Number.NaN, "p")],
      [1.5, { kind: "number", integer: true }, () => num({ integer: true })(1.5, "p")],
      [3, { kind: "number", min: 200 }, () => num({ min: 200 })(3, "p")],
      ["yes", { kind: "boolean" }, () => bool()("yes", "p")],
      ["a", { kind: "strings" }, () => arr(str(), { what: "an array of strings" })("a", "p")],
    ];
    for (const [value, kind, rpc] of cases) expect(message(() => checkArg(value, "p", kind))).toBe(message(rpc));
  });

  it("says what was expected and what came, the value itself where its kind would mislead", () => {
    expect(message(() => checkArg(5, "args.url", { kind: "string" }))).toBe("args.url: expected a string, got 5");
    expect(message(() => checkArg(Number.NaN, "args.maxChars", { kind: "number" }))).toBe("args.maxChars: expected a finite number, got NaN");
    expect(message(() => checkArg(1.5, "args.n", { kind: "number", integer: true }))).toBe("args.n: expected a whole number, got 1.5");
    expect(message(() => checkArg(null, "args.v", { kind: "strings" }))).toBe("args.v: expected an array of strings, got null");
    expect(message(() => str()(undefined, "params.session"))).toBe("params.session: expected a string, got nothing");
  });
});
