// 5. Memory (PSS) of daemon + worker + browser with N sessions each holding a
// page and a small `state`, against N separate browsers (the design peers
// use); and what each added session costs (its page and its realm), while its
// realm is alive and, in a full run, once the idle realms have been retired,
// their `state` carried to the next run.
import { readFileSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { BetterWright } from "../../client/index.js";
import { REALM_IDLE_MS } from "../../daemon/browser-worker/realm/session-realm.js";
import type { BenchContext } from "../context.js";
import { cmdline, descendants, treePssMb } from "../proc.js";
import { round, summarize, type Row } from "../stats.js";

export async function memory(ctx: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  const alive = new Map<number, number>();
  const retired = new Map<number, number>();
  for (const n of ctx.quick ? [1, 5] : [1, 5, 20]) {
    const { home, env } = ctx.home(`memory-${n}`);
    const bw = new BetterWright({ home, env });
    const visit = (i: number) => `await page.goto(${JSON.stringify(ctx.url)});
      state.visited = { url: page.url(), at: new Date(), tags: new Set(["bench", "memory"]), n: ${i} };`;
    await Promise.all(Array.from({ length: n }, (_, i) => bw.run(visit(i), { session: `m${i}` })));
    await new Promise((r) => setTimeout(r, 1000));
    const daemonPid = JSON.parse(readFileSync(path.join(home, "daemon.json"), "utf8")).pid as number;
    const pss = () => treePssMb([daemonPid, ...descendants(daemonPid)]);
    const ours = pss();
    alive.set(n, ours);
    if (!ctx.quick) {
      await new Promise((r) => setTimeout(r, REALM_IDLE_MS + 5_000));
      retired.set(n, pss());
      // Each session's next run finds its state, in a new realm.
      const back = await Promise.all(Array.from({ length: n }, (_, i) => bw.run("return state.visited.n", { session: `m${i}` })));
      back.forEach((r, i) => { if (r.result !== i) throw new Error(`session m${i} lost its state: ${JSON.stringify(r)}`); });
    }
    await bw.close({ stopDaemon: true });

    const browsers: Browser[] = [];
    for (let i = 0; i < n; i++) {
      const browser = await chromium.launch({ executablePath: ctx.browser, headless: true });
      await (await browser.newPage()).goto(ctx.url);
      browsers.push(browser);
    }
    await new Promise((r) => setTimeout(r, 1000));
    const theirs = treePssMb(descendants(process.pid).filter((pid) => /chrom/.test(cmdline(pid))));
    await Promise.all(browsers.map((b) => b.close()));
    rows.push({
      name: `${n} session(s): daemon+worker+browser ${ours} MB${retired.has(n) ? ` (${retired.get(n)} MB once idle realms are retired)` : ""} vs ${n} browser(s) ${theirs} MB`,
      sample: summarize([ours]),
      baseline: `${n} separate browsers (MB)`,
      ratio: round(ours / theirs),
      note: "values are MB, not ms",
    });
  }
  const perAdded = (pss: Map<number, number>, what: string) => {
    const one = pss.get(1);
    for (const [n, total] of pss) {
      if (n === 1 || one === undefined) continue;
      const each = round((total - one) / (n - 1));
      rows.push({ name: `each session added, ${what} (1 → ${n}): ${each} MB`, sample: summarize([each]), aim: "≤ 15 MB", note: "values are MB, not ms" });
    }
  };
  perAdded(alive, "page + realm + state");
  perAdded(retired, "page + state, idle realm retired");
  return rows;
}
