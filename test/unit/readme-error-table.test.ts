// The README's error table is the published list of codes: every code in
// the table of shared/protocol/errors.ts has a row there, with its exit code.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../shared/protocol/errors.js";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

describe("the README's error table", () => {
  it.each(Object.entries(ERROR_CODES))("documents %s with its exit code", (code, entry) => {
    const row = readme.split("\n").find((line) => line.startsWith(`| \`${code}\` |`));
    expect(row, `no README row for ${code}`).toBeDefined();
    expect(row!.trim().endsWith(`| ${entry.exit} |`)).toBe(true);
  });
});
