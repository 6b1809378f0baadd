// The three tools as the bench drives them: each call is one whole CLI
// process, as a shell script or an agent would make it. Every tool keeps all
// it writes (homes, sockets, profiles, temp files) under its own folder, so its
// processes can be found there and the folder removed afterwards.
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { expectText, runCli, type CliResult } from "./run-cli.js";

export interface ToolSetup {
  /** The tool's own folder; everything it writes goes below it. */
  dir: string;
  browser: string;
  /** The environment every tool starts from: the bench's, less betterwright's own variables. */
  baseEnv: NodeJS.ProcessEnv;
}

export interface Tool {
  name: string;
  version: string;
  dir: string;
  /** Navigates a session to url in one call, starting the session (and its daemon, if it has one per session) when new. */
  navigate(session: string, url: string, title: string): Promise<CliResult>;
  /** Reads the page title of an open session in one call. */
  title(session: string, title: string): Promise<CliResult>;
  /** Run i of the first call with no daemon running: navigate and print the title. Its teardown is not timed. */
  cold(i: number, url: string, title: string): Promise<CliResult>;
  /** The tool's own way of closing everything it started. */
  closeAll(): Promise<void>;
}

function folders(dir: string, ...names: string[]): string[] {
  return names.map((name) => {
    const folder = path.join(dir, name);
    mkdirSync(folder, { recursive: true });
    return folder;
  });
}

export function betterwright(setup: ToolSetup & { cli: string; version: string }): Tool {
  const [ws] = folders(setup.dir, "ws");
  const homes = new Set<string>();
  const run = (home: string, ...args: string[]) => {
    homes.add(home);
    const env = { ...setup.baseEnv, BETTERWRIGHT_HOME: home, BETTERWRIGHT_BROWSER: setup.browser };
    return runCli({ command: process.execPath, args: [setup.cli, ...args], env, cwd: ws! });
  };
  const main = path.join(setup.dir, "home");
  const goto = (url: string) => `await page.goto(${JSON.stringify(url)}); return page.title()`;
  return {
    name: "betterwright",
    version: setup.version,
    dir: setup.dir,
    navigate: async (session, url, title) => expectText(await run(main, "exec", "--session", session, "-c", goto(url)), title),
    title: async (session, title) => expectText(await run(main, "exec", "--session", session, "-c", "return page.title()"), title),
    async cold(i, url, title) {
      const home = path.join(setup.dir, `cold-${i}`);
      const result = expectText(await run(home, "exec", "-c", goto(url)), title);
      await run(home, "close", "--all");
      return result;
    },
    async closeAll() {
      for (const home of homes) await run(home, "close", "--all").catch(() => {});
    },
  };
}

/** The native binary the package ships for this platform, which a global install links directly. */
export function agentBrowserBinary(packageDir: string): string | undefined {
  const arch = ({ x64: "x64", arm64: "arm64" } as Record<string, string>)[process.arch];
  const file = path.join(packageDir, "bin", `agent-browser-${process.platform}-${arch}${process.platform === "win32" ? ".exe" : ""}`);
  return arch && existsSync(file) ? file : undefined;
}

export function agentBrowser(setup: ToolSetup & { binary: string; version: string }): Tool {
  const [home, tmp, sock, ws] = folders(setup.dir, "home", "tmp", "sock", "ws");
  const env: NodeJS.ProcessEnv = {
    ...setup.baseEnv,
    HOME: home,
    TMPDIR: tmp,
    AGENT_BROWSER_SOCKET_DIR: sock,
    AGENT_BROWSER_EXECUTABLE_PATH: setup.browser,
    // Its check of the browser's version goes to a public website, which this bench never reaches.
    AGENT_BROWSER_NO_VERSION_CHECK: "1",
  };
  const run = (...args: string[]) => runCli({ command: setup.binary, args, env, cwd: ws! });
  return {
    name: "agent-browser",
    version: setup.version,
    dir: setup.dir,
    navigate: async (session, url, title) => expectText(await run("--session", session, "open", url), title),
    title: async (session, title) => expectText(await run("--session", session, "get", "title"), title),
    async cold(i, url, title) {
      const result = expectText(await run("--session", `cold-${i}`, "open", url), title);
      await run("--session", `cold-${i}`, "close");
      return result;
    },
    async closeAll() {
      await run("close", "--all").catch(() => {});
    },
  };
}

export function playwrightCli(setup: ToolSetup & { script: string; version: string }): Tool {
  const [home, tmp, ws] = folders(setup.dir, "home", "tmp", "ws");
  const env: NodeJS.ProcessEnv = {
    ...setup.baseEnv,
    HOME: home,
    TMPDIR: tmp,
    XDG_CACHE_HOME: path.join(home!, ".cache"),
    PLAYWRIGHT_MCP_EXECUTABLE_PATH: setup.browser,
    // As root Chromium runs only unsandboxed; betterwright and agent-browser launch it so as well.
    PLAYWRIGHT_MCP_SANDBOX: "false",
    // Its update check asks the npm registry on a call once a day.
    NO_UPDATE_NOTIFIER: "1",
  };
  const run = (...args: string[]) => runCli({ command: process.execPath, args: [setup.script, ...args], env, cwd: ws! });
  const open = new Set<string>();
  return {
    name: "playwright-cli",
    version: setup.version,
    dir: setup.dir,
    async navigate(session, url, title) {
      const verb = open.has(session) ? "goto" : "open";
      const result = expectText(await run(`-s=${session}`, verb, url), title);
      open.add(session);
      return result;
    },
    title: async (session, title) => expectText(await run(`-s=${session}`, "--raw", "eval", "document.title"), title),
    async cold(i, url, title) {
      const result = expectText(await run(`-s=cold-${i}`, "open", url), title);
      await run(`-s=cold-${i}`, "close");
      return result;
    },
    async closeAll() {
      open.clear();
      await run("close-all").catch(() => {});
    },
  };
}
