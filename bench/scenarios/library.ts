// 2. Library call through the daemon against raw Playwright in one process,
// and 3. the cold first call against a raw Playwright script.
import path from "node:path";
import { chromium } from "playwright-core";
import { BetterWright } from "../../client/index.js";
import type { BenchContext } from "../context.js";
import { compare, runProcess, summarize, timeIt, type Row } from "../stats.js";

export async function libraryCall(ctx: BenchContext): Promise<Row[]> {
  const runs = ctx.quick ? 50 : 200;
  const { home, env } = ctx.home("library");
  const bw = new BetterWright({ home, env });
  await bw.run(`await page.goto(${JSON.stringify(ctx.url)})`, { session: "lib" });
  const browser = await chromium.launch({ executablePath: ctx.browser, headless: true });
  const page = await browser.newPage();
  await page.goto(ctx.url);
  // Interleaved in blocks, so that both sides see the same moments of a noisy machine.
  const block = 25;
  const ours: number[] = [];
  const realmed: number[] = [];
  const theirs: number[] = [];
  const time = async (into: number[], fn: () => Promise<unknown>) => {
    for (let i = 0; i < block; i++) {
      const t0 = performance.now();
      await fn();
      into.push(performance.now() - t0);
    }
  };
  await time([], () => bw.run("return page.title()", { session: "lib" }));
  await time([], () => page.title());
  // A snippet that is one page call runs without a realm (daemon/browser-worker/facades/lone-call.ts); the same read with code around it goes through one.
  const withCode = "const t = await page.title(); return t";
  await time([], () => bw.run(withCode, { session: "lib" }));
  for (let done = 0; done < runs; done += block) {
    await time(ours, () => bw.run("return page.title()", { session: "lib" }));
    await time(realmed, () => bw.run(withCode, { session: "lib" }));
    await time(theirs, () => page.title());
  }
  const viaDaemon = summarize(ours);
  const viaRealm = summarize(realmed);
  const raw = summarize(theirs);
  await bw.close();
  await browser.close();
  return [
    { name: "raw Playwright page.title()", sample: raw },
    compare("bw.run('return page.title()')", viaDaemon, "raw page.title()", raw, "≤ 1.5×"),
    compare(`bw.run('${withCode}'), through its realm`, viaRealm, "raw page.title()", raw),
  ];
}

export async function coldCall(ctx: BenchContext): Promise<Row[]> {
  const runs = ctx.quick ? 2 : 7;
  const raw = path.join(ctx.root, "bench", "raw-playwright.js");
  const code = `await page.goto(${JSON.stringify(ctx.url)}); return page.title()`;
  let n = 0;
  // A full run also times the call with its close (--quick keeps to the call itself).
  const cold = ctx.quick ? undefined : await timeIt(async () => {
    const { env } = ctx.home(`cold-${n++}`);
    await ctx.exec(env, "exec", "-c", code);
    await ctx.exec(env, "close", "--all");
  }, runs, 0);
  // Each cold exec is paired with a raw script run right after it: the machine's load moves both alike.
  // The same home is then started again, as after its daemon went idle: what its last worker left
  // (Playwright's compiled code, on Node 20) is there, as it is for a user's every cold call but the first.
  const coldExecOnly: number[] = [];
  const coldAgain: number[] = [];
  const rawRuns: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { env } = ctx.home(`cold-only-${i}`);
    let t0 = performance.now();
    await ctx.exec(env, "exec", "-c", code);
    coldExecOnly.push(performance.now() - t0);
    // The code cache is written just after the first run's answer.
    await new Promise((r) => setTimeout(r, 500));
    await ctx.exec(env, "close", "--all");
    t0 = performance.now();
    await runProcess(process.execPath, [raw, ctx.browser, ctx.url], process.env);
    rawRuns.push(performance.now() - t0);
    t0 = performance.now();
    await ctx.exec(env, "exec", "-c", code);
    coldAgain.push(performance.now() - t0);
    await ctx.exec(env, "close", "--all");
  }
  const { summarize } = await import("../stats.js");
  const rawScript = summarize(rawRuns);
  return [
    { name: "raw Playwright script (launch, goto, title, close)", sample: rawScript },
    compare("cold exec (no daemon): goto + title", summarize(coldExecOnly), "raw script", rawScript, "≤ 1.3×"),
    compare("cold exec (no daemon), home used before: goto + title", summarize(coldAgain), "raw script", rawScript, "≤ 1.3×"),
    ...(cold ? [compare("cold exec + close --all", cold, "raw script", rawScript)] : []),
    { name: "cold exec / raw script, each pair (a ratio, not ms)", sample: summarize(coldExecOnly.map((ms, i) => ms / rawRuns[i]!)) },
  ];
}
