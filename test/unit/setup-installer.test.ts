// `betterwright setup` falls back to Playwright's installer where apt-get is not an option: its CLI must be found and run.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { playwrightCliPath } from "../../cli/commands/setup.js";

describe("setup's Playwright installer", () => {
  it("finds playwright-core's cli.js although the package does not export it, and it answers", () => {
    const help = execFileSync(process.execPath, [playwrightCliPath(), "install", "--help"], { encoding: "utf8" });
    expect(help).toMatch(/install/);
    expect(help).toMatch(/chromium/i);
  });
});
