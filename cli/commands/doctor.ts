// betterwright doctor [--json]: browser, home, socket, daemon: what is wrong
// and the command that fixes it. Never starts a daemon or a browser.
import { accessSync, constants, statSync } from "node:fs";
import type { Argv } from "yargs";
import { connectExisting } from "../../client/library/daemon-client.js";
import { findBrowser, INSTALL_HINT } from "../../shared/browser-discovery.js";
import type { Settings } from "../../shared/config.js";
import { probeContainment, type ContainmentStatus } from "../../shared/containment.js";
import { headedDisplayProblem, HEADED_FIX } from "../../shared/display.js";
import { BwError } from "../../shared/protocol/errors.js";
import { homeProblem } from "../../shared/home-check.js";
import type { PathProblem } from "../../shared/path-trust.js";
import { layoutFor, type HomeLayout } from "../../shared/paths.js";
import { Status, type StatusResult } from "../../shared/protocol/methods/index.js";
import { PACKAGE_VERSION } from "../../shared/version.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { EXIT, printJson, wantsJson } from "../output.js";
import { safeLine } from "../../shared/safe-text.js";
import { endpointChecks } from "./doctor-endpoints.js";

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

function nodeCheck(): Check {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  const ok = major > 20 || (major === 20 && minor >= 19);
  return { name: "node", ok, detail: `Node.js ${process.versions.node}`, ...(ok ? {} : { fix: "install Node.js 20.19 or newer" }) };
}

function homeCheck(layout: HomeLayout): Check {
  const { home } = layout;
  // Another user's home, or one others can write, is refused by every call: say what to fix.
  const problem = homeProblem(layout);
  if (problem) return { name: "home", ok: false, detail: `${problem.path} ${problem.reason}`, fix: problem.fix };
  try {
    const stat = statSync(home);
    accessSync(home, constants.W_OK);
    const mode = stat.mode & 0o777;
    if (mode & 0o077) return { name: "home", ok: false, detail: `${home} is mode ${mode.toString(8)}; others can read it`, fix: `chmod 700 ${home}` };
    return { name: "home", ok: true, detail: `${home} (mode 700)` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { name: "home", ok: true, detail: `${home} (created on first use)` };
    return { name: "home", ok: false, detail: `${home} is not writable (${code})`, fix: `choose a writable home with --home DIR or BETTERWRIGHT_HOME` };
  }
}

/** Only for a headed browser: whether there is a display to open its window on. */
function displayCheck(settings: Settings): Check[] {
  if (settings.headless) return [];
  const problem = headedDisplayProblem(process.env, process.platform);
  if (problem) return [{ name: "display", ok: false, detail: problem, fix: HEADED_FIX }];
  return [{ name: "display", ok: true, detail: process.env.WAYLAND_DISPLAY ? `Wayland ${process.env.WAYLAND_DISPLAY}` : `X11 ${process.env.DISPLAY ?? ""}` }];
}

function browserCheck(settings: Settings): Check {
  const { found, problem, searched } = findBrowser({ explicit: settings.browser, headless: settings.headless, preferFull: settings.stealth });
  if (found) return { name: "browser", ok: true, detail: `${found.path} (${found.source}${found.headlessShell ? ", headless shell" : ""})` };
  return { name: "browser", ok: false, detail: `${problem}; looked in ${searched.join(", ")}`, fix: INSTALL_HINT };
}

/**
 * Whether a worker started now would be contained, and what the running daemon's is. Uncontained is a
 * failed check only under requireContainment (the daemon would not start); otherwise it is said, with the fix.
 */
function containmentCheck(settings: Settings, here: ContainmentStatus, running: ContainmentStatus | undefined): Check {
  const ok = here.active || !settings.requireContainment;
  if (here.active) {
    const stale = running !== undefined && !running.active
      ? `; the running daemon started without it (${running.reason}): betterwright${settings.profile === "default" ? "" : ` --profile ${settings.profile}`} close --all, and the next call starts it contained`
      : "";
    return { name: "containment", ok, detail: `the worker runs in its own network, mount and pid namespaces (bwrap ${here.version})${stale}` };
  }
  return {
    name: "containment",
    ok,
    detail: `UNAVAILABLE: ${here.reason}; the worker runs uncontained and every envelope carries CONTAINMENT_UNAVAILABLE${settings.requireContainment ? "; requireContainment is set, so the daemon will not start" : ""}`,
    fix: here.fix,
  };
}

export async function runChecks(settings: Settings): Promise<{ checks: Check[]; daemon: unknown }> {
  const layout = layoutFor(settings.home, settings.profile);
  const containment = probeContainment({ env: process.env });
  const checks = [nodeCheck(), homeCheck(layout), browserCheck(settings), ...displayCheck(settings)];
  const socketBytes = Buffer.byteLength(layout.socketPath);
  checks.push({
    name: "socket",
    ok: true,
    detail: layout.socketPath === layout.homeSocketPath ? `${layout.socketPath} (${socketBytes} bytes)` : `${layout.socketPath} (the home's path is too long for a unix socket; a short one is used)`,
  });
  let daemon: unknown = null;
  let runningContainment: ContainmentStatus | undefined;
  let endpoints: StatusResult["endpoints"];
  const connection = await connectExisting(layout).catch((error: Error) => {
    if (error instanceof BwError && error.code === "UNSAFE_PATH") {
      const problem = error.details as PathProblem;
      checks.push({ name: "daemon", ok: false, detail: `not asked: ${problem.path} ${problem.reason}`, fix: problem.fix });
      return undefined;
    }
    checks.push({ name: "daemon", ok: false, detail: `cannot talk to the daemon: ${error.message}`, fix: `betterwright${settings.profile === "default" ? "" : ` --profile ${settings.profile}`} close --all` });
    return undefined;
  });
  if (connection) {
    try {
      const status = await connection.peer.call(Status, {});
      daemon = status;
      const sameVersion = status.version === PACKAGE_VERSION;
      checks.push({
        name: "daemon",
        ok: true,
        detail: `pid ${status.pid}, version ${status.version}${sameVersion ? "" : ` (this client is ${PACKAGE_VERSION}; it is replaced when idle)`}, up ${Math.round(status.uptimeMs / 1000)} s, ${status.sessions.length} session(s), browser ${status.browser.running ? "running" : "not started"}`,
      });
      checks.push({ name: "policy", ok: true, detail: JSON.stringify(status.settings.policy) });
      runningContainment = status.containment;
      endpoints = status.endpoints;
    } finally {
      connection.peer.close();
    }
  } else if (!checks.some((c) => c.name === "daemon")) {
    checks.push({ name: "daemon", ok: true, detail: "not running (started by the first call)" });
    checks.push({ name: "policy", ok: true, detail: JSON.stringify(settings.policy) });
  }
  checks.push(containmentCheck(settings, await containment, runningContainment));
  checks.push(...(await endpointChecks(settings, endpoints)));
  return { checks, daemon };
}

export function doctorCommand(ctx: CliInvocation) {
  return {
    command: "doctor",
    describe: "Check the browser, the home, the socket and the daemon; say what is wrong and how to fix it",
    builder: (y: Argv<GlobalArgs>) => y,
    handler: (args: GlobalArgs) => ctx.run(async () => {
      const { settings } = ctx.config(args);
      const { checks } = await runChecks(settings);
      const ok = checks.every((c) => c.ok);
      if (wantsJson(args)) printJson({ ok, profile: settings.profile, checks });
      else {
        for (const c of checks) {
          process.stdout.write(`${safeLine`${c.ok ? "✓" : "✗"} ${c.name.padEnd(8)} ${c.detail}`}\n${c.fix ? safeLine`  fix: ${c.fix}\n` : ""}`);
        }
      }
      return ok ? EXIT.ok : EXIT.infrastructure;
    }, args.json),
  };
}
