// What every scenario gets: a private home, the built CLI, a page server and
// the browser the product would pick.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findBrowser } from "../shared/browser-discovery.js";
import { startPageServer } from "./page-server.js";
import { runProcess } from "./stats.js";

export interface BenchContext {
  quick: boolean;
  cli: string;
  root: string;
  browser: string;
  url: string;
  /** A fresh home (and its env) for a scenario; stopped and removed by cleanup(). */
  home(name: string): { home: string; env: NodeJS.ProcessEnv };
  exec(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string>;
  cleanup(): Promise<void>;
}

export async function createContext(quick: boolean): Promise<BenchContext> {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const cli = path.join(root, "bin", "betterwright.js");
  const base = mkdtempSync(path.join(tmpdir(), "bw-bench-"));
  const server = await startPageServer();
  const browser = findBrowser({ explicit: null, headless: true }).found?.path;
  if (!browser) throw new Error("no Chromium found; run `betterwright setup`");
  const homes: { home: string; env: NodeJS.ProcessEnv }[] = [];
  const cleanEnv: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("BETTERWRIGHT_")) cleanEnv[k] = v;
  return {
    quick,
    cli,
    root,
    browser,
    url: server.url,
    home(name) {
      const home = path.join(base, name);
      const entry = { home, env: { ...cleanEnv, BETTERWRIGHT_HOME: home } };
      homes.push(entry);
      return entry;
    },
    exec: (env, ...args) => runProcess(process.execPath, [cli, ...args], env),
    async cleanup() {
      for (const h of homes) await runProcess(process.execPath, [cli, "close", "--all"], h.env).catch(() => {});
      await server.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
