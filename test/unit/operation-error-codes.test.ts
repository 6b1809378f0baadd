// Every code a typed operation can fail with is documented: each code the
// operations' own code throws (daemon/browser-worker/ops/) is in the error table, has
// a row in the README's error table, and is in docs/operations.md's table of
// failures, and every code that table names is a real one.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, isErrorCode } from "../../shared/protocol/errors.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(path.join(root, file)).isDirectory() ? sources(file) : file.endsWith(".ts") ? [file] : [];
  });
}

/** The codes `new BwError("CODE", …)` in the operations' code. */
function thrownCodes(): Set<string> {
  const codes = new Set<string>();
  for (const file of sources("daemon/browser-worker/ops")) {
    for (const match of read(file).matchAll(/new BwError\(\s*"([A-Z_]+)"/g)) codes.add(match[1]!);
  }
  return codes;
}

/** The codes docs/operations.md's Failures table names. */
function documentedCodes(): Set<string> {
  const doc = read("docs/operations.md");
  const section = doc.slice(doc.indexOf("## Failures"), doc.indexOf("\n## ", doc.indexOf("## Failures") + 1));
  const rows = section.split("\n").filter((l) => l.startsWith("| `"));
  return new Set(rows.flatMap((row) => [...row.split("|")[1]!.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!)));
}

describe("the codes an operation can fail with", () => {
  const readme = read("README.md").split("\n");
  const thrown = thrownCodes();
  const documented = documentedCodes();

  it("finds the operations' codes", () => {
    expect(thrown).toContain("ELEMENT_NOT_FOUND");
    expect(thrown).toContain("ELEMENT_OBSCURED");
    expect(thrown).toContain("STALE_REF");
  });

  it.each([...thrown])("%s is in the error table, the README's and the operations' failures", (code) => {
    expect(isErrorCode(code)).toBe(true);
    expect(readme.some((line) => line.startsWith(`| \`${code}\` |`)), `README row for ${code}`).toBe(true);
    expect(documented.has(code), `docs/operations.md#failures names ${code}`).toBe(true);
  });

  it("names only codes of the error table in docs/operations.md#failures", () => {
    expect(documented.size).toBeGreaterThan(5);
    for (const code of documented) expect(Object.hasOwn(ERROR_CODES, code), code).toBe(true);
  });
});
