import { describe, expect, it } from "vitest";
import { SnippetSplitter } from "../../cli/snippet-splitter.js";

function split(text: string): string[] {
  const splitter = new SnippetSplitter();
  const out: string[] = [];
  for (const line of text.split("\n")) out.push(...splitter.line(line));
  out.push(...splitter.end());
  return out;
}

describe("splitting repl input into snippets", () => {
  it.each([
    ["one snippet", "return 1\n", ["return 1"]],
    ["blank lines separate", "await page.goto(u)\n\nreturn page.url()\n", ["await page.goto(u)", "return page.url()"]],
    ["several blank lines count as one", "a()\n\n\n\nb()", ["a()", "b()"]],
    ["whitespace-only lines are blank", "a()\n  \t\nb()", ["a()", "b()"]],
    ["a chunk that only parses with the next is joined", "function f() {\n  const x = 1;\n\n  return x;\n}\n\nreturn f()", ["function f() {\n  const x = 1;\n\n  return x;\n}", "return f()"]],
    ["a template literal with a blank line inside", "const s = `a\n\nb`;\nreturn s", ["const s = `a\n\nb`;\nreturn s"]],
    ["an unfinished snippet at the end is still sent", "return (\n", ["return ("]],
    ["a broken chunk does not swallow the good ones after it", "return (\n\nreturn 1\n\nreturn 2", ["return (", "return 1", "return 2"]],
    ["empty input gives nothing", "\n\n", []],
  ])("%s", (_name, input, expected) => {
    expect(split(input)).toEqual(expected);
  });
});
