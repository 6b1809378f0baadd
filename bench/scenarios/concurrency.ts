// 4. Throughput of 1, 2, 4 and 8 sessions, each navigating a local page and
// reading its text 20 times, against one session.
import { BetterWright } from "../../client/index.js";
import type { BenchContext } from "../context.js";
import { round, summarize, type Row } from "../stats.js";

export async function concurrency(ctx: BenchContext): Promise<Row[]> {
  const perSession = ctx.quick ? 10 : 20;
  const { home, env } = ctx.home("concurrency");
  const bw = new BetterWright({ home, env });
  const rows: Row[] = [];
  let base: number | undefined;
  for (const sessions of ctx.quick ? [1, 4] : [1, 2, 4, 8]) {
    const names = Array.from({ length: sessions }, (_, i) => `c${sessions}-${i}`);
    await Promise.all(names.map((s) => bw.run("return 1", { session: s })));
    const t0 = performance.now();
    await Promise.all(names.map(async (session) => {
      for (let i = 0; i < perSession; i++) {
        const r = await bw.run(`await page.goto(${JSON.stringify(`${ctx.url}/p${i}`)}); return page.textContent("#t")`, { session });
        if (!r.ok) throw new Error(JSON.stringify(r.error));
      }
    }));
    const ms = performance.now() - t0;
    const perSecond = (sessions * perSession) / (ms / 1000);
    base ??= perSecond;
    rows.push({ name: `${sessions} session(s) × ${perSession} execs: ${round(perSecond, 1)} execs/s`, sample: summarize([ms]), baseline: "1 session", ratio: round(perSecond / base) });
    await Promise.all(names.map((s) => bw.closeSession(s)));
  }
  await bw.close();
  return rows;
}
