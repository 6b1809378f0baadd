// What autosaving an isolated session's storage costs: back-to-back runs that
// change local storage (each followed by an autosave: storage read in the
// worker, sealed and written by the daemon) and runs that only read (the
// autosave finds nothing changed), against the same runs in a shared session,
// which is never autosaved. Latency as the caller sees it, and CPU per run of
// the daemon and worker (plus browser), interleaved in blocks; then runs paced
// past the autosave's quiet spell, so that each pays a save of its own.
import { readFileSync } from "node:fs";
import path from "node:path";
import { BetterWright } from "../../client/index.js";
import type { BenchContext } from "../context.js";
import { cpuMs, descendants } from "../proc.js";
import { compare, round, summarize, type Row } from "../stats.js";

export async function autosaveCost(ctx: BenchContext): Promise<Row[]> {
  const runs = ctx.quick ? 40 : 200;
  const block = 20;
  const { home, env } = ctx.home("autosave");
  const bw = new BetterWright({ home, env });
  const write = "await page.evaluate(() => localStorage.setItem('k', String(Math.random()))); return 1";
  const read = "return page.title()";
  try {
    await bw.run(`await page.goto(${JSON.stringify(ctx.url)})`, { session: "shared" });
    await bw.run(`await page.goto(${JSON.stringify(ctx.url)})`, { session: "iso", create: { isolated: true } });
    const daemon = JSON.parse(readFileSync(path.join(home, "daemon.json"), "utf8")).pid as number;
    const tree = () => [daemon, ...descendants(daemon)];
    const cpu = () => tree().reduce((sum, pid) => sum + cpuMs(pid), 0);
    const times: Record<string, number[]> = { sharedWrite: [], isoWrite: [], sharedRead: [], isoRead: [] };
    const cpuSpent: Record<string, number> = { sharedWrite: 0, isoWrite: 0 };
    const time = async (key: string, session: string, code: string) => {
      const c0 = cpu();
      for (let i = 0; i < block; i++) {
        const t0 = performance.now();
        await bw.run(code, { session });
        times[key]!.push(performance.now() - t0);
      }
      // The last autosave lands after the last answer: let it, so its CPU counts in its block.
      await new Promise((r) => setTimeout(r, 300));
      if (key in cpuSpent) cpuSpent[key]! += cpu() - c0;
    };
    for (let done = 0; done < runs; done += block) {
      await time("sharedWrite", "shared", write);
      await time("isoWrite", "iso", write);
      await time("sharedRead", "shared", read);
      await time("isoRead", "iso", read);
    }
    // Paced past the quiet spell, every changing run gets an autosave of its own: its full CPU cost.
    const paced = async (session: string) => {
      const n = ctx.quick ? 5 : 20;
      const c0 = cpu();
      for (let i = 0; i < n; i++) {
        await bw.run(write, { session });
        await new Promise((r) => setTimeout(r, 600));
      }
      return round((cpu() - c0) / n);
    };
    const pacedShared = await paced("shared");
    const pacedIso = await paced("iso");
    const sharedWrite = summarize(times.sharedWrite!);
    const sharedRead = summarize(times.sharedRead!);
    const perRun = (key: string) => round(cpuSpent[key]! / times[key]!.length);
    return [
      { name: "shared session: a run that changes local storage", sample: sharedWrite },
      compare("isolated session: the same run, its storage autosaved after it", summarize(times.isoWrite!), "shared, changing", sharedWrite, "≤ 1.2×"),
      { name: "shared session: a run that only reads", sample: sharedRead },
      compare("isolated session: a read-only run (autosave finds no change)", summarize(times.isoRead!), "shared, reading", sharedRead, "≤ 1.2×"),
      { name: `CPU ms per changing run back to back, daemon + worker + browser: shared ${perRun("sharedWrite")}, isolated with autosave ${perRun("isoWrite")}`, sample: summarize([perRun("isoWrite")]), note: "CPU ms" },
      { name: `CPU ms per changing run 0.6 s apart (an autosave each): shared ${pacedShared}, isolated ${pacedIso}`, sample: summarize([pacedIso]), note: "CPU ms" },
    ];
  } finally {
    await bw.close({ stopDaemon: true });
  }
}
