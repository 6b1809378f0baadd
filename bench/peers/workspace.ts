// A side-by-side run's temporary folder: one folder per tool below it, an
// environment without betterwright's own variables, and a teardown that ends
// by pid whatever still points into the folder before removing it.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { processesUnder, reap, treeOf } from "./reap.js";
import type { ToolSetup } from "./tools.js";

export interface PeersWorkspace {
  dir: string;
  baseEnv: NodeJS.ProcessEnv;
  /** A folder of the tool's own, and what it starts from. */
  setupFor(name: string): ToolSetup;
  /** Ends what is left under the folder and removes it; resolves with the pids that needed SIGKILL. */
  remove(): Promise<number[]>;
}

export function peersWorkspace(prefix: string, browser: string, env: NodeJS.ProcessEnv): PeersWorkspace {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const baseEnv: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!k.startsWith("BETTERWRIGHT_")) baseEnv[k] = v;
  return {
    dir,
    baseEnv,
    setupFor(name) {
      const own = path.join(dir, name);
      mkdirSync(own, { recursive: true });
      return { dir: own, browser, baseEnv };
    },
    async remove() {
      const left = await reap(treeOf(processesUnder([dir])));
      rmSync(dir, { recursive: true, force: true });
      return left;
    },
  };
}
