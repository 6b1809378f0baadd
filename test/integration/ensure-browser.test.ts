// scripts/ensure-browser.sh says on stderr what it found, so a person running
// the README's quick start learns which browser and containment tool it uses.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../../scripts/ensure-browser.sh", import.meta.url));
const ALL_THERE = ["/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium"].every(existsSync) && spawnSync("sh", ["-c", "command -v bwrap"]).status === 0;

describe("scripts/ensure-browser.sh", () => {
  // Where something is missing the script would install it (as root): not a test's business.
  it.skipIf(!ALL_THERE)("names each browser and bwrap it found, with their versions, and installs nothing", () => {
    const run = spawnSync("bash", [SCRIPT], { encoding: "utf8", timeout: 30_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^ensure-browser: found \/usr\/lib\/chromium\/chromium-headless-shell \(Chromium \d+[.\d]*\)$/m);
    expect(run.stderr).toMatch(/^ensure-browser: found \/usr\/lib\/chromium\/chromium \(Chromium \d+[.\d]*\)$/m);
    expect(run.stderr).toMatch(/^ensure-browser: found \S*bwrap \(bubblewrap [\d.]+\)/m);
    expect(run.stderr).toMatch(/^ensure-browser: nothing to install$/m);
  });
});
