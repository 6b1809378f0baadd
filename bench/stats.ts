// Timing helpers: every figure is reported with its median, min and max, and
// as a ratio to a baseline measured in the same run.
import { spawn } from "node:child_process";

export interface Sample {
  medianMs: number;
  minMs: number;
  maxMs: number;
  n: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summarize(values: number[]): Sample {
  const sorted = [...values].sort((a, b) => a - b);
  return { medianMs: round(median(sorted)), minMs: round(sorted[0]!), maxMs: round(sorted[sorted.length - 1]!), n: sorted.length };
}

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export async function timeIt(fn: () => Promise<unknown>, runs: number, warmup = 1): Promise<Sample> {
  for (let i = 0; i < warmup; i++) await fn();
  const values: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    values.push(performance.now() - t0);
  }
  return summarize(values);
}

/** Runs a whole process to completion; rejects on a non-zero exit. */
export function runProcess(command: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(" ")} exited ${code}: ${err}`))));
    child.stdin.end(input ?? "");
  });
}

export interface Row {
  name: string;
  sample: Sample;
  baseline?: string;
  ratio?: number;
  aim?: string;
  note?: string;
}

export function compare(name: string, sample: Sample, baselineName: string, baseline: Sample, aim?: string): Row {
  return { name, sample, baseline: baselineName, ratio: round(sample.medianMs / baseline.medianMs), ...(aim ? { aim } : {}) };
}

export function printTable(title: string, rows: Row[], markOf: (row: Row) => string): void {
  process.stdout.write(`\n## ${title}\n\n| measurement | median ms | min | max | n | vs | ratio | aim | met |\n|---|---|---|---|---|---|---|---|---|\n`);
  for (const r of rows) {
    process.stdout.write(`| ${r.name} | ${r.sample.medianMs} | ${r.sample.minMs} | ${r.sample.maxMs} | ${r.sample.n} | ${r.baseline ?? ""} | ${r.ratio ?? ""} | ${r.aim ?? ""} | ${markOf(r)} |\n`);
  }
}
