// Process trees and their proportional set size, from /proc (Linux).
import { readdirSync, readFileSync } from "node:fs";

/** Every process's parent, from one pass over /proc. */
function parents(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  return children;
}

export function childrenOf(pid: number): number[] {
  return parents().get(pid) ?? [];
}

export function descendants(pid: number): number[] {
  const children = parents();
  const all: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const next = children.get(queue.shift()!) ?? [];
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

/** CPU time the process has used so far (user + system, every thread), in ms; 0 once it is gone. */
export function cpuMs(pid: number, file = `/proc/${pid}/stat`): number {
  try {
    const stat = readFileSync(file, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** CPU ms of a process's main thread alone (its other threads are cpuMs minus this). */
export const mainThreadCpuMs = (pid: number): number => cpuMs(pid, `/proc/${pid}/task/${pid}/stat`);

/** What a process of a daemon's tree is: the daemon, its worker, or a Chromium process by its `--type`. */
export function processRole(pid: number, daemonPid: number): string {
  if (pid === daemonPid) return "daemon";
  const command = cmdline(pid);
  if (/chrom/.test(command) && !/bwrap/.test(command)) return `chromium ${/--type=([\w-]+)/.exec(command)?.[1] ?? "browser"}`;
  if (/^\S*node\S* .*worker\/main/.test(command)) return "worker";
  return "other";
}

/** PSS in MB of a daemon's tree, by processRole. */
export function pssByRole(daemonPid: number): Record<string, number> {
  const roles: Record<string, number> = {};
  for (const pid of [daemonPid, ...descendants(daemonPid)]) {
    const role = processRole(pid, daemonPid);
    roles[role] = (roles[role] ?? 0) + pssKb(pid) / 1024;
  }
  return roles;
}
