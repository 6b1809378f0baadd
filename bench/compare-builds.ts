// Two builds of betterwright side by side on this machine: a library call
// (`bw.run('return page.title()')`) and the per-snippet cost of one `repl`
// process, each build with its own daemon and home (the repl in a session of its own), in interleaved rounds so
// that both see the same moments of a noisy machine. Prints each round's
// ratio (second build / first) summarized, and the ratio of the overall medians.
//
//   npm run build && node dist/bench/compare-builds.js <first-root> <second-root> [--rounds N] [--uncontained] [--snippet CODE]
//
// A root is a checkout with `npm ci && npm run build` done (e.g. a `git worktree`
// of an older commit). --uncontained runs both workers without bubblewrap, for
// a build from before containment. --snippet times another library call
// (its page holds <title>compare</title> and <p id="t">text</p>).
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { median, runProcess } from "./stats.js";

interface Client {
  run(code: string, options: { session: string }): Promise<{ ok: boolean; error?: unknown }>;
  close(options: { stopDaemon: boolean }): Promise<void>;
}

interface Side {
  root: string;
  env: NodeJS.ProcessEnv;
  home: string;
  bw: Client;
  calls: number[];
  callRounds: number[];
  repl: number[];
}

const CALL_BLOCK = 30;
const REPL_SNIPPETS = 200;

const quartiles = (values: number[]): [number, number] => {
  const s = [...values].sort((a, b) => a - b);
  return [s[Math.floor(s.length / 4)]!, s[Math.floor((s.length * 3) / 4)]!];
};

async function open(root: string, env: NodeJS.ProcessEnv, snippet: string): Promise<Side> {
  const home = mkdtempSync(path.join(tmpdir(), "bw-compare-"));
  const { BetterWright } = (await import(pathToFileURL(path.join(root, "dist/client/index.js")).href)) as { BetterWright: new (o: object) => Client };
  const bw = new BetterWright({ home, env });
  const first = await bw.run("await page.setContent('<title>compare</title><p id=\"t\">text</p>'); return 1", { session: "s" });
  if (!first.ok) throw new Error(`${root}: the first call failed: ${JSON.stringify(first.error)}`);
  for (let i = 0; i < 100; i++) await bw.run(snippet, { session: "s" });
  return { root, env: { ...env, BETTERWRIGHT_HOME: home }, home, bw, calls: [], callRounds: [], repl: [] };
}

async function callRound(side: Side, snippet: string): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < CALL_BLOCK; i++) {
    const t0 = performance.now();
    await side.bw.run(snippet, { session: "s" });
    times.push(performance.now() - t0);
  }
  side.calls.push(...times);
  side.callRounds.push(median(times));
}

/** Milliseconds per snippet of one `repl` process of the build streaming 200 trivial snippets into a session of their own. */
async function replRound(side: Side): Promise<void> {
  const input = Array.from({ length: REPL_SNIPPETS }, (_, i) => `return ${i}\n\n`).join("");
  const t0 = performance.now();
  await runProcess(process.execPath, [path.join(side.root, "dist/bin/betterwright.js"), "repl", "--session", "repl"], side.env, input);
  side.repl.push((performance.now() - t0) / REPL_SNIPPETS);
}

function report(name: string, unit: string, a: number[], b: number[], overall: [number, number]): void {
  const ratios = b.map((v, i) => v / a[i]!);
  const [q1, q3] = quartiles(ratios);
  console.log(`${name}: ${overall[0].toFixed(3)} → ${overall[1].toFixed(3)} ${unit} (overall ×${(overall[1] / overall[0]).toFixed(3)}); per round ×${median(ratios).toFixed(3)} (quartiles ${q1.toFixed(3)}–${q3.toFixed(3)}, ${ratios.length} rounds)`);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: "string", default: "40" }, uncontained: { type: "boolean", default: false }, snippet: { type: "string", default: "return page.title()" } } });
  const snippet = values.snippet;
  const rounds = Number(values.rounds);
  if (positionals.length !== 2 || !Number.isInteger(rounds) || rounds < 2) {
    console.error("usage: node dist/bench/compare-builds.js <first-root> <second-root> [--rounds N] [--uncontained] [--snippet CODE]");
    process.exit(2);
  }
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("BETTERWRIGHT_")) env[key] = value;
  let noBwrap: string | undefined;
  if (values.uncontained) {
    // A PATH with node alone: neither build finds bubblewrap.
    noBwrap = mkdtempSync(path.join(tmpdir(), "bw-compare-path-"));
    symlinkSync(process.execPath, path.join(noBwrap, "node"));
    env.PATH = noBwrap;
  }
  const sides = [await open(path.resolve(positionals[0]!), env, snippet), await open(path.resolve(positionals[1]!), env, snippet)] as const;
  try {
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? [sides[1], sides[0]] : [sides[0], sides[1]];
      for (const side of order) await callRound(side, snippet);
      if (r % 4 === 0) for (const side of order) await replRound(side);
      if (process.stderr.isTTY) process.stderr.write(`\rround ${r + 1}/${rounds}`);
    }
    process.stderr.write("\n");
    const [a, b] = sides;
    console.log(`first: ${a.root}\nsecond: ${b.root}`);
    report(`library call, bw.run(${JSON.stringify(snippet)})`, "ms", a.callRounds, b.callRounds, [median(a.calls), median(b.calls)]);
    report(`repl, ${REPL_SNIPPETS} × \`return i\` in one process`, "ms a snippet", a.repl, b.repl, [median(a.repl), median(b.repl)]);
  } finally {
    for (const side of sides) await side.bw.close({ stopDaemon: true }).catch(() => {});
    // Chromium may still be writing its profile as its daemon goes: a home that will not go yet is left to the system's temp cleaning.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const side of sides) {
      try { rmSync(side.home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }); } catch (error) { console.error(`left ${side.home}: ${(error as Error).message}`); }
    }
    if (noBwrap) rmSync(noBwrap, { recursive: true, force: true });
  }
}

await main();
