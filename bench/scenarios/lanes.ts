// Fair share of the worker's main thread: a bystander session's page-call
// latency (p95) alone, then beside a session that keeps some 900 page calls in
// flight for the whole measurement (aim: at most 2× alone); and what a lane's
// bookkeeping costs one call (daemon/browser-worker/lanes.ts), against a page.title().
import { BetterWright } from "../../client/index.js";
import { LaneBudget } from "../../daemon/browser-worker/lane-budget.js";
import { laneLimitsOf, LIMIT_DEFAULTS } from "../../shared/config-limits.js";
import type { BenchContext } from "../context.js";
import { round, summarize, type Row, type Sample } from "../stats.js";

/** Calls per timed batch: Date.now() in a snippet ticks in whole milliseconds. */
const BATCH = 5;

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!;
}

/** Per-call latencies (ms) of `batches` batches of the bystander's textContent() calls, timed in its snippet. */
async function bystander(bw: BetterWright, batches: number): Promise<number[]> {
  const r = await bw.run(`const out = [];
    for (let b = 0; b < ${batches}; b++) {
      const t0 = Date.now();
      for (let i = 0; i < ${BATCH}; i++) await page.locator("#t").textContent();
      out.push((Date.now() - t0) / ${BATCH});
    }
    return out`, { session: "bystander", timeoutMs: 120_000 });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.result as number[];
}

/** In-process: a typical call's admission and release, as every page call of a snippet pays it. */
function bookkeepingMicros(): number {
  const budget = new LaneBudget(laneLimitsOf(LIMIT_DEFAULTS));
  const message = { ask: "call", token: "5c1f0e1e-6a53-4c1e-9d8e-3b1f2a4c5d6e", target: "locator", pageId: "p1", frameId: null, method: "textContent", args: [], steps: [{ m: "locator", a: ["#t"] }] };
  const n = 200_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) budget.release(budget.admit(message));
  return ((performance.now() - t0) * 1000) / n;
}

const sampleOf = (values: number[]): Sample => ({ ...summarize(values), medianMs: round(p95(values)) });

export async function lanes(ctx: BenchContext): Promise<Row[]> {
  const batches = ctx.quick ? 60 : 200;
  const { home, env } = ctx.home("lanes");
  const bw = new BetterWright({ home, env });
  try {
    for (const session of ["bystander", "hog"]) {
      const r = await bw.run(`await page.goto(${JSON.stringify(`${ctx.url}/lanes`)}); return page.title()`, { session });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
    }
    await bystander(bw, 10);
    const alone = await bystander(bw, batches);
    // The hog keeps ~900 calls in flight for well over the time the bystander took alone.
    const hogMs = Math.round(3_000 + 4 * BATCH * alone.reduce((a, b) => a + b, 0));
    const hog = bw.run(`const end = Date.now() + ${hogMs}; let calls = 0;
      while (Date.now() < end) { await Promise.all(Array.from({ length: 900 }, () => page.title())); calls += 900; }
      return calls`, { session: "hog", timeoutMs: 120_000 });
    await new Promise((r) => setTimeout(r, 1_000));
    const beside = await bystander(bw, batches);
    const hogged = await hog;
    if (!hogged.ok) throw new Error(JSON.stringify(hogged.error));
    const aloneP95 = p95(alone);
    const besideP95 = p95(beside);
    const title = summarize(alone);
    const micros = bookkeepingMicros();
    return [
      { name: `bystander call, p95 (median ${round(title.medianMs)} ms), alone`, sample: sampleOf(alone) },
      { name: `bystander call, p95, beside ~900 calls in flight (${hogged.result as number} calls done)`, sample: sampleOf(beside), baseline: "alone", ratio: round(besideP95 / Math.max(aloneP95, 0.2)), aim: "≤ 2×" },
      { name: `lane bookkeeping per call: ${round(micros, 2)} µs`, sample: summarize([micros / 1000]), baseline: "bystander call median", ratio: round(micros / 1000 / Math.max(title.medianMs, 0.01), 4) },
    ];
  } finally {
    await bw.close({ stopDaemon: true });
  }
}
