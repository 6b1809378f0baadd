// Recovery: from kill -9 of the daemon, the worker or Chromium to the answer
// of the session's next `exec` (a CLI process, as a user's next command),
// against a cold first call in a fresh home measured alternately in the same
// run. Each kill lands on a warm daemon whose session has a page loaded.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { BenchContext } from "../context.js";
import { childrenOf, cmdline, descendants } from "../proc.js";
import { compare, summarize, type Row } from "../stats.js";

type Victim = "daemon" | "worker" | "Chromium";

const daemonPid = (home: string): number => JSON.parse(readFileSync(path.join(home, "daemon.json"), "utf8")).pid;

/** The worker's Node process (inside bwrap when contained), or its Chromium's top process. */
function victimPid(home: string, victim: Victim): number {
  const daemon = daemonPid(home);
  if (victim === "daemon") return daemon;
  const worker = descendants(daemon).find((pid) => {
    const argv = cmdline(pid).trim().split(" ");
    return !/(^|\/)bwrap$/.test(argv[0] ?? "") && /worker\/main\.js$/.test(argv[argv.length - 1] ?? "");
  });
  if (worker === undefined) throw new Error("no worker found");
  if (victim === "worker") return worker;
  const browser = childrenOf(worker).find((pid) => /chrom/i.test(cmdline(pid)));
  if (browser === undefined) throw new Error("no Chromium found");
  return browser;
}

export async function recovery(ctx: BenchContext): Promise<Row[]> {
  const runs = ctx.quick ? 2 : 7;
  const visit = `await page.goto(${JSON.stringify(ctx.url)}); return page.title()`;
  const cold: number[] = [];
  const kills: Record<Victim, number[]> = { daemon: [], worker: [], Chromium: [] };
  for (let i = 0; i < runs; i++) {
    const fresh = ctx.home(`recovery-cold-${i}`);
    let t0 = performance.now();
    await ctx.exec(fresh.env, "exec", "-c", visit);
    cold.push(performance.now() - t0);
    await ctx.exec(fresh.env, "close", "--all");
    for (const victim of Object.keys(kills) as Victim[]) {
      const { home, env } = ctx.home(`recovery-${victim}-${i}`);
      await ctx.exec(env, "exec", "-c", visit);
      process.kill(victimPid(home, victim), "SIGKILL");
      t0 = performance.now();
      await ctx.exec(env, "exec", "-c", "return page.url()");
      kills[victim].push(performance.now() - t0);
      await ctx.exec(env, "close", "--all");
    }
  }
  const coldStart = summarize(cold);
  return [
    { name: "cold first call (fresh home): goto + title", sample: coldStart },
    ...(Object.keys(kills) as Victim[]).map((victim) =>
      compare(`kill -9 of the ${victim} → next exec answers`, summarize(kills[victim]), "cold first call", coldStart, "≤ cold start + 2 s")),
  ];
}
