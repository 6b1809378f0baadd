// The suite's skip report: every skipped test is counted and named with its
// reason, and under BETTERWRIGHT_TEST_REQUIRE_ALL=1 (CI) a skip of any kind
// fails the run, so no security suite can pass by not running.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const VITEST = path.join(ROOT, "node_modules", "vitest", "vitest.mjs");

describe("the skip report", () => {
  // Inside the project, so that the probe resolves vitest from its node_modules.
  const dir = mkdtempSync(path.join(ROOT, "test", ".skip-probe-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, "probe.test.ts"), [
    `import { it } from "vitest";`,
    `it.runIf(false)("a suite that cannot run here", () => {});`,
    `it("a test that runs", (ctx) => {});`,
    `it("a test that skips itself", (ctx) => ctx.skip("no second user"));`,
  ].join("\n"));
  writeFileSync(path.join(dir, "vitest.config.ts"), [
    `import { defineConfig } from "vitest/config";`,
    `export default defineConfig({ test: { include: ["probe.test.ts"], reporters: ["default", ${JSON.stringify(path.join(ROOT, "test", "helpers", "skip-report.ts"))}] } });`,
  ].join("\n"));
  const run = (requireAll: boolean) => {
    const env = { ...process.env, BETTERWRIGHT_TEST_REQUIRE_ALL: requireAll ? "1" : "0", NO_COLOR: "1" };
    return spawnSync(process.execPath, [VITEST, "run", "--root", dir], { env, encoding: "utf8", timeout: 60_000 });
  };

  it("names each skipped test and its reason, and passes where skips are allowed", () => {
    const result = run(false);
    expect(result.stdout).toContain("2 tests skipped:");
    expect(result.stdout).toContain("probe.test.ts > a suite that cannot run here");
    expect(result.stdout).toContain("probe.test.ts > a test that skips itself: no second user");
    expect(result.status).toBe(0);
  });

  it("fails the run under BETTERWRIGHT_TEST_REQUIRE_ALL=1", () => {
    const result = run(true);
    expect(result.stdout).toContain("every test must run here");
    expect(result.status).toBe(1);
  });
});
