// Scale in one daemon: N sessions, each with its page, all busy at once
// through one library client (each alternating `page.title()` and a small
// `page.evaluate`), against raw Playwright making the same calls on N pages
// of one browser in one process (the bound). Shared sessions share the
// profile's context; isolated ones (and the raw side's pages then) each get a
// context of their own. `npm run bench -- --only=scale` runs both for 20 s
// each (`--seconds=N` for another load); --quick runs the 100 shared
// sessions alone, for 8 s, so that their aims are guarded in every run.
import { readFileSync } from "node:fs";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { BetterWright } from "../../client/index.js";
import type { BenchContext } from "../context.js";
import { cmdline, cpuMs, descendants, mainThreadCpuMs, treePssMb } from "../proc.js";
import { round, summarize, type Row } from "../stats.js";

const TITLE = "return page.title()";
const EVALUATE = "return page.evaluate(() => document.body.childElementCount + 1)";

interface Load {
  perLane: number[];
  latenciesMs: number[];
  failures: number;
  seconds: number;
  pssMb: number;
  /** CPU ms by process group (from /proc, every thread): summed over the turns, then per successful call (perCall). */
  cpuPerCall: Record<string, number>;
}

/** CPU ms used so far by each group of processes. */
type CpuReading = () => Record<string, number>;

/** One side of the comparison, set up and idle: its lanes' call, its memory and CPU readings. */
interface Side {
  call(lane: number, i: number): Promise<boolean>;
  pssMb(): number;
  cpu: CpuReading;
  close(): Promise<void>;
}

const emptyLoad = (lanes: number): Load => ({ perLane: new Array<number>(lanes).fill(0), latenciesMs: [], failures: 0, seconds: 0, pssMb: 0, cpuPerCall: {} });

/** Every lane loops `side.call(lane, i)` until the deadline; adds counts, latencies and CPU to `into`. */
async function drive(side: Side, lanes: number, seconds: number, into: Load): Promise<void> {
  const cpu0 = side.cpu();
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  await Promise.all(Array.from({ length: lanes }, async (_, lane) => {
    for (let i = 0; performance.now() < deadline; i++) {
      const start = performance.now();
      let ok = false;
      try {
        ok = await side.call(lane, i);
      } catch {
        ok = false;
      }
      into.latenciesMs.push(performance.now() - start);
      if (ok) into.perLane[lane]! += 1;
      else into.failures += 1;
    }
  }));
  into.seconds += (performance.now() - t0) / 1000;
  process.stderr.write(`    slice: ${into.perLane.reduce((a, b) => a + b, 0)} calls so far, ${round(into.seconds, 1)} s, max ${round(Math.max(...into.latenciesMs))} ms\n`);
  const cpu1 = side.cpu();
  for (const [group, ms] of Object.entries(cpu1)) into.cpuPerCall[group] = (into.cpuPerCall[group] ?? 0) + ms - (cpu0[group] ?? 0);
}

/** CPU ms per successful call, once every slice has run. */
function perCall(load: Load): void {
  const calls = Math.max(1, load.perLane.reduce((a, b) => a + b, 0));
  for (const group of Object.keys(load.cpuPerCall)) load.cpuPerCall[group] = round(load.cpuPerCall[group]! / calls, 3);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const one = (value: number) => summarize([value]);

function rowsFor(label: string, ours: Load, raw: Load, lanes: number): Row[] {
  const cps = (l: Load) => l.perLane.reduce((a, b) => a + b, 0) / l.seconds;
  const slowest = (l: Load) => (100 * Math.min(...l.perLane)) / (l.perLane.reduce((a, b) => a + b, 0) / lanes);
  const sorted = (l: Load) => [...l.latenciesMs].sort((a, b) => a - b);
  const [o, r] = [sorted(ours), sorted(raw)];
  const rows: Row[] = [
    { name: `raw Playwright, ${lanes} pages: calls/s`, sample: one(round(cps(raw), 1)) },
    { name: `betterwright, ${label}: calls/s`, sample: one(round(cps(ours), 1)), baseline: "raw calls/s", ratio: round(cps(ours) / cps(raw)), aim: "≥ 0.7×" },
  ];
  for (const p of [50, 95, 99]) {
    rows.push({ name: `raw: latency p${p} (ms)`, sample: one(round(percentile(r, p))) });
    rows.push({ name: `betterwright: latency p${p} (ms)`, sample: one(round(percentile(o, p))), baseline: `raw p${p}`, ratio: round(percentile(o, p) / percentile(r, p)), ...(p === 95 ? { aim: "≤ 2×" } : {}) });
  }
  rows.push({ name: "raw: slowest page, % of the mean (a %, not ms)", sample: one(round(slowest(raw), 1)) });
  rows.push({ name: "betterwright: slowest session, % of the mean (a %, not ms)", sample: one(round(slowest(ours), 1)), aim: "≥ 80 %" });
  rows.push({ name: "raw: browser + bench process PSS (MB, not ms)", sample: one(raw.pssMb) });
  rows.push({ name: "betterwright: daemon + worker + browser PSS (MB, not ms)", sample: one(ours.pssMb), baseline: "raw PSS", ratio: round(ours.pssMb / raw.pssMb), aim: "≤ 2048 MB" });
  const cpuText = (l: Load) => Object.entries(l.cpuPerCall).map(([g, ms]) => `${g} ${ms}`).join(", ");
  const cpuTotal = (l: Load) => round(Object.values(l.cpuPerCall).reduce((a, b) => a + b, 0), 3);
  rows.push({ name: `raw: CPU ms per call (${cpuText(raw)})`, sample: one(cpuTotal(raw)) });
  rows.push({ name: `betterwright: CPU ms per call (${cpuText(ours)})`, sample: one(cpuTotal(ours)), baseline: "raw CPU per call", ratio: round(cpuTotal(ours) / cpuTotal(raw)) });
  rows.push({ name: `failed calls: betterwright ${ours.failures}, raw ${raw.failures} (a count)`, sample: one(ours.failures), aim: "0" });
  return rows;
}

async function viaDaemon(ctx: BenchContext, lanes: number, isolated: boolean): Promise<Side & { tree(): number[] }> {
  const { home, env } = ctx.home(`scale-${isolated ? "isolated" : "shared"}-${lanes}`);
  const bw = new BetterWright({ home, env: { ...env, BETTERWRIGHT_MAX_SESSIONS: String(lanes + 8) } });
  const goto = `await page.goto(${JSON.stringify(ctx.url)})`;
  const session = (lane: number) => `s${lane}`;
  try {
    await bw.run("return 1", { session: "warm" });
    await bw.closeSession("warm");
    // Ten at a time: a page's first load is the expensive part and not what is measured.
    for (let first = 0; first < lanes; first += 10) {
      await Promise.all(Array.from({ length: Math.min(10, lanes - first) }, async (_, k) => {
        const opts = isolated ? { session: session(first + k), create: { isolated: true } } : { session: session(first + k) };
        const r = await bw.run(goto, opts);
        if (!r.ok) throw new Error(`setup: ${JSON.stringify(r.error)}`);
      }));
    }
  } catch (error) {
    await bw.close({ stopDaemon: true });
    throw error;
  }
  const daemonPid = JSON.parse(readFileSync(path.join(home, "daemon.json"), "utf8")).pid as number;
  const tree = () => [daemonPid, ...descendants(daemonPid)];
  return {
    tree,
    call: async (lane, i) => (await bw.run(i % 2 ? EVALUATE : TITLE, { session: session(lane) })).ok,
    pssMb: () => treePssMb(tree()),
    cpu: () => {
      const groups: Record<string, number> = { client: cpuMs(process.pid), daemon: cpuMs(daemonPid), "worker main": 0, "worker threads": 0, browser: 0 };
      for (const pid of descendants(daemonPid)) {
        const command = cmdline(pid);
        if (/chrom/.test(command) && !/bwrap/.test(command)) groups.browser! += cpuMs(pid);
        else if (/^\S*node\S* .*worker\/main/.test(command)) {
          const main = mainThreadCpuMs(pid);
          groups["worker main"]! += main;
          groups["worker threads"]! += cpuMs(pid) - main;
        }
      }
      return groups;
    },
    close: () => bw.close({ stopDaemon: true }),
  };
}

async function rawPlaywright(ctx: BenchContext, lanes: number, isolated: boolean, notOurs: () => number[]): Promise<Side> {
  const browser = await chromium.launch({ executablePath: ctx.browser, headless: true });
  const shared = isolated ? undefined : await browser.newContext();
  const pages: Page[] = [];
  for (let first = 0; first < lanes; first += 10) {
    pages.push(...await Promise.all(Array.from({ length: Math.min(10, lanes - first) }, async () => {
      const page = await (shared ?? await browser.newContext()).newPage();
      await page.goto(ctx.url);
      return page;
    })));
  }
  // The bench process's own browsers: not the daemon's, which is a child of this process too.
  const browsers = () => {
    const excluded = new Set(notOurs());
    return descendants(process.pid).filter((pid) => !excluded.has(pid) && /chrom/.test(cmdline(pid)));
  };
  return {
    call: async (lane, i) => {
      const page = pages[lane]!;
      if (i % 2) await page.evaluate("document.body.childElementCount + 1");
      else await page.title();
      return true;
    },
    pssMb: () => treePssMb([process.pid, ...browsers()]),
    cpu: () => ({ bench: cpuMs(process.pid), browser: browsers().reduce((sum, pid) => sum + cpuMs(pid), 0) }),
    close: () => browser.close(),
  };
}

export async function scale(ctx: BenchContext): Promise<Row[]> {
  // --quick guards the 100 shared sessions' aims with a shorter load and leaves the isolated run to full runs.
  const seconds = Number(process.argv.find((a) => a.startsWith("--seconds="))?.slice(10) ?? (ctx.quick ? 8 : 20));
  const runs = ctx.quick ? ([[100, false]] as const) : ([[100, false], [20, true]] as const);
  // Both sides are set up, then loaded in turns (raw, ours, raw, ours…), so that a
  // change in the machine's load falls on both alike.
  const slices = 4;
  const rows: Row[] = [];
  for (const [lanes, isolated] of runs) {
    const label = `${lanes} ${isolated ? "isolated" : "shared"} sessions`;
    process.stderr.write(`  scale: ${label}\n`);
    // Raw first: our realms would retire if they idled through the raw side's set-up (REALM_IDLE_MS).
    let daemonSide: Awaited<ReturnType<typeof viaDaemon>> | undefined;
    const rawSide = await rawPlaywright(ctx, lanes, isolated, () => daemonSide?.tree() ?? []);
    try {
      daemonSide = await viaDaemon(ctx, lanes, isolated);
      const [ours, raw] = [emptyLoad(lanes), emptyLoad(lanes)];
      await drive(rawSide, lanes, 2, emptyLoad(lanes));
      await drive(daemonSide, lanes, 2, emptyLoad(lanes));
      for (let k = 0; k < slices; k++) {
        await drive(rawSide, lanes, seconds / slices, raw);
        await drive(daemonSide, lanes, seconds / slices, ours);
      }
      // Every page and realm is alive and has just been busy.
      raw.pssMb = rawSide.pssMb();
      ours.pssMb = daemonSide.pssMb();
      perCall(raw);
      perCall(ours);
      rows.push({ name: `— ${label}, ${seconds} s each, in ${slices} turns —`, sample: one(seconds) }, ...rowsFor(label, ours, raw, lanes));
    } finally {
      await rawSide.close();
      await daemonSide?.close();
    }
  }
  return rows;
}
