// `betterwright setup` falls back to Playwright's installer where apt-get is not an option: its CLI must be found
// and run, and what it fetches must land in betterwright's cache folder (env-paths), where discovery looks first.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// env-paths reads the environment when it loads: point its cache folder at a temp dir first.
const cacheHome = mkdtempSync(path.join(tmpdir(), "bw-setup-cache-"));
process.env.XDG_CACHE_HOME = cacheHome;
const { playwrightCliPath, playwrightInstallerEnv } = await import("../../cli/commands/setup.js");
const { findBrowser } = await import("../../shared/browser-discovery.js");
const { setupBrowsersDir } = await import("../../shared/paths.js");

describe("setup's Playwright installer", () => {
  afterAll(() => rmSync(cacheHome, { recursive: true, force: true }));

  it("finds playwright-core's cli.js although the package does not export it, and it answers", () => {
    const help = execFileSync(process.execPath, [playwrightCliPath(), "install", "--help"], { encoding: "utf8" });
    expect(help).toMatch(/install/);
    expect(help).toMatch(/chromium/i);
  });

  it.runIf(process.platform === "linux")("installs into env-paths' cache folder, and discovery finds what it installs there first", () => {
    expect(setupBrowsersDir()).toBe(path.join(cacheHome, "betterwright", "browsers"));
    // --dry-run says where the browser would go, without fetching it.
    const plan = execFileSync(process.execPath, [playwrightCliPath(), "install", "--dry-run", "chromium-headless-shell"], {
      encoding: "utf8",
      env: playwrightInstallerEnv(process.env),
    });
    const location = /Install location:\s+(\S*chromium_headless_shell-\d+)/.exec(plan)?.[1];
    expect(location, plan).toBeDefined();
    expect(path.dirname(location!)).toBe(setupBrowsersDir());
    // What the archive unpacks to.
    const binary = path.join(location!, "chrome-headless-shell-linux64", "chrome-headless-shell");
    mkdirSync(path.dirname(binary), { recursive: true });
    writeFileSync(binary, "#!/bin/sh\n");
    chmodSync(binary, 0o755);
    expect(findBrowser({ explicit: null, headless: true }).found).toEqual({ path: binary, source: "playwright", headlessShell: true });
  });
});
