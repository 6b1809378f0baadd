// Drives the built CLI as a user would: a real process, a private home per test.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

export function cleanEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("BETTERWRIGHT_")) env[k] = v;
  return { ...env, BETTERWRIGHT_HOME: home, ...extra };
}

export function runCli(args: string[], options: { home: string; input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv(options.home, options.env), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`betterwright ${args.join(" ")} did not finish; stderr: ${stderr}`));
    }, options.timeoutMs ?? 90_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
    child.stdin.end(options.input ?? "");
  });
}

export function tempHome(prefix = "bw-test-"): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Pids of every daemon this home has an info file for. */
export function daemonPids(home: string): number[] {
  const pids: number[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(home);
  } catch {
    return pids;
  }
  for (const name of names) {
    if (!/^daemon(-.+)?\.json$/.test(name)) continue;
    try {
      pids.push(JSON.parse(readFileSync(path.join(home, name), "utf8")).pid);
    } catch {
      // torn or removed meanwhile
    }
  }
  return pids;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops every daemon of the home (gracefully, then by force: the daemon leads its own process group) and removes the home. */
export async function destroyHome(home: string): Promise<void> {
  const pids = daemonPids(home);
  for (const pid of pids) {
    try { process.kill(pid, "SIGTERM"); } catch { /* gone */ }
  }
  const until = Date.now() + 12_000;
  while (pids.some(isAlive) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  for (const pid of pids) {
    try { process.kill(-pid, "SIGKILL"); } catch { /* gone */ }
  }
  rmSync(home, { recursive: true, force: true });
}

export interface StartedCli {
  child: ReturnType<typeof spawn>;
  result: Promise<CliResult>;
}

/** Like runCli, but hands back the process too (to signal it while it runs). */
export function startCli(args: string[], options: { home: string; input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): StartedCli {
  const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv(options.home, options.env), stdio: ["pipe", "pipe", "pipe"] });
  const result = new Promise<CliResult>((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`betterwright ${args.join(" ")} did not finish; stderr: ${stderr}`));
    }, options.timeoutMs ?? 90_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
  child.stdin.end(options.input ?? "");
  return { child, result };
}
