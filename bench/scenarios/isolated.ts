// Isolated sessions: what making one costs (session.create with its own
// browser context, then its first page; or seeded from a saved state) against
// a new shared session's first page in the same warm daemon; and the memory (PSS of daemon + worker +
// browser) each added session costs, isolated against shared, at 1/5/20.
import { readFileSync } from "node:fs";
import path from "node:path";
import { BetterWright } from "../../client/index.js";
import type { BenchContext } from "../context.js";
import { descendants, treePssMb } from "../proc.js";
import { compare, round, summarize, type Row } from "../stats.js";

export async function isolatedSessions(ctx: BenchContext): Promise<Row[]> {
  const rows: Row[] = [];
  const runs = ctx.quick ? 5 : 30;
  const goto = `await page.goto(${JSON.stringify(ctx.url)})`;
  const { home, env } = ctx.home("isolated-create");
  const bw = new BetterWright({ home, env });
  try {
    // Warm: daemon, worker, browser and one page of each kind up before anything is timed.
    await bw.run(goto, { session: "warm-shared" });
    await bw.createSession("warm-isolated", { isolated: true });
    await bw.run(goto, { session: "warm-isolated" });
    const shared: number[] = [];
    const isolated: number[] = [];
    const createOnly: number[] = [];
    for (let i = 0; i < runs; i++) {
      let t0 = performance.now();
      await bw.run(goto, { session: `shared-${i}` });
      shared.push(performance.now() - t0);
      t0 = performance.now();
      await bw.createSession(`isolated-${i}`, { isolated: true, settings: { viewport: { width: 1280, height: 800 }, locale: "en-GB" } });
      createOnly.push(performance.now() - t0);
      await bw.run(goto, { session: `isolated-${i}` });
      isolated.push(performance.now() - t0);
      // Keep the browser's load constant: each pair is closed before the next.
      await bw.closeSession(`shared-${i}`);
      await bw.closeSession(`isolated-${i}`);
    }
    // A login-like state: one cookie and local storage for one origin.
    await bw.run(`${goto}; await page.evaluate(() => { document.cookie = "sid=bench; path=/"; localStorage.setItem("token", "bench") })`, { session: "warm-isolated" });
    await bw.states.save("bench", { session: "warm-isolated" });
    const seeded: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await bw.createSession(`seeded-${i}`, { isolated: true, state: "bench" });
      seeded.push(performance.now() - t0);
      await bw.closeSession(`seeded-${i}`);
    }
    const sharedSample = summarize(shared);
    rows.push({ name: "new shared session: first exec (page + goto)", sample: sharedSample });
    rows.push(compare("new isolated session: session.create (its context)", summarize(createOnly), "shared first exec", sharedSample));
    rows.push(compare("new isolated session: session.create + first exec", summarize(isolated), "shared first exec", sharedSample, "≤ 2×"));
    rows.push(compare("new isolated session from a saved state (1 origin): session.create", summarize(seeded), "shared first exec", sharedSample));
  } finally {
    await bw.close({ stopDaemon: true });
  }

  const pssOf = async (kind: "shared" | "isolated", n: number) => {
    const { home: h, env: e } = ctx.home(`isolated-memory-${kind}-${n}`);
    const client = new BetterWright({ home: h, env: e });
    try {
      await Promise.all(Array.from({ length: n }, async (_, i) => {
        if (kind === "isolated") await client.createSession(`m${i}`, { isolated: true });
        await client.run(goto, { session: `m${i}` });
      }));
      await new Promise((r) => setTimeout(r, 1000));
      const daemonPid = JSON.parse(readFileSync(path.join(h, "daemon.json"), "utf8")).pid as number;
      return treePssMb([daemonPid, ...descendants(daemonPid)]);
    } finally {
      await client.close({ stopDaemon: true });
    }
  };
  // The memory of many sessions is a full run's: --quick keeps to the timings (the memory scenario covers shared sessions).
  if (ctx.quick) return rows;
  const counts = [1, 5, 20];
  for (const kind of ["shared", "isolated"] as const) {
    const totals = new Map<number, number>();
    for (const n of counts) totals.set(n, await pssOf(kind, n));
    const one = totals.get(1)!;
    for (const [n, total] of totals) {
      rows.push({ name: `${n} ${kind} session(s) with a page: daemon+worker+browser ${total} MB`, sample: summarize([total]), note: "values are MB, not ms" });
      if (n === 1) continue;
      const each = round((total - one) / (n - 1));
      rows.push({ name: `each ${kind} session added (1 → ${n}): ${each} MB`, sample: summarize([each]), note: "values are MB, not ms" });
    }
  }
  return rows;
}
