// `npm run bench -- --peers`: agent-browser and @playwright/cli installed from
// the npm registry into a temporary folder, measured in the same run as
// betterwright on the bench's pages and the same browser binary, printed as
// one table. Whatever any tool started is ended by pid, and the folder removed.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { BenchContext } from "../context.js";
import { firstLine, installPeer } from "./install.js";
import { coldFirstCall, heavyNavigation, memory, parallelSessions, settle, warmTitle, type Pages } from "./measure.js";
import { runCli } from "./run-cli.js";
import { peerVerdicts } from "./peer-aims.js";
import { formatPeersTable, type Column, type PeerRow } from "./table.js";
import type { Verdict } from "../aims.js";
import { agentBrowser, agentBrowserBinary, betterwright, playwrightCli, type Tool, type ToolSetup } from "./tools.js";
import { peersWorkspace } from "./workspace.js";

export interface PeersResult {
  date: string;
  browser: string;
  columns: Column[];
  rows: PeerRow[];
  table: string;
  /** The aims set against a peer, judged from this run's rows. */
  verdicts: Verdict[];
}

const log = (line: string) => process.stderr.write(`peers: ${line}\n`);

export function versionOf(packageDir: string): string {
  return (JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version: string }).version;
}

interface Added {
  tool: Tool;
  note: string;
}

async function addAgentBrowser(setup: ToolSetup): Promise<Added | string> {
  const installed = await installPeer(path.join(setup.dir, "npm"), "agent-browser", "latest", setup.baseEnv);
  if (!installed.ok) return installed.reason;
  // Its postinstall would download a binary; the package ships them, so none is needed.
  const binary = agentBrowserBinary(installed.packageDir);
  if (!binary) return `agent-browser ${installed.version} ships no binary for ${process.platform}-${process.arch}`;
  try {
    await runCli({ command: binary, args: ["--version"], env: setup.baseEnv, cwd: setup.dir, timeoutMs: 15_000 });
  } catch (error) {
    return `its binary does not run here: ${firstLine(error)}`;
  }
  return { tool: agentBrowser({ ...setup, binary, version: installed.version }), note: `the package's own binary ${path.basename(binary)}, run directly (as a global install links it)` };
}

async function addPlaywrightCli(setup: ToolSetup): Promise<Added | string> {
  const installed = await installPeer(path.join(setup.dir, "npm"), "@playwright/cli", "latest", setup.baseEnv);
  if (!installed.ok) return installed.reason;
  let core = "?";
  try {
    core = versionOf(path.join(setup.dir, "npm", "node_modules", "playwright-core"));
  } catch {
    // reported as unknown
  }
  const script = path.join(installed.packageDir, "playwright-cli.js");
  return { tool: playwrightCli({ ...setup, script, version: installed.version }), note: `@playwright/cli with playwright-core ${core}, run as \`node playwright-cli.js\`` };
}

export async function peersSideBySide(ctx: BenchContext): Promise<PeersResult> {
  const workspace = peersWorkspace("bw-peers-", ctx.browser, process.env);
  const setupFor = (name: string) => workspace.setupFor(name);
  const columns: Column[] = [];
  const tools: Tool[] = [];
  const rows: PeerRow[] = [];
  try {
    const ours = betterwright({ ...setupFor("betterwright"), cli: ctx.cli, version: versionOf(path.join(ctx.root, "..")) });
    tools.push(ours);
    columns.push({ name: ours.name, version: ours.version, note: "this checkout's bundled CLI, `node dist/bin/betterwright.js exec`" });
    for (const [name, add] of [["agent-browser", addAgentBrowser], ["playwright-cli", addPlaywrightCli]] as const) {
      log(`installing ${name}`);
      const added = await add(setupFor(name)).catch((error: unknown) => firstLine(error));
      if (typeof added === "string") {
        log(`${name} not measured: ${added}`);
        columns.push({ name, problem: added });
      } else {
        tools.push(added.tool);
        columns.push({ name, version: added.tool.version, note: added.note });
      }
    }
    const pages: Pages = { plain: ctx.url, heavy: `${ctx.url}/heavy` };
    log("cold first call");
    rows.push(await coldFirstCall(tools, pages, 5));
    log("warm call");
    rows.push(await warmTitle(tools, pages, 20));
    log("navigation to 100 subresources");
    rows.push(await heavyNavigation(tools, pages, 5));
    for (const tool of tools) await settle(tool);
    log("1 vs 4 sessions");
    rows.push(...await parallelSessions(tools, pages, 6));
    log("memory");
    rows.push(...await memory(tools, pages, [1, 5, 10]));
  } finally {
    for (const tool of tools) await settle(tool).catch(() => []);
    const left = await workspace.remove();
    if (left.length) log(`killed ${left.length} process(es) that outlived SIGTERM: ${left.join(", ")}`);
  }
  const table = formatPeersTable(columns, rows);
  const verdicts = peerVerdicts(rows, columns[0]!.name);
  return { date: new Date().toISOString().slice(0, 10), browser: ctx.browser, columns, rows, table, verdicts };
}
