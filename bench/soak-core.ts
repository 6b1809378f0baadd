// The soak: N sessions each run M execs at once against one daemon (page
// loads, evaluations, screenshots, session state, results long enough to be
// spilled), while the daemon's and the worker's resident memory and open
// descriptors are read at an early checkpoint, the middle and the end. Memory
// may settle in the first eighth; from there on it must stay flat.
import { readFileSync } from "node:fs";
import { BetterWright } from "../client/index.js";
import { layoutFor } from "../shared/paths.js";
import { descendants } from "./proc.js";
import { fdCount, rssBytes } from "./proc-stats.js";

export interface SoakOptions {
  home: string;
  env: NodeJS.ProcessEnv;
  /** A page server on 127.0.0.1 whose pages have `<p id="t">`. */
  url: string;
  sessions: number;
  execsPerSession: number;
  /** Budget of each exec. */
  timeoutMs?: number;
  /**
   * Least time between the starts of two execs of one session. The daemon keeps
   * every finished run 60 s for run.attach, so memory is only comparable once
   * that window is full: paced at 1 s, the first checkpoint of 8 × 500 comes
   * after about 60 s.
   */
  paceMs?: number;
  progress?: (line: string) => void;
}

export interface SoakSample {
  /** Execs finished when the sample was taken. */
  done: number;
  daemonRss: number;
  workerRss: number;
  chromiumRss: number;
  daemonFds: number;
  workerFds: number;
  workerPid: number;
}

export interface SoakFailure {
  session: string;
  index: number;
  code: string;
  message: string;
}

export interface SoakReport {
  sessions: number;
  execsPerSession: number;
  execs: number;
  durationMs: number;
  /** Checkpoints: after each eighth of all execs (the first, the fourth and the last are the 500th, middle and end of 8 × 500). */
  samples: SoakSample[];
  failures: SoakFailure[];
  /** Relative RSS growth from the first checkpoint to the end (0.05 = 5 %). */
  daemonGrowth: number;
  workerGrowth: number;
  daemonFdGrowth: number;
  workerFdGrowth: number;
  /** Whether the worker kept one pid throughout (no restart). */
  sameWorker: boolean;
  /** Slowest exec, in ms. */
  maxExecMs: number;
}

/** The snippet for exec `i`: a fixed rotation over the kinds of work agents do. */
export function soakSnippet(url: string, session: string, i: number): string {
  switch (i % 10) {
    case 0:
      return `await page.goto(${JSON.stringify(`${url}/${session}/${i}`)}); return page.title()`;
    case 3:
      return "state.n = (state.n ?? 0) + 1; return state.n";
    case 5:
      return "const shot = await screenshot(); return shot.bytes";
    case 7:
      return `return ${JSON.stringify(`${session}-${i}-`)}.repeat(2000)`;
    default:
      return "return await page.evaluate(() => document.querySelector('#t')?.textContent ?? document.title)";
  }
}

function workerOf(daemonPid: number): number | undefined {
  return descendants(daemonPid).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("worker/main.js");
    } catch {
      return false;
    }
  });
}

function sample(done: number, daemonPid: number): SoakSample {
  const workerPid = workerOf(daemonPid) ?? -1;
  const chromium = workerPid > 0 ? descendants(workerPid) : [];
  return {
    done,
    daemonRss: rssBytes(daemonPid) ?? 0,
    workerRss: workerPid > 0 ? rssBytes(workerPid) ?? 0 : 0,
    chromiumRss: chromium.reduce((sum, pid) => sum + (rssBytes(pid) ?? 0), 0),
    daemonFds: fdCount(daemonPid) ?? 0,
    workerFds: workerPid > 0 ? fdCount(workerPid) ?? 0 : 0,
    workerPid,
  };
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const total = options.sessions * options.execsPerSession;
  // Every eighth is sampled; growth is judged from the first eighth on.
  const checkpoints = Array.from({ length: 8 }, (_, k) => Math.max(1, Math.round((total * (k + 1)) / 8)));
  const names = Array.from({ length: options.sessions }, (_, s) => `soak-${s}`);
  const clients = names.map(() => new BetterWright({ home: options.home, env: options.env }));
  const samples: SoakSample[] = [];
  const failures: SoakFailure[] = [];
  const lastStart = names.map(() => 0);
  let done = 0;
  let maxExecMs = 0;
  let daemonPid = 0;
  const started = Date.now();
  try {
    // One run per session first: the daemon, the worker and every session exist before counting starts.
    await Promise.all(names.map((session, s) => clients[s]!.run("return 0", { session, timeoutMs: options.timeoutMs ?? 30_000 })));
    daemonPid = (JSON.parse(readFileSync(layoutFor(options.home).infoPath, "utf8")) as { pid: number }).pid;
    await Promise.all(names.map(async (session, s) => {
      for (let i = 0; i < options.execsPerSession; i++) {
        const t0 = Date.now();
        if (i > 0 && options.paceMs) await new Promise((r) => setTimeout(r, Math.max(0, lastStart[s]! + options.paceMs! - t0)));
        lastStart[s] = Date.now();
        const envelope = await clients[s]!.run(soakSnippet(options.url, session, i), { session, timeoutMs: options.timeoutMs ?? 30_000 });
        maxExecMs = Math.max(maxExecMs, Date.now() - lastStart[s]!);
        if (!envelope.ok) failures.push({ session, index: i, code: envelope.error?.code ?? "?", message: envelope.error?.message ?? "" });
        done++;
        if (checkpoints.includes(done)) {
          samples.push(sample(done, daemonPid));
          options.progress?.(`${done}/${total} execs, ${Math.round((Date.now() - started) / 1000)} s`);
        }
      }
    }));
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
  }
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  return {
    sessions: options.sessions,
    execsPerSession: options.execsPerSession,
    execs: total,
    durationMs: Date.now() - started,
    samples,
    failures,
    daemonGrowth: last.daemonRss / first.daemonRss - 1,
    workerGrowth: last.workerRss / first.workerRss - 1,
    daemonFdGrowth: last.daemonFds - first.daemonFds,
    workerFdGrowth: last.workerFds - first.workerFds,
    sameWorker: samples.every((s) => s.workerPid === first.workerPid && s.workerPid > 0),
    maxExecMs,
  };
}

/** What a soak must show; empty when it passed. */
export function soakProblems(report: SoakReport, maxGrowth = 0.2): string[] {
  const problems: string[] = [];
  if (report.failures.length > 0) problems.push(`${report.failures.length} execs failed, first: ${JSON.stringify(report.failures[0])}`);
  if (report.daemonGrowth >= maxGrowth) problems.push(`daemon RSS grew ${(report.daemonGrowth * 100).toFixed(1)} %`);
  if (report.workerGrowth >= maxGrowth) problems.push(`worker RSS grew ${(report.workerGrowth * 100).toFixed(1)} %`);
  if (report.daemonFdGrowth > 2) problems.push(`daemon file descriptors grew by ${report.daemonFdGrowth}`);
  if (report.workerFdGrowth > 2) problems.push(`worker file descriptors grew by ${report.workerFdGrowth}`);
  if (!report.sameWorker) problems.push("the worker was restarted during the soak");
  return problems;
}

export function formatSoak(report: SoakReport): string {
  const mb = (b: number) => (b / 2 ** 20).toFixed(1);
  const rows = report.samples.map((s) =>
    `| ${s.done} | ${mb(s.daemonRss)} | ${mb(s.workerRss)} | ${mb(s.chromiumRss)} | ${s.daemonFds} | ${s.workerFds} |`);
  return [
    `${report.sessions} sessions × ${report.execsPerSession} execs = ${report.execs} in ${(report.durationMs / 1000).toFixed(1)} s (slowest exec ${report.maxExecMs} ms), ${report.failures.length} failed`,
    "",
    "| execs done | daemon RSS (MiB) | worker RSS (MiB) | Chromium RSS (MiB) | daemon fds | worker fds |",
    "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    `growth from the first checkpoint to the end: daemon ${(report.daemonGrowth * 100).toFixed(1)} %, worker ${(report.workerGrowth * 100).toFixed(1)} %; fds daemon ${report.daemonFdGrowth >= 0 ? "+" : ""}${report.daemonFdGrowth}, worker ${report.workerFdGrowth >= 0 ? "+" : ""}${report.workerFdGrowth}`,
  ].join("\n");
}
