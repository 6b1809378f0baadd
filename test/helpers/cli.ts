// Drives the built CLI as a user would: a real process, a private home per test.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { assertNoCanaryInOutput, CANARY_SITE, canaryLeaksUnder, seedCanary } from "./canary.js";
import { alive } from "./procs.js";
import type { Envelope } from "../../shared/protocol/envelope.js";

export const CLI = fileURLToPath(new URL("../../dist/bin/betterwright.js", import.meta.url));

export interface CliOptions {
  home: string;
  input?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Run on a pseudo-terminal (util-linux `script`), as a person would: stderr then arrives on stdout too, lines end in LF. */
  terminal?: boolean;
}

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

export async function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  await homeReady(options.home);
  return startCli(args, options).result;
}

/** `exec --session S -c CODE` in `home`: the run's envelope, or a throw when the CLI printed none. */
export async function execSnippet(home: string, session: string, code: string): Promise<Envelope> {
  const r = await runCli(["exec", "--session", session, "-c", code], { home });
  if (!r.json) throw new Error(`no envelope: ${r.stdout} ${r.stderr}`);
  return r.json as Envelope;
}

/** The same, throwing also when the run failed. */
export async function execSnippetOk(home: string, session: string, code: string): Promise<Envelope> {
  const envelope = await execSnippet(home, session, code);
  if (!envelope.ok) throw new Error(`snippet failed: ${JSON.stringify(envelope.error)}`);
  return envelope;
}

// Homes whose canary is still being written, so the first use can wait for it.
const seeding = new Map<string, Promise<void>>();

/** Waits until the home's canary credential is in its vault (runCli and destroyHome do). */
export async function homeReady(home: string): Promise<void> {
  for (const [seeded, done] of seeding) if (home === seeded || home.startsWith(seeded + path.sep)) await done;
}

/** A private home with the secret canary (test/helpers/canary.ts) in its vault; `canarySite` moves it off the test pages. */
export function tempHome(prefix = "bw-test-", options: { canarySite?: string } = {}): string {
  return withCanary(mkdtempSync(path.join(tmpdir(), prefix)), options);
}

/** Seeds the canary into a home made elsewhere (a tmpfs, say); runCli waits for it. */
export function withCanary(home: string, options: { canarySite?: string } = {}): string {
  const done = seedCanary(home, options.canarySite ?? CANARY_SITE);
  done.catch(() => undefined); // reported by homeReady, not as an unhandled rejection
  seeding.set(home, done);
  return home;
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

/**
 * Stops every daemon of the home (gracefully, then by force: the daemon leads its own process group) and removes the home.
 * No home (a setup that failed before making one) is nothing to do, so the setup's own error stays the one reported.
 */
export async function destroyHome(home: string | undefined): Promise<void> {
  if (home === undefined) return;
  const pids = daemonPids(home);
  for (const pid of pids) {
    try { process.kill(pid, "SIGTERM"); } catch { /* gone */ }
  }
  const until = Date.now() + 12_000;
  while (pids.some(alive) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  for (const pid of pids) {
    try { process.kill(-pid, "SIGKILL"); } catch { /* gone */ }
  }
  await homeReady(home).catch(() => undefined);
  seeding.delete(home);
  const leaks = canaryLeaksUnder(home);
  rmSync(home, { recursive: true, force: true });
  if (leaks.length > 0) throw new Error(`secret canary found under ${home}: ${leaks.join("; ")}`);
}

export interface StartedCli {
  child: ReturnType<typeof spawn>;
  result: Promise<CliResult>;
}

const shellQuote = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;

function spawnCli(args: string[], options: CliOptions) {
  const env = cleanEnv(options.home, options.env);
  if (!options.terminal) return spawn(process.execPath, [CLI, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
  // -e: the command's exit code; -f: flush as it comes; no typescript file.
  return spawn("script", ["-qefc", [process.execPath, CLI, ...args].map(shellQuote).join(" "), "/dev/null"], { env, stdio: ["pipe", "pipe", "pipe"] });
}

/** Like runCli, but hands back the process too (to signal it while it runs). */
export function startCli(args: string[], options: CliOptions): StartedCli {
  const child = spawnCli(args, options);
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
      if (options.terminal) stdout = stdout.replace(/\r\n/g, "\n");
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      try {
        assertNoCanaryInOutput(args.join(" "), stdout, stderr);
      } catch (error) {
        reject(error);
        return;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
  child.stdin.end(options.input ?? "");
  return { child, result };
}

/** Waits until `session` has a run in flight, as a user about to press Ctrl-C would see it. */
export async function waitForRunInFlight(home: string, session: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const listed = await runCli(["sessions", "--json"], { home });
    const found = listed.json?.daemons?.[0]?.sessions?.find((s: { session: string }) => s.session === session);
    if (found?.inFlight === 1) return;
    if (Date.now() > until) throw new Error(`no run of ${session} ever showed as in flight`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
