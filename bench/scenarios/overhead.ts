// 6. Guard: a page with 100 subresources through the daemon (guard proxy on)
// against raw Playwright with no proxy. 7. Transcript and envelope cost per
// exec. 8. Per-snippet cost of one repl process running 200 snippets.
import { chromium } from "playwright-core";
import path from "node:path";
import { BetterWright } from "../../client/index.js";
import { Transcript } from "../../daemon/sessions/transcript.js";
import type { BenchContext } from "../context.js";
import { compare, runProcess, summarize, timeIt, type Row } from "../stats.js";

export async function guardLoad(ctx: BenchContext): Promise<Row[]> {
  const runs = ctx.quick ? 5 : 15;
  const heavy = `${ctx.url}/heavy`;
  const { home, env } = ctx.home("guard");
  const bw = new BetterWright({ home, env });
  await bw.run("return 1", { session: "g" });
  // Each load on a page of its own, on both sides: Chromium gets slower with every reload of this page
  // in one tab (0.3 s to 2.4 s over 12 loads, with or without the guard), which only measured the tab.
  const load = () => bw.run(`await openPage(); await page.goto(${JSON.stringify(heavy)}, { waitUntil: "load" }); await closePage()`, { session: "g" });
  // Connections the worker's proxy asked the daemon to make (guard.connect, one RPC each; the routing layer's
  // guard.check is off for a stock policy), counted between loads, outside the timing.
  const checks = async () => (await bw.status()).guard.connects;
  let before = await checks();
  await load();
  const firstLoadChecks = (await checks()) - before;
  const times: number[] = [];
  const laterChecks: number[] = [];
  for (let i = 0; i < runs; i++) {
    before = await checks();
    const t0 = performance.now();
    await load();
    times.push(performance.now() - t0);
    laterChecks.push((await checks()) - before);
  }
  const through = summarize(times);
  await bw.close();
  const browser = await chromium.launch({ executablePath: ctx.browser, headless: true });
  const context = await browser.newContext();
  const raw = await timeIt(async () => {
    const page = await context.newPage();
    await page.goto(heavy, { waitUntil: "load" });
    await page.close();
  }, runs);
  await browser.close();
  return [
    { name: "raw Playwright: new page, load 100 subresources, close (no proxy)", sample: raw },
    compare("through betterwright (guard proxy + exec)", through, "raw load", raw, "≤ 1.2×"),
    { name: `guard.connect RPCs per load: ${firstLoadChecks} on the first (a count, not ms)`, sample: summarize([firstLoadChecks]) },
    { name: `guard.connect RPCs per load: median ${summarize(laterChecks).medianMs} on later loads (Chromium keeps its proxy connections; a count, not ms)`, sample: summarize(laterChecks) },
  ];
}

export async function transcriptOverhead(ctx: BenchContext): Promise<Row[]> {
  const { home, env } = ctx.home("overhead");
  const transcript = new Transcript(path.join(home, "t", "transcript.jsonl"));
  const envelope = { ok: true, result: { a: "x".repeat(200) }, console: [], pages: [{ pageId: "p1", url: ctx.url, title: "Bench", active: true }], artifacts: [], warnings: [] };
  let seq = 0;
  const append = await timeIt(async () => {
    JSON.stringify(envelope);
    transcript.append({ seq: ++seq, runId: "r", at: new Date().toISOString(), durationMs: 1, snippet: "return page.title()", ok: true, result: "\"Bench\"", artifacts: [], pages: [ctx.url] });
  }, ctx.quick ? 200 : 1000, 10);
  const bw = new BetterWright({ home, env });
  const exec = await timeIt(() => bw.run("return 1", { session: "o" }), ctx.quick ? 50 : 200, 5);
  await bw.close();
  return [
    { name: "library exec 'return 1' (all costs)", sample: exec },
    compare("transcript append + envelope JSON", append, "library exec", exec),
  ];
}

/** Milliseconds per snippet of one `repl` process streaming `count` snippets made by `snippet`. */
async function replPerSnippet(ctx: BenchContext, env: NodeJS.ProcessEnv, count: number, snippet: (i: number) => string): Promise<number> {
  const input = Array.from({ length: count }, (_, i) => snippet(i)).join("\n\n");
  const t0 = performance.now();
  await runProcess(process.execPath, [ctx.cli, "repl"], env, input);
  return (performance.now() - t0) / count;
}

/**
 * Streamed snippets: one repl process running 200 distinct trivial snippets (aim: ≤ 2 ms each), and 200
 * `return page.title()` against the floor of such a run, one CDP round trip (raw Playwright's page.title());
 * the library with four calls in flight on one session is the same stream without the repl process.
 */
export async function replStream(ctx: BenchContext): Promise<Row[]> {
  const count = 200;
  const rounds = ctx.quick ? 1 : 3;
  const { home, env } = ctx.home("repl");
  await ctx.exec(env, "exec", "-c", `await page.goto(${JSON.stringify(ctx.url)})`);
  const trivial: number[] = [];
  const titles: number[] = [];
  for (let r = 0; r < rounds; r++) {
    trivial.push(await replPerSnippet(ctx, env, count, (i) => `return ${i}`));
    titles.push(await replPerSnippet(ctx, env, count, () => "return page.title()"));
  }
  const bw = new BetterWright({ home, env });
  const pipelined: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let sent = 0;
    const t0 = performance.now();
    const lane = async () => {
      while (sent < count) {
        sent++;
        await bw.run("return page.title()", { session: "default", budgetFromStart: true });
      }
    };
    await Promise.all([lane(), lane(), lane(), lane()]);
    pipelined.push((performance.now() - t0) / count);
  }
  await bw.close();
  const warm = await timeIt(() => ctx.exec(env, "exec", "-c", "return 1"), ctx.quick ? 10 : 20);
  const browser = await chromium.launch({ executablePath: ctx.browser, headless: true });
  const page = await browser.newPage();
  await page.goto(ctx.url);
  const raw = await timeIt(() => page.title(), count, 5);
  await browser.close();
  return [
    { name: "warm exec process", sample: warm },
    compare(`repl: per snippet over ${count} (return i)`, summarize(trivial), "warm exec", warm, "≤ 2 ms"),
    { name: "raw Playwright page.title() (one CDP round trip)", sample: raw },
    compare(`repl: per snippet over ${count} (return page.title())`, summarize(titles), "raw page.title()", raw, "≤ 1.3×"),
    compare(`library, 4 in flight: per call over ${count} (return page.title())`, summarize(pipelined), "raw page.title()", raw, "≤ 1.3×"),
  ];
}
