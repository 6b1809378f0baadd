import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { expressionSource, mayBeExpression, snippetSources, snippetSyntaxError } from "../../shared/snippet-source.js";

const parses = (source: string) => {
  try {
    new vm.Script(source);
    return true;
  } catch {
    return false;
  }
};

describe("snippet sources", () => {
  it("skips the expression form only when the first token rules it out", () => {
    const statements = ["return 1", "  const a = 1; return a", "if (x) y()", "for (;;) break", "throw new Error('x')", "try { a() } catch {}", "var x", "while (0) {}", "do {} while (0)", "switch (1) {}"];
    for (const code of statements) {
      expect(mayBeExpression(code), code).toBe(false);
      // What the shortcut skips could never have parsed.
      expect(parses(expressionSource(code)), code).toBe(false);
      expect(snippetSources(code)).toHaveLength(1);
    }
  });

  it("keeps the expression form first for anything else, identifiers that begin like a keyword included", () => {
    const expressions = ["page.title()", "return$x", "returnä", "iffy", "// return\n1", "/* const */ 2", "let", "(async () => 1)()", "class {}", "function () {}"];
    for (const code of expressions) {
      expect(mayBeExpression(code), code).toBe(true);
      expect(snippetSources(code)).toHaveLength(2);
    }
  });

  it("reports syntax errors as before", () => {
    expect(snippetSyntaxError("return 1")).toBeUndefined();
    expect(snippetSyntaxError("page.title()")).toBeUndefined();
    expect(snippetSyntaxError("return (")).toBeTypeOf("string");
  });
});

describe("a snippet's parse error", () => {
  it("names the line and column as typed, never the wrapper's text", () => {
    expect(snippetSyntaxError("const a = 1;\nlet x = ;")).toBe("Unexpected token ';' at line 2, column 9");
    expect(snippetSyntaxError("foo bar")).toBe("Unexpected identifier 'bar' at line 1, column 5");
  });

  it("calls an unfinished snippet unfinished, at its end", () => {
    for (const code of ["return page.title(", "page.title(", "return [1,\n2"]) {
      const text = snippetSyntaxError(code)!;
      expect(text, code).toMatch(/^the snippet's brackets do not match .* at the end of line \d$/);
      expect(text, code).not.toContain("'}'");
    }
    expect(snippetSyntaxError("return [1,\n2")).toMatch(/end of line 2$/);
    expect(snippetSyntaxError("return `abc")).toBe("the snippet ends before it is complete (an unclosed brace, string, template or comment?) at the end of line 1");
  });
});
