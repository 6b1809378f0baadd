// The run's last word on what did not run: how many tests skipped, each with
// its reason. Under BETTERWRIGHT_TEST_REQUIRE_ALL=1 (CI) any skip fails the
// run, however it was written (a `needs` helper, runIf, skipIf, ctx.skip): a
// security suite that passes by not running is a failure there.
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export default class SkipReport implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped: string[] = [];
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const result = test.result();
        if (result.state !== "skipped") continue;
        const note = result.note ? `: ${result.note}` : "";
        skipped.push(`${path.relative(process.cwd(), testModule.moduleId)} > ${test.fullName}${note}`);
      }
    }
    console.log(`\n${skipped.length} test${skipped.length === 1 ? "" : "s"} skipped${skipped.length > 0 ? ":" : "."}`);
    for (const line of skipped) console.log(`  - ${line}`);
    if (skipped.length > 0 && process.env.BETTERWRIGHT_TEST_REQUIRE_ALL === "1") {
      console.log("BETTERWRIGHT_TEST_REQUIRE_ALL=1: every test must run here, and the tests above did not.");
      process.exitCode = 1;
    }
  }
}
