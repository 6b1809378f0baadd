// betterwright setup: find a browser, or install one. On Debian/Ubuntu as
// root, Debian's packages (apt-get); elsewhere Playwright's installer where
// the network allows; otherwise the exact command to run. On Linux it also
// installs bubblewrap (as root with apt-get), which contains the worker.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Argv } from "yargs";
import { findBrowser, INSTALL_HINT } from "../../shared/browser-discovery.js";
import { findBwrap, probeContainment } from "../../shared/containment.js";
import { setupBrowsersDir } from "../../shared/paths.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { EXIT, printJson, wantsJson } from "../output.js";
import { safeLine } from "../../shared/safe-text.js";

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return new Promise((resolve) => {
    process.stderr.write(`$ ${command} ${args.join(" ")}\n`);
    // Progress goes to stderr; stdout stays for the result.
    const child = spawn(command, args, { stdio: ["ignore", 2, 2], env: { ...env, DEBIAN_FRONTEND: "noninteractive" } });
    child.on("error", () => resolve(false));
    child.on("exit", (code) => resolve(code === 0));
  });
}

/** Playwright's own CLI (the browser installer): not in playwright-core's exports, but beside its package.json, which is. */
export function playwrightCliPath(): string {
  return path.join(path.dirname(createRequire(import.meta.url).resolve("playwright-core/package.json")), "cli.js");
}

/** Playwright's installer puts what it fetches in betterwright's own cache folder, which discovery searches first. */
export function playwrightInstallerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, PLAYWRIGHT_BROWSERS_PATH: setupBrowsersDir() };
}

async function install(): Promise<string> {
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync("/usr/bin/apt-get")) {
    if ((await run("apt-get", ["update", "-qq"])) && (await run("apt-get", ["install", "-y", "-qq", "chromium-headless-shell", "chromium"]))) return "apt-get";
  }
  if (await run(process.execPath, [playwrightCliPath(), "install", "chromium-headless-shell"], playwrightInstallerEnv(process.env))) return "playwright";
  return "";
}

/** bubblewrap where it is missing and apt-get can add it; says whether the worker can now be contained. */
async function ensureContainment(): Promise<{ active: boolean; detail: string }> {
  if (process.platform === "linux" && findBwrap(process.env) === undefined && process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")) {
    process.stderr.write("bwrap not found; installing bubblewrap to contain the worker\n");
    if (await run("apt-get", ["update", "-qq"])) await run("apt-get", ["install", "-y", "-qq", "bubblewrap"]);
  }
  const status = await probeContainment({ env: process.env });
  return status.active ? { active: true, detail: `bwrap ${status.version}` } : { active: false, detail: `${status.reason} (fix: ${status.fix})` };
}

export function setupCommand(ctx: CliInvocation) {
  return {
    command: "setup",
    describe: "Find a Chromium, or install one (apt-get on Debian/Ubuntu as root, else Playwright's installer)",
    builder: (y: Argv<GlobalArgs>) => y,
    handler: (args: GlobalArgs) => ctx.run(async () => {
      const { settings } = ctx.config(args);
      const discover = () => findBrowser({ explicit: settings.browser, headless: settings.headless });
      let { found } = discover();
      let installedWith = "";
      if (!found && !settings.browser) {
        process.stderr.write("no Chromium found; installing one\n");
        installedWith = await install();
        found = discover().found;
      }
      const containment = await ensureContainment();
      const result = found
        ? { ok: true, browser: found.path, source: found.source, ...(installedWith ? { installedWith } : {}), containment }
        : { ok: false, error: { code: "BROWSER_UNAVAILABLE", message: `${discover().problem}; install one with: ${INSTALL_HINT}`, retryable: false }, containment };
      if (wantsJson(args)) printJson(result);
      else {
        process.stdout.write(found ? safeLine`browser: ${found.path} (${found.source})\n` : safeLine`${result.error?.message}\n`);
        process.stdout.write(safeLine`containment: ${containment.active ? "available" : "UNAVAILABLE"}, ${containment.detail}\n`);
      }
      return found ? EXIT.ok : EXIT.infrastructure;
    }, args.json),
  };
}
