// The measurements, each the same for every tool: whole CLI processes against
// the bench's own pages. Timed calls take turns between the tools, so a burst
// of load on this shared machine falls on all of them alike. A tool that fails
// a measurement gets the reason in its cell and goes on to the next one.
import { pssKb } from "../proc.js";
import { round, summarize } from "../stats.js";
import { firstLine } from "./install.js";
import { processesUnder, reap, treeOf } from "./reap.js";
import type { Cell, PeerRow } from "./table.js";
import type { Tool } from "./tools.js";

export interface Pages {
  /** A plain page titled "Bench". */
  plain: string;
  /** A page titled "Heavy" with 100 subresources. */
  heavy: string;
}

const timed = (values: number[]): Cell => {
  const s = summarize(values);
  return { value: s.medianMs, min: s.minMs, max: s.maxMs, n: s.n };
};

/** Runs `step(tool, i)` for i < runs, taking turns between the tools; a tool's first failure ends its turns. */
export async function inTurns<T extends { name: string }>(tools: readonly T[], runs: number, step: (tool: T, i: number) => Promise<number | undefined>): Promise<Record<string, Cell>> {
  const values = new Map<string, number[]>(tools.map((t) => [t.name, []]));
  const failed = new Map<string, string>();
  for (let i = 0; i < runs; i++) {
    for (const tool of tools) {
      if (failed.has(tool.name)) continue;
      try {
        const ms = await step(tool, i);
        if (ms !== undefined) values.get(tool.name)!.push(ms);
      } catch (error) {
        failed.set(tool.name, firstLine(error));
      }
    }
  }
  return Object.fromEntries(tools.map((t) => [t.name, failed.has(t.name) ? { error: failed.get(t.name)! } : timed(values.get(t.name)!)]));
}

/** One measurement per tool, in turn; a tool whose measurement throws gets the reason as its `error` cell. */
export async function perTool<T extends { name: string }>(tools: readonly T[], measure: (tool: T) => Promise<Record<string, Cell>>): Promise<Record<string, Record<string, Cell>>> {
  const out: Record<string, Record<string, Cell>> = {};
  for (const tool of tools) {
    try {
      out[tool.name] = await measure(tool);
    } catch (error) {
      out[tool.name] = { error: { error: firstLine(error) } };
    }
  }
  return out;
}

/** Pivots per-tool results into rows; a tool whose measurement failed as a whole gets its reason in every row. */
export function rowsOf(names: readonly { key: string; name: string; better: PeerRow["better"]; counts?: boolean }[], byTool: Record<string, Record<string, Cell>>): PeerRow[] {
  return names.map(({ key, name, better, counts }) => ({
    name,
    better,
    ...(counts ? { counts } : {}),
    cells: Object.fromEntries(Object.entries(byTool).map(([tool, cells]) => [tool, cells[key] ?? cells.error ?? { error: "not measured" }])),
  }));
}

/** Ends everything a tool left running: its own close first, then by pid what still points into its folder. */
export async function settle(tool: Tool): Promise<number[]> {
  await tool.closeAll();
  return reap(treeOf(processesUnder([tool.dir])));
}

export async function coldFirstCall(tools: readonly Tool[], pages: Pages, runs: number): Promise<PeerRow> {
  const cells = await inTurns(tools, runs, async (tool, i) => (await tool.cold(i, pages.plain, "Bench")).ms);
  return { name: `cold first call, no daemon: navigate + title (ms, median of ${runs})`, better: "lower", cells };
}

export async function warmTitle(tools: readonly Tool[], pages: Pages, runs: number): Promise<PeerRow> {
  const cells = await inTurns(tools, runs + 1, async (tool, i) => {
    if (i === 0) {
      await tool.navigate("warm", pages.plain, "Bench");
      return undefined;
    }
    return (await tool.title("warm", "Bench")).ms;
  });
  return { name: `warm call: read the title (ms, median of ${runs})`, better: "lower", cells };
}

export async function heavyNavigation(tools: readonly Tool[], pages: Pages, runs: number): Promise<PeerRow> {
  const cells = await inTurns(tools, runs, async (tool) => {
    // Back to the plain page first (not timed): each timed load starts from the same place.
    await tool.navigate("warm", pages.plain, "Bench");
    return (await tool.navigate("warm", pages.heavy, "Heavy")).ms;
  });
  return { name: `navigate to a page with 100 subresources (ms, median of ${runs})`, better: "lower", cells };
}

/**
 * Calls per second of 1 session and of 4 sessions side by side, each navigating
 * `calls` times, in alternating rounds; the best round of each counts (load
 * from elsewhere only ever slows a round down).
 */
export async function parallelSessions(tools: readonly Tool[], pages: Pages, calls: number, rounds = 2): Promise<PeerRow[]> {
  const rate = async (tool: Tool, sessions: string[]) => {
    await Promise.all(sessions.map((s) => tool.navigate(s, pages.plain, "Bench")));
    const t0 = performance.now();
    await Promise.all(sessions.map(async (s) => {
      for (let i = 0; i < calls; i++) await tool.navigate(s, `${pages.plain}/p${i}`, "Bench");
    }));
    return (sessions.length * calls) / ((performance.now() - t0) / 1000);
  };
  const byTool = await perTool(tools, async (tool) => {
    let one = 0;
    let four = 0;
    for (let round = 0; round < rounds; round++) {
      one = Math.max(one, await rate(tool, ["par-1"]));
      four = Math.max(four, await rate(tool, ["par-4a", "par-4b", "par-4c", "par-4d"]));
    }
    await settle(tool);
    return { one: { value: round(one) }, four: { value: round(four) }, gain: { value: round(four / one) } };
  });
  return rowsOf([
    { key: "one", name: `1 session: navigate + title calls/s (${calls} calls, best of ${rounds})`, better: "higher" },
    { key: "four", name: `4 sessions in parallel: calls/s (4 × ${calls} calls, best of ${rounds})`, better: "higher" },
    { key: "gain", name: "4 sessions in parallel vs 1 (throughput ×)", better: "higher" },
  ], byTool);
}

/** PSS of every process of each tool with 1, 5 and 10 sessions open, each session holding the plain page. */
export async function memory(tools: readonly Tool[], pages: Pages, levels: readonly number[]): Promise<PeerRow[]> {
  const pssMiB = (tool: Tool) => round(treeOf(processesUnder([tool.dir])).reduce((sum, p) => sum + pssKb(p.pid), 0) / 1024, 1);
  const byTool = await perTool(tools, async (tool) => {
    await settle(tool);
    const cells: Record<string, Cell> = {};
    let open = 0;
    for (const level of levels) {
      for (; open < level; open++) await tool.navigate(`mem-${open}`, pages.plain, "Bench");
      await new Promise((r) => setTimeout(r, 1500));
      cells[`pss-${level}`] = { value: pssMiB(tool) };
    }
    const first = cells[`pss-${levels[0]}`] as { value: number };
    const last = cells[`pss-${levels[levels.length - 1]}`] as { value: number };
    cells.added = { value: round((last.value - first.value) / (levels[levels.length - 1]! - levels[0]!), 1) };
    await settle(tool);
    return cells;
  });
  return rowsOf([
    ...levels.map((level) => ({ key: `pss-${level}`, name: `memory, ${level} session(s) open: PSS of all its processes (MiB)`, better: "lower" as const })),
    { key: "added", name: `memory, each session added (${levels[0]} → ${levels[levels.length - 1]}, MiB)`, better: "lower" },
  ], byTool);
}
