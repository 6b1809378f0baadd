// Tests that need something a machine may lack (root, a second user, a
// loopback-only namespace, a small file system, containment) run where they
// can and otherwise skip with one printed line saying what is missing. Where
// BETTERWRIGHT_TEST_REQUIRE_ALL=1 (CI, as root) a missing need fails instead,
// so no security suite can quietly stop running.
import { describe, it, type TestContext } from "vitest";

const requireAll = process.env.BETTERWRIGHT_TEST_REQUIRE_ALL === "1";

export const runningAsRoot = process.getuid?.() === 0;
export const NEEDS_ROOT = runningAsRoot ? undefined : "needs root: it plays another local user (setpriv to nobody)";

function announce(name: string, missing: string): void {
  console.warn(`skipped "${name}": ${missing}`);
}

/** `describe(name, body)` where `missing` is undefined; otherwise a printed skip (a failure under REQUIRE_ALL). */
export function describeNeeding(missing: string | undefined, name: string, body: () => void): void {
  if (missing === undefined) return describe(name, body);
  if (requireAll) {
    return describe(name, () => it("can run on this machine", () => {
      throw new Error(`BETTERWRIGHT_TEST_REQUIRE_ALL=1 and this suite cannot run: ${missing}`);
    }));
  }
  announce(name, missing);
  describe.skip(name, body);
}

/** `it(name, fn)` where `missing` is undefined; otherwise a printed skip (a failure under REQUIRE_ALL). */
export function itNeeding(missing: string | undefined, name: string, fn: () => unknown, timeoutMs?: number): void {
  if (missing === undefined) return it(name, fn, timeoutMs);
  if (requireAll) {
    return it(name, () => {
      throw new Error(`BETTERWRIGHT_TEST_REQUIRE_ALL=1 and this test cannot run: ${missing}`);
    });
  }
  announce(name, missing);
  it.skip(name, fn);
}

/** Inside a running test: skip it for `missing` (printed), or fail under REQUIRE_ALL. Returns whether it was skipped. */
export function skipFor(ctx: TestContext, missing: string | undefined): boolean {
  if (missing === undefined) return false;
  if (requireAll) throw new Error(`BETTERWRIGHT_TEST_REQUIRE_ALL=1 and this test cannot run: ${missing}`);
  announce(ctx.task.name, missing);
  ctx.skip(missing);
  return true;
}
