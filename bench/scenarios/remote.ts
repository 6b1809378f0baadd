// Remote browsers: a call on a session placed on a Playwright browser server
// (launchServer on loopback, through the daemon's endpoint relay and guard
// proxy) against the same call on the local browser; and sessions placed per
// second (each one's first page: a context of its own on the remote browser,
// with its proxy credentials), against sessions opened on the local browser.
import { chromium } from "playwright-core";
import { BetterWright } from "../../client/index.js";
import type { BenchContext } from "../context.js";
import { compare, summarize, timeIt, type Row } from "../stats.js";

async function placeSessions(bw: BetterWright, count: number, prefix: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await bw.run("return page.url()", { session: `${prefix}${i}` });
    times.push(performance.now() - t0);
  }
  return times;
}

export async function remoteBrowsers(ctx: BenchContext): Promise<Row[]> {
  const runs = ctx.quick ? 50 : 200;
  const placements = ctx.quick ? 5 : 20;
  const server = await chromium.launchServer({ executablePath: ctx.browser, headless: true, host: "127.0.0.1", port: 0 });
  try {
    const local = ctx.home("remote-local");
    const remote = ctx.home("remote-remote");
    const bwLocal = new BetterWright({ home: local.home, env: local.env });
    const bwRemote = new BetterWright({ home: remote.home, env: { ...remote.env, BETTERWRIGHT_BROWSER_ENDPOINTS: server.wsEndpoint() } });
    try {
      const goto = `await page.goto(${JSON.stringify(ctx.url)})`;
      await bwLocal.run(goto, { session: "s" });
      await bwRemote.run(goto, { session: "s" });
      const localCall = await timeIt(() => bwLocal.run("return page.title()", { session: "s" }), runs, 5);
      const remoteCall = await timeIt(() => bwRemote.run("return page.title()", { session: "s" }), runs, 5);
      const localLoad = await timeIt(() => bwLocal.run(goto, { session: "s" }), ctx.quick ? 5 : 20, 1);
      const remoteLoad = await timeIt(() => bwRemote.run(goto, { session: "s" }), ctx.quick ? 5 : 20, 1);
      const localPlaced = summarize(await placeSessions(bwLocal, placements, "p"));
      const remotePlaced = summarize(await placeSessions(bwRemote, placements, "p"));
      const perSecond = (median: number) => Math.round((1000 / median) * 10) / 10;
      return [
        { name: "local: bw.run('return page.title()')", sample: localCall },
        compare("remote (loopback browser server): the same", remoteCall, "local call", localCall),
        { name: "local: page.goto(local page)", sample: localLoad },
        compare("remote: page.goto(local page) through the guard proxy", remoteLoad, "local load", localLoad),
        { name: `local: a new session's first call (${perSecond(localPlaced.medianMs)} sessions/s)`, sample: localPlaced },
        compare(`remote: a new session placed, first call (${perSecond(remotePlaced.medianMs)} sessions/s)`, remotePlaced, "local new session", localPlaced),
      ];
    } finally {
      await bwLocal.close();
      await bwRemote.close();
    }
  } finally {
    await server.close();
  }
}
