// Stealth mode's settings and launch choices: off by default; on from
// config.json, BETTERWRIGHT_STEALTH or --stealth (flags beat environment beat
// the file), and then part of what shapes the daemon; full Chromium before
// the headless shell; a user agent that says Chrome, not HeadlessChrome.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { daemonSettingsOf, resolveConfig } from "../../shared/config.js";
import { findBrowser } from "../../shared/browser-discovery.js";
import { desktopUserAgent, stealthArgs } from "../../daemon/browser-worker/stealth/stealth-launch.js";
import { failure } from "../helpers/failure.js";

describe("the stealth setting", () => {
  let home: string;
  beforeEach(() => {
    home = realpathSync(mkdtempSync(path.join(tmpdir(), "bw-stealth-config-")));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it("is off by default and stated by nobody", () => {
    const { settings, explicit } = resolveConfig({ flags: { home }, env: {} });
    expect(settings.stealth).toBe(false);
    expect(explicit.stealth).toBeUndefined();
  });

  it("comes from config.json, the environment and the flag, in that order, and shapes the daemon", () => {
    writeFileSync(path.join(home, "config.json"), JSON.stringify({ stealth: true }));
    expect(resolveConfig({ flags: { home }, env: {} }).settings.stealth).toBe(true);
    const fromEnv = resolveConfig({ flags: { home }, env: { BETTERWRIGHT_STEALTH: "0" } });
    expect(fromEnv.settings.stealth).toBe(false);
    expect(fromEnv.explicit.stealth).toBe(false);
    const fromFlag = resolveConfig({ flags: { home, stealth: true }, env: { BETTERWRIGHT_STEALTH: "0" } });
    expect(fromFlag.explicit.stealth).toBe(true);
    expect(daemonSettingsOf(fromFlag.settings).stealth).toBe(true);
  });

  it("names its source when its value is not a yes or no", () => {
    expect(failure(() => resolveConfig({ flags: { home }, env: { BETTERWRIGHT_STEALTH: "maybe" } }))).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("BETTERWRIGHT_STEALTH") });
  });
});

describe("stealth mode's browser and flags", () => {
  const system = (files: string[]) => (file: string) => files.includes(file);
  const both = system(["/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium"]);

  it("takes full Chromium before the headless shell, and the shell when it is all there is", () => {
    expect(findBrowser({ explicit: null, headless: true, exists: both, playwrightCacheDirs: [] }).found).toMatchObject({ headlessShell: true });
    expect(findBrowser({ explicit: null, headless: true, preferFull: true, exists: both, playwrightCacheDirs: [] }).found).toMatchObject({ path: "/usr/lib/chromium/chromium", headlessShell: false });
    const shellOnly = system(["/usr/lib/chromium/chromium-headless-shell"]);
    expect(findBrowser({ explicit: null, headless: true, preferFull: true, exists: shellOnly, playwrightCacheDirs: [] }).found).toMatchObject({ headlessShell: true });
  });

  it("turns off navigator.webdriver and sends the headed build's user agent", () => {
    expect(desktopUserAgent(156, "linux")).toBe("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36");
    expect(stealthArgs(156, "linux")).toEqual(["--disable-blink-features=AutomationControlled", `--user-agent=${desktopUserAgent(156, "linux")}`]);
    expect(stealthArgs(undefined, "linux")).toEqual(["--disable-blink-features=AutomationControlled"]);
  });
});
