// Finding and ending the processes a tool left behind, by pid. Daemons detach
// and are adopted by init, so a tool's processes are found by what they point
// into (their command line or working folder under the tool's folder) and by
// descent from those, all collected before the first signal: once a daemon
// is gone its browser is nobody's child. A pid is signalled only while its
// start time is the one recorded, so a reused pid is never hit.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { cmdline, descendants } from "../proc.js";

export interface ProcessRef {
  pid: number;
  /** Field 22 of /proc/<pid>/stat: clock ticks after boot, unique with the pid. */
  startTicks: string;
}

interface ProcStat {
  ppid: number;
  state: string;
  startTicks: string;
}

/** Parses /proc/<pid>/stat text; the command name may hold spaces and parentheses. */
export function parseStat(text: string): ProcStat {
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state); field n is fields[n - 3].
  return { state: fields[0]!, ppid: Number(fields[1]), startTicks: fields[19]! };
}

function stat(pid: number): ProcStat | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

function cwd(pid: number): string {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return "";
  }
}

/** True when the command line or the working folder lies under one of the folders. */
export function pointsInto(command: string, workingDir: string, dirs: readonly string[]): boolean {
  return dirs.some((dir) => command.includes(dir) || workingDir === dir || workingDir.startsWith(`${dir}/`));
}

/** Live processes (not this one, not its ancestors' tree above it) pointing into the folders. */
export function processesUnder(dirs: readonly string[]): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    if (pointsInto(cmdline(pid), cwd(pid), dirs)) out.push(pid);
  }
  return out;
}

/** The processes and all their descendants, each with its start time, de-duplicated. */
export function treeOf(roots: readonly number[]): ProcessRef[] {
  const seen = new Map<number, ProcessRef>();
  for (const pid of [...roots, ...roots.flatMap((root) => descendants(root))]) {
    const s = stat(pid);
    if (s && !seen.has(pid)) seen.set(pid, { pid, startTicks: s.startTicks });
  }
  return [...seen.values()];
}

/** Still the same process and not a zombie (a zombie holds nothing but its pid). */
export function isAlive(ref: ProcessRef): boolean {
  const s = stat(ref.pid);
  return s !== undefined && s.startTicks === ref.startTicks && s.state !== "Z";
}

function signal(ref: ProcessRef, sig: NodeJS.Signals): void {
  if (!isAlive(ref)) return;
  try {
    process.kill(ref.pid, sig);
  } catch {
    // gone meanwhile
  }
}

/** SIGTERM to each, SIGKILL to what is left after graceMs; resolves with the pids that needed SIGKILL. */
export async function reap(refs: readonly ProcessRef[], graceMs = 3000): Promise<number[]> {
  for (const ref of refs) signal(ref, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (refs.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const left = refs.filter(isAlive);
  for (const ref of left) signal(ref, "SIGKILL");
  return left.map((r) => r.pid);
}
