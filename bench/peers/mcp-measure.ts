// The MCP rows, each measured the same way on every server: what tools/list
// costs, what a whole snapshot of each page costs (every part of a cut one),
// what the two tasks cost in calls and bytes, and how long a click and a
// snapshot take on a small page (timed calls take turns between the servers,
// so a burst of load on this shared machine falls on both).
import type { McpAgent } from "./mcp-agents.js";
import { since, type Tally } from "./mcp-count.js";
import { refOf } from "./mcp-refs.js";
import { loginTask, rowTask } from "./mcp-tasks.js";
import { inTurns, perTool, rowsOf } from "./measure.js";
import type { Cell, PeerRow } from "./table.js";

/** The start of each row's name; the aims find their rows by it. */
export const MCP_ROWS = {
  list: "tools/list, default set",
  snapshot: "whole snapshot",
  login: "login task",
  row: "row task",
  click: "click latency",
  snapshotLatency: "snapshot latency",
} as const;

const SNAPSHOT_PAGES = [
  ["form", "sign-up form"],
  ["table", "300-row table"],
  ["article", "long article"],
] as const;

/** Runs `work` and returns what its calls cost. */
async function costOf(agent: McpAgent, work: () => Promise<unknown>): Promise<Tally> {
  const before = { ...agent.tally };
  await work();
  return since(before, agent.tally);
}

export function toolsListRow(agents: readonly McpAgent[]): PeerRow {
  return { name: `${MCP_ROWS.list} (bytes of its JSON)`, better: "lower", counts: true, cells: Object.fromEntries(agents.map((a) => [a.name, { value: a.listBytes }])) };
}

export async function snapshotRows(agents: readonly McpAgent[], base: string): Promise<PeerRow[]> {
  const byAgent = await perTool(agents, async (agent) => {
    const cells: Record<string, Cell> = {};
    for (const [page] of SNAPSHOT_PAGES) {
      await agent.navigate(`${base}/agent/${page}`);
      cells[page] = { value: (await costOf(agent, () => agent.snapshot())).responseBytes };
    }
    return cells;
  });
  return rowsOf(SNAPSHOT_PAGES.map(([key, words]) => ({ key, name: `${MCP_ROWS.snapshot}: ${words} (bytes, every part)`, better: "lower" as const, counts: true })), byAgent);
}

export async function taskRows(agents: readonly McpAgent[], base: string): Promise<PeerRow[]> {
  const bytes = (t: Tally) => t.requestBytes + t.responseBytes;
  const rows: PeerRow[] = [];
  for (const [task, run, words] of [
    [MCP_ROWS.login, loginTask, "sign in, see the welcome page"],
    [MCP_ROWS.row, rowTask, "click row 217's button, read what changed"],
  ] as const) {
    const byAgent = await perTool(agents, async (agent) => {
      const cost = await costOf(agent, () => run(agent, base));
      return { calls: { value: cost.calls }, bytes: { value: bytes(cost) } };
    });
    rows.push(...rowsOf([
      { key: "calls", name: `${task}: tool calls (${words})`, better: "lower", counts: true },
      { key: "bytes", name: `${task}: bytes of requests and answers`, better: "lower", counts: true },
    ], byAgent));
  }
  return rows;
}

/** A click on a small page's button and a snapshot of that page, `runs` times each after two untimed, in turns. */
export async function latencyRows(agents: readonly McpAgent[], base: string, runs: number): Promise<PeerRow[]> {
  const warmup = 2;
  const buttons = new Map<string, string>();
  const timed = async (work: () => Promise<unknown>, i: number): Promise<number | undefined> => {
    const t0 = performance.now();
    await work();
    return i < warmup ? undefined : performance.now() - t0;
  };
  const click = await inTurns(agents, runs + warmup, async (agent, i) => {
    if (!buttons.has(agent.name)) {
      await agent.navigate(`${base}/agent/small`);
      buttons.set(agent.name, refOf(await agent.snapshot(), 'button "Add one"'));
    }
    return timed(() => agent.click(buttons.get(agent.name)!, "Add one button"), i);
  });
  const snapshot = await inTurns(agents, runs + warmup, (agent, i) => timed(() => agent.snapshot(), i));
  return [
    { name: `${MCP_ROWS.click}: a button on a small page (ms, median of ${runs})`, better: "lower", cells: click },
    { name: `${MCP_ROWS.snapshotLatency}: a small page (ms, median of ${runs})`, better: "lower", cells: snapshot },
  ];
}
