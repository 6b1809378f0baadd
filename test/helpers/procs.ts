// Finding processes from the outside, as a user with `ps` would: the
// descendants of a pid (by walking /proc ppid links) and the daemons whose
// working directory is a given home.
import { readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { isProcessAlive } from "../../dist/shared/process-alive.js";

function parentOf(pid: number): number | undefined {
  try {
    // The command name in field 2 may hold spaces or parentheses: parse after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

export function allPids(): number[] {
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number);
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** Every live descendant of `root` (children, grandchildren…). */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of allPids()) {
    const parent = parentOf(pid);
    if (parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Whether `pid` is a worker's Node process: not the bwrap processes around it, whose command lines name the worker too. */
export function isWorkerNode(pid: number): boolean {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return false;
  }
  return argv.length > 0 && !/(^|\/)bwrap$/.test(argv[0]!) && /worker\/main\.js$/.test(argv[argv.length - 1]!);
}

/** The worker Node processes of a daemon: its child, or when contained the Node process bwrap started under it. */
export function workersOf(daemon: number): number[] {
  return descendants(daemon).filter(isWorkerNode);
}

/** Direct children of `parent` whose command line matches. */
export function childrenMatching(parent: number, pattern: RegExp): number[] {
  return allPids().filter((pid) => parentOf(pid) === parent && pattern.test(commandLine(pid)));
}

/** Live daemon processes (dist/daemon/main.js) started for `home` (their working directory). */
export function daemonProcessesOf(home: string): number[] {
  const real = realpathSync(home);
  return allPids().filter((pid) => {
    if (!/daemon\/main\.js/.test(commandLine(pid))) return false;
    try {
      return readlinkSync(`/proc/${pid}/cwd`) === real;
    } catch {
      return false;
    }
  });
}

/** Whether `pid` still runs, as the product judges it: a zombie whose last thread has exited counts as gone. */
export const alive = (pid: number): boolean => isProcessAlive(pid);

/** Polls until none of `pids` is alive; returns those still alive at the deadline. */
export async function waitForExit(pids: number[], ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  let living = pids.filter(alive);
  while (living.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    living = living.filter(alive);
  }
  return living;
}

/** Polls `check` every 100 ms until it holds (true) or `ms` pass (false). */
export async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}
