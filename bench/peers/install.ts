// Installing a peer from the npm registry into a folder of its own (never
// globally, never into this project). Each package is installed alone so that
// one that cannot install leaves the others measurable.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { runCli } from "./run-cli.js";

export type Installed = { ok: true; version: string; packageDir: string } | { ok: false; reason: string };

/**
 * `spec` names a dist-tag: without one, npm on an older Node picks the newest
 * release whose `engines` it satisfies, which may be far behind the current one.
 */
export async function installPeer(prefix: string, name: string, spec: string, env: NodeJS.ProcessEnv): Promise<Installed> {
  try {
    mkdirSync(prefix, { recursive: true });
    await runCli({
      command: "npm",
      args: ["install", "--prefix", prefix, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", `${name}@${spec}`],
      env,
      cwd: prefix,
      timeoutMs: 180_000,
    });
  } catch (error) {
    return { ok: false, reason: `npm install failed: ${firstLine(error)}` };
  }
  const packageDir = path.join(prefix, "node_modules", name);
  try {
    const { version } = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version: string };
    return { ok: true, version, packageDir };
  } catch (error) {
    return { ok: false, reason: `installed, but its package.json is unreadable: ${firstLine(error)}` };
  }
}

export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n").find((l) => l.trim())?.trim().slice(0, 200) ?? "unknown error";
}
