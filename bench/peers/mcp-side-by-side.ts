// `npm run bench -- --peers` (or `--only=mcp-peers`): betterwright's MCP
// server and Playwright's own (from the playwright-core this checkout
// depends on), both over stdio through the official client, on the bench's
// pages and the same browser binary, printed as one table with the MCP aims.
// Whatever either server started is ended by pid, and its folder removed.
import path from "node:path";
import type { BenchContext } from "../context.js";
import { firstLine } from "./install.js";
import { betterwrightAgent, betterwrightHome, playwrightMcpAgent, type McpAgent } from "./mcp-agents.js";
import { latencyRows, snapshotRows, taskRows, toolsListRow } from "./mcp-measure.js";
import { MCP_PEER, MCP_PEER_AIMS, peerVerdicts } from "./peer-aims.js";
import { runCli } from "./run-cli.js";
import { versionOf, type PeersResult } from "./side-by-side.js";
import { formatPeersTable, type Column, type PeerRow } from "./table.js";
import { peersWorkspace } from "./workspace.js";

const log = (line: string) => process.stderr.write(`mcp peers: ${line}\n`);

export async function mcpPeersSideBySide(ctx: BenchContext): Promise<PeersResult> {
  const workspace = peersWorkspace("bw-mcp-peers-", ctx.browser, process.env);
  const version = versionOf(path.join(ctx.root, ".."));
  const ours = workspace.setupFor("betterwright");
  const columns: Column[] = [];
  const agents: McpAgent[] = [];
  const rows: PeerRow[] = [];
  const runs = ctx.quick ? 10 : 30;
  try {
    for (const [name, start, note] of [
      ["betterwright", () => betterwrightAgent({ ...ours, cli: ctx.cli, version }), "`betterwright mcp` (this checkout's bundled CLI), default tools"],
      [MCP_PEER, () => playwrightMcpAgent(workspace.setupFor("playwright-mcp")), "`playwright-core/cli.js mcp --headless --isolated --no-sandbox --executable-path …`, default tools"],
    ] as const) {
      try {
        const agent = await start();
        agents.push(agent);
        columns.push({ name, version: agent.version, note: `${note}: ${agent.tools.size} tools` });
      } catch (error) {
        log(`${name} not measured: ${firstLine(error)}`);
        columns.push({ name, problem: firstLine(error) });
      }
    }
    rows.push(toolsListRow(agents));
    log("whole snapshots");
    rows.push(...await snapshotRows(agents, ctx.url));
    log("login and row tasks");
    rows.push(...await taskRows(agents, ctx.url));
    log(`click and snapshot latency (${runs} each)`);
    rows.push(...await latencyRows(agents, ctx.url, runs));
  } finally {
    for (const agent of agents) await agent.close().catch(() => undefined);
    const env = { ...workspace.baseEnv, BETTERWRIGHT_HOME: betterwrightHome(ours.dir) };
    await runCli({ command: process.execPath, args: [ctx.cli, "close", "--all"], env, cwd: ours.dir }).catch(() => undefined);
    const left = await workspace.remove();
    if (left.length) log(`killed ${left.length} process(es) that outlived SIGTERM: ${left.join(", ")}`);
  }
  const table = formatPeersTable(columns, rows);
  const verdicts = peerVerdicts(rows, "betterwright", MCP_PEER_AIMS, "MCP peers");
  return { date: new Date().toISOString().slice(0, 10), browser: ctx.browser, columns, rows, table, verdicts };
}
