// npm run bench [-- --quick] [-- --peers]: every scenario, a table each, and a
// JSON file in bench/results/. Ratios are against baselines measured in the
// same run. --peers (or --only=peers) adds agent-browser and playwright-cli,
// and Playwright MCP beside `betterwright mcp`; --only=mcp-peers the latter alone.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createContext } from "./context.js";
import { concurrency } from "./scenarios/concurrency.js";
import { containmentCost } from "./scenarios/containment.js";
import { isolatedSessions } from "./scenarios/isolated.js";
import { lanes } from "./scenarios/lanes.js";
import { coldCall, libraryCall } from "./scenarios/library.js";
import { mcpCall } from "./scenarios/mcp.js";
import { httpCall } from "./scenarios/http.js";
import { memory } from "./scenarios/memory.js";
import { guardLoad, replStream, transcriptOverhead } from "./scenarios/overhead.js";
import { operations } from "./scenarios/operations.js";
import { scale } from "./scenarios/scale.js";
import { warmCli } from "./scenarios/startup.js";
import { remoteBrowsers } from "./scenarios/remote.js";
import { recovery } from "./scenarios/recovery.js";
import { autosaveCost } from "./scenarios/autosave.js";
import { stealthAndWebmcp } from "./scenarios/stealth.js";
import { peersSideBySide } from "./peers/side-by-side.js";
import { mcpPeersSideBySide } from "./peers/mcp-side-by-side.js";
import { formatAims, judge, mark, type Verdict } from "./aims.js";
import { printTable } from "./stats.js";

const quick = process.argv.includes("--quick");
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7).split(",");
const peers = process.argv.includes("--peers") || only?.includes("peers") === true;
const mcpPeers = peers || only?.includes("mcp-peers") === true;
const scenarios: [string, typeof warmCli][] = [
  ["warm CLI call", warmCli],
  ["library call", libraryCall],
  ["cold first call", coldCall],
  ["concurrency", concurrency],
  ["lanes: a bystander beside a hog", lanes],
  ["memory (PSS, MB)", memory],
  ["isolated sessions", isolatedSessions],
  ["autosave of isolated storage", autosaveCost],
  ["guard: 100 subresources", guardLoad],
  ["containment: with and without", containmentCost],
  ["transcript and envelope overhead", transcriptOverhead],
  ["streamed snippets (repl)", replStream],
  ["typed operations", operations],
  ["MCP front door", mcpCall],
  ["HTTP front door", httpCall],
  ["stealth mode and WebMCP", stealthAndWebmcp],
  ["remote browsers", remoteBrowsers],
  ["scale: sessions in one daemon", scale],
  ["recovery after kill -9", recovery],
];
/** Only full runs and --only measure these: browser servers of their own (remote), a dozen cold starts (containment, recovery). Scale runs shorter in --quick. */
const FULL_ONLY = new Set(["remote browsers", "containment: with and without", "recovery after kill -9"]);

const ctx = await createContext(quick);
const results: Record<string, unknown> = {};
const verdicts: Verdict[] = [];
process.stdout.write(`# betterwright benchmarks (${quick ? "quick" : "full"})\n\n${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, browser ${ctx.browser}\n`);
try {
  for (const [title, scenario] of scenarios) {
    if (only && !only.some((o) => title.startsWith(o))) continue;
    if (quick && !only && FULL_ONLY.has(title)) continue;
    process.stderr.write(`running: ${title}\n`);
    const started = performance.now();
    const rows = await scenario(ctx);
    process.stderr.write(`  ${title}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    results[title] = rows;
    const judged = rows.map((row) => judge(title, row));
    verdicts.push(...judged.filter((v): v is Verdict => v !== undefined));
    printTable(title, rows, (row) => (row.aim === undefined ? "" : mark(judged[rows.indexOf(row)]?.met)));
  }
  const sides = [
    { wanted: peers, key: "peers", title: "Peers, side by side", measure: peersSideBySide },
    { wanted: mcpPeers, key: "mcpPeers", title: "MCP, side by side with Playwright MCP", measure: mcpPeersSideBySide },
  ];
  for (const { wanted, key, title, measure } of sides) {
    if (!wanted) continue;
    process.stderr.write(`running: ${title}\n`);
    const side = await measure(ctx);
    results[key] = side;
    process.stdout.write(`\n## ${title}\n\n${side.date}, browser ${side.browser}; (n×) is how many times the row's best\n\n${side.table}`);
    verdicts.push(...side.verdicts);
  }
  if (verdicts.length) process.stdout.write(`\n## Aims\n\n${formatAims(verdicts)}`);
} finally {
  await ctx.cleanup();
}
const dir = path.join(ctx.root, "..", "bench", "results");
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `bench-${quick ? "quick" : "full"}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
writeFileSync(file, `${JSON.stringify({ quick, node: process.versions.node, browser: ctx.browser, results, aims: verdicts }, null, 2)}\n`);
process.stdout.write(`\nJSON: ${file}\n`);
