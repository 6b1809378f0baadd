import { describe, expect, it } from "vitest";
import { MAX_FRAME_DEPTH, nestsDeeperThan } from "../../shared/protocol/framing.js";

describe("the frame depth scan", () => {
  const cases: [string, string, number, boolean][] = [
    ["flat object", '{"a":1,"b":"x"}', 1, false],
    ["exactly at the bound", "[[[]]]", 3, false],
    ["one past the bound", "[[[[]]]]", 3, true],
    ["objects and arrays mixed", '{"a":[{"b":[1]}]}', 3, true],
    ["brackets inside strings do not count", '["[[[[[[{{{{{"]', 1, false],
    ["an escaped quote does not end the string", '["\\"[[[[["]', 1, false],
    ["an escaped backslash before the quote does end it", '["\\\\",[[[]]]]', 3, true],
    ["an unclosed bomb", "[".repeat(1000), 256, true],
    ["an unterminated string", '["abc', 1, false],
    ["closers first do not hide later depth", "]]]][[[[[", 4, true],
  ];
  for (const [what, text, max, deeper] of cases) {
    it(what, () => expect(nestsDeeperThan(text, max)).toBe(deeper));
  }

  it("matches the depth JSON.parse builds on random nestings", () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const build = (depth: number): unknown => (depth === 0 ? "x]\"[" : rand() < 0.5 ? [build(depth - 1)] : { "k\"{": build(depth - 1) });
    for (let i = 0; i < 200; i++) {
      const depth = Math.floor(rand() * 12);
      const text = JSON.stringify(build(depth));
      expect(nestsDeeperThan(text, depth)).toBe(false);
      if (depth > 0) expect(nestsDeeperThan(text, depth - 1)).toBe(true);
    }
  });

  it("scans a 100,000-deep bomb without recursion and leaves room for real messages", () => {
    expect(nestsDeeperThan(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)).toBe(true);
    expect(MAX_FRAME_DEPTH).toBeGreaterThanOrEqual(64);
  });
});
