// --headed on a machine with no display (no $DISPLAY, no $WAYLAND_DISPLAY):
// the call fails at once with BROWSER_UNAVAILABLE saying what is missing and
// how to fix it, instead of Playwright's "Target page, context or browser has
// been closed"; doctor --headed marks the display ✗ with the same fix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEADED_FIX } from "../../shared/display.js";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";

const NO_DISPLAY = { DISPLAY: undefined, WAYLAND_DISPLAY: undefined };

describe.runIf(process.platform === "linux")("--headed with no display", () => {
  let home: string;

  beforeAll(() => {
    home = tempHome("bw-headed-");
  });

  afterAll(async () => {
    await destroyHome(home);
  });

  it("exec fails with BROWSER_UNAVAILABLE (exit 3), naming the missing variables and the fix", async () => {
    const result = await runCli(["--headed", "exec", "-c", "return 1"], { home, env: NO_DISPLAY, timeoutMs: 90_000 });
    const where = `exit ${result.code}\n${result.stdout}\n${result.stderr}`;
    expect(result.code, where).toBe(3);
    expect(result.json, where).toMatchObject({ ok: false, error: { code: "BROWSER_UNAVAILABLE" } });
    expect(result.json.error.message).toContain("$DISPLAY");
    expect(result.json.error.message).toContain("$WAYLAND_DISPLAY");
    expect(result.json.error.message).toContain(HEADED_FIX);
    expect(result.json.error.message).not.toMatch(/has been closed/);
    await runCli(["close", "--all"], { home, env: NO_DISPLAY });
  });

  it("doctor --headed marks the display ✗ with the fix and exits 3; headless, it has no display check", async () => {
    const headed = await runCli(["--headed", "doctor", "--json"], { home, env: NO_DISPLAY });
    expect(headed.code, headed.stdout + headed.stderr).toBe(3);
    expect(headed.json.checks).toContainEqual(expect.objectContaining({ name: "display", ok: false, fix: HEADED_FIX }));
    expect(headed.json.checks.find((c: { name: string }) => c.name === "display").detail).toMatch(/\$DISPLAY nor \$WAYLAND_DISPLAY/);
    const headless = await runCli(["doctor", "--json"], { home, env: NO_DISPLAY });
    expect(headless.json.checks.map((c: { name: string }) => c.name)).not.toContain("display");
  });
});
