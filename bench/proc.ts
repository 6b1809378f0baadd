// Process trees and their proportional set size, from /proc (Linux).
import { readdirSync, readFileSync } from "node:fs";

export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

export function descendants(pid: number): number[] {
  const all: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const next = childrenOf(queue.shift()!);
    all.push(...next);
    queue.push(...next);
  }
  return all;
}

export function pssKb(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

export function treePssMb(pids: number[]): number {
  return Math.round(pids.reduce((sum, pid) => sum + pssKb(pid), 0) / 1024);
}

export function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}
