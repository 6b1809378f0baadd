// The operation table is the one list: every operation has a worker handler,
// a CLI verb whose flags and words come from it, docs generated from it, and
// argument checks that name the argument that is wrong.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkOperation, OPERATIONS, REF_PATTERN } from "../../shared/protocol/operations/index.js";
import { operationsReference, REFERENCE_BEGIN, REFERENCE_END } from "../../shared/protocol/operations/reference.js";
import { OP_HANDLERS } from "../../daemon/browser-worker/ops/registry.js";
import { urlMatcher } from "../../daemon/browser-worker/ops/url-glob.js";
import { opTranscriptText, SECRET_ARG } from "../../daemon/sessions/op-transcript.js";
import { opArgsFromCli, verbOptions } from "../../cli/op-args.js";
import { GLOBAL_OPTIONS, POLICY_OPTIONS } from "../../cli/global-options.js";
import { failure } from "../helpers/failure.js";

describe("the operation table", () => {
  it("declares each operation once, with one line of help and distinct argument names", () => {
    const names = OPERATIONS.map((o) => o.name);
    expect(new Set(names).size).toBe(names.length);
    for (const spec of OPERATIONS) {
      expect(spec.name).toMatch(/^[a-z_]+$/);
      expect(spec.help).not.toMatch(/\n/);
      expect(spec.returns.length).toBeGreaterThan(0);
      const args = spec.args.map((a) => a.name);
      expect(new Set(args).size, spec.name).toBe(args.length);
    }
  });

  it("has a worker handler for every operation, and none for anything else", () => {
    expect([...OP_HANDLERS.keys()].sort()).toEqual(OPERATIONS.map((o) => o.name).sort());
  });

  it("checks arguments and names the one that is wrong", () => {
    expect(failure(() => checkOperation("navigate", {})).message).toMatch(/args\.url/);
    expect(failure(() => checkOperation("navigate", { url: 5 })).message).toMatch(/args\.url: expected a string/);
    expect(failure(() => checkOperation("click", { target: "e1", force: true })).message).toMatch(/force/);
    expect(failure(() => checkOperation("click", { target: "#submit" })).message).toMatch(/args\.target: .*selector goes in \{ selector \}/);
    expect(failure(() => checkOperation("click", { target: { role: "button", text: "x" } })).message).toMatch(/args\.target: give one locator/);
    expect(failure(() => checkOperation("click", { target: { role: "button", nth: 2 } })).message).toMatch(/args\.target: role takes no 'nth'/);
    expect(failure(() => checkOperation("click", { target: "e1", button: "fourth" })).message).toMatch(/args\.button: expected one of left, right, middle/);
    expect(failure(() => checkOperation("click", { target: "e1", modifiers: ["Hyper"] })).message).toMatch(/args\.modifiers/);
    expect(failure(() => checkOperation("snapshot", { maxChars: 10 })).message).toMatch(/args\.maxChars: must be at least 200/);
    expect(failure(() => checkOperation("snapshot", { cursor: "p1.1.9", diff: true })).message).toMatch(/cursor/);
    expect(failure(() => checkOperation("wait_for", {})).message).toMatch(/give one of text, textGone/);
    expect(failure(() => checkOperation("wait_for", { text: "a", url: "b" })).message).toMatch(/not text and url/);
    expect(failure(() => checkOperation("fill_form", { fields: [{ target: "e1" }] })).message).toMatch(/args\.fields\[0\]\.value/);
    expect(failure(() => checkOperation("teleport", {})).message).toMatch(/no operation "teleport"/);
    for (const e of [failure(() => checkOperation("navigate", {})), failure(() => checkOperation("teleport", {}))]) expect(e.code).toBe("INVALID_ARGUMENT");
  });

  it("accepts refs as strings and locators as objects, as data", () => {
    expect(checkOperation("click", { target: "e12" }).args).toEqual({ target: { ref: "e12" } });
    expect(checkOperation("click", { target: "f1e3" }).args).toEqual({ target: { ref: "f1e3" } });
    expect(checkOperation("click", { target: { role: "button", name: "Sign in" } }).args.target).toEqual({ role: "button", name: "Sign in" });
    expect(checkOperation("hover", { target: { x: 10, y: 20 } }).args.target).toEqual({ x: 10, y: 20 });
    expect(checkOperation("fill", { target: { selector: "css=#a')" }, value: "" }).args).toEqual({ target: { selector: "css=#a')" }, value: "" });
    for (const ref of ["e1", "e12", "f1e3", "f12e300"]) expect(ref).toMatch(REF_PATTERN);
    for (const bad of ["e0", "e", "f1", "x1", "e1f1", " e1", "E1"]) expect(bad).not.toMatch(REF_PATTERN);
  });
});

describe("an operation in the transcript", () => {
  it("reads as its name and JSON arguments, with what went into a password field replaced", () => {
    const args = { target: { ref: "e3" }, value: "hunter2" };
    expect(opTranscriptText({ name: "fill", args })).toBe('fill {"target":{"ref":"e3"},"value":"hunter2"}');
    expect(opTranscriptText({ name: "fill", args }, ["value"])).toBe(`fill {"target":{"ref":"e3"},"value":"${SECRET_ARG}"}`);
    const form = { fields: [{ target: { ref: "e1" }, value: "ada" }, { target: { ref: "e2" }, value: "pw" }] };
    expect(opTranscriptText({ name: "fill_form", args: form }, ["fields.1.value", "fields.9.value"])).toBe(`fill_form {"fields":[{"target":{"ref":"e1"},"value":"ada"},{"target":{"ref":"e2"},"value":"${SECRET_ARG}"}]}`);
    expect(args.value).toBe("hunter2");
  });
});

describe("URL patterns of waits", () => {
  it("match exactly, or as globs: * within a segment, ** across", () => {
    expect(urlMatcher("http://a.test/x")("http://a.test/x")).toBe(true);
    expect(urlMatcher("http://a.test/x")("http://a.test/x?y")).toBe(false);
    expect(urlMatcher("**/api/*")("http://a.test/v1/api/data?token=1")).toBe(true);
    expect(urlMatcher("**/api/*")("http://a.test/api/v1/data")).toBe(false);
    expect(urlMatcher("http://a.test/*.html")("http://a.test/p.html")).toBe(true);
    expect(urlMatcher("http://a.test/*.html")("http://a.test/phtml")).toBe(false);
    expect(urlMatcher("http://a.test/**")("http://a.test/")).toBe(true);
    expect(urlMatcher("*")("a/b")).toBe(false);
  });

  it("never backtrack: a pattern that would take a backtracking matcher years answers at once", () => {
    const url = `data:text/html,${"a".repeat(200_000)}`;
    expect(urlMatcher(`${"**a".repeat(40)}**b`)(url)).toBe(false);
    expect(urlMatcher(`**/${"*a".repeat(40)}*`)(url)).toBe(true);
  });
});

describe("the CLI verbs", () => {
  const spec = (name: string) => OPERATIONS.find((o) => o.name === name)!;

  it("take their arguments as words, flags and --args JSON", () => {
    expect(opArgsFromCli(spec("navigate"), {}, ["http://127.0.0.1:1/"])).toEqual({ url: "http://127.0.0.1:1/" });
    expect(opArgsFromCli(spec("click"), { double: true }, ["e3"])).toEqual({ target: "e3", double: true });
    expect(opArgsFromCli(spec("click"), { role: "button", name: "Go", exact: false }, [])).toEqual({ target: { role: "button", name: "Go", exact: false } });
    expect(opArgsFromCli(spec("fill"), { label: "Email" }, ["a@b.c"])).toEqual({ target: { label: "Email" }, value: "a@b.c" });
    expect(opArgsFromCli(spec("type"), {}, ["hello"])).toEqual({ text: "hello" });
    expect(opArgsFromCli(spec("type"), { submit: true }, ["e4", "hello"])).toEqual({ target: "e4", text: "hello", submit: true });
    expect(opArgsFromCli(spec("press"), {}, ["Enter"])).toEqual({ key: "Enter" });
    expect(opArgsFromCli(spec("select"), {}, ["e2", "red", "blue"])).toEqual({ target: "e2", values: ["red", "blue"] });
    expect(opArgsFromCli(spec("fill_form"), {}, ["e2=bob", "e3=a=b"])).toEqual({ fields: [{ target: "e2", value: "bob" }, { target: "e3", value: "a=b" }] });
    expect(opArgsFromCli(spec("snapshot"), { "max-chars": 500, interactive: true }, [])).toEqual({ maxChars: 500, interactive: true });
    expect(opArgsFromCli(spec("wait_for"), { text: "Done" }, [])).toEqual({ text: "Done" });
    expect(opArgsFromCli(spec("observe"), { since: 4 }, ["console"])).toEqual({ source: "console", since: 4 });
    expect(opArgsFromCli(spec("drag"), {}, ["e1", "e2"])).toEqual({ source: "e1", target: "e2" });
    expect(opArgsFromCli(spec("click"), { args: '{"target":{"testId":"go"},"button":"right"}' }, [])).toEqual({ target: { testId: "go" }, button: "right" });
  });

  it("refuse a word that is no ref where a target goes, and words too many", () => {
    expect(failure(() => opArgsFromCli(spec("click"), {}, ["#submit"])).message).toMatch(/^TARGET: expected a ref like e12/);
    expect(failure(() => opArgsFromCli(spec("back"), {}, ["extra"])).message).toMatch(/one word too many/);
    expect(failure(() => opArgsFromCli(spec("click"), { args: "{" }, [])).message).toMatch(/--args: not valid JSON/);
    expect(failure(() => opArgsFromCli(spec("fill_form"), {}, ["bob"])).message).toMatch(/REF=VALUE/);
  });

  it("name what the user typed when the operation's own check refuses: the flag, the word, the verb", () => {
    expect(failure(() => opArgsFromCli(spec("snapshot"), { "max-chars": 5 }, [])).message).toBe("--max-chars: must be at least 200");
    expect(failure(() => opArgsFromCli(spec("snapshot"), { "max-chars": NaN }, [])).message).toBe("--max-chars: expected a finite number, got NaN");
    expect(failure(() => opArgsFromCli(spec("screenshot"), { "full-page": true }, ["e2"])).message).toBe("screenshot: give one of TARGET, --full-page, not TARGET and --full-page");
    expect(failure(() => opArgsFromCli(spec("navigate"), {}, [])).message).toMatch(/^URL: navigate needs url/);
    expect(failure(() => opArgsFromCli(spec("click"), { button: "top" }, ["e1"])).message).toBe("--button: expected one of left, right, middle");
  });

  it("have flags that clash neither with each other nor with the global ones", () => {
    const global = new Set([...GLOBAL_OPTIONS, ...POLICY_OPTIONS].flatMap((o) => [o.name, ...(o.alias ? [o.alias] : [])]));
    for (const s of OPERATIONS) {
      const names = verbOptions(s).flatMap((o) => [o.name, ...(o.alias ? [o.alias] : [])]);
      expect(new Set(names).size, s.name).toBe(names.length);
      for (const n of names) expect(global.has(n), `${s.name} --${n}`).toBe(false);
    }
  });
});

describe("docs/operations.md", () => {
  it("holds the reference generated from the table", () => {
    const doc = readFileSync(new URL("../../docs/operations.md", import.meta.url), "utf8");
    const start = doc.indexOf(REFERENCE_BEGIN);
    const end = doc.indexOf(REFERENCE_END);
    expect(start, "the generated section's markers").toBeGreaterThanOrEqual(0);
    expect(doc.slice(start, end + REFERENCE_END.length), "run: node scripts/operations-doc.mjs").toBe(operationsReference(OPERATIONS));
  });
});
