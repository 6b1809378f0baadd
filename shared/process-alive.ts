// Whether a process is still running: signal 0 checks without delivering
// anything (EPERM means it exists but belongs to someone else). A zombie has
// exited and waits only to be reaped by its parent, which for a detached
// daemon is whatever adopted it, sometimes a second later: it counts as gone,
// once its last thread has gone too. A killed Node process's main thread turns
// zombie while its other threads are still exiting, and until the last of
// them has, its descriptors (a daemon's listening socket) are still open.
import { readdirSync, readFileSync } from "node:fs";

/** `startTicks`: when the process was known to start (processStartTicks); a live pid that started otherwise is another process. */
export function isProcessAlive(pid: number, startTicks?: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  const stat = statFields(pid);
  if (stat === undefined) return true; // no /proc (macOS), or gone meanwhile: signal 0 had the last word
  if (stat[0] === "Z") return threadsLeft(pid) > 1;
  return startTicks === undefined || Number(stat[19]) === startTicks;
}

/** When `pid` started, in clock ticks since boot (Linux); undefined where /proc does not say. */
export function processStartTicks(pid: number): number | undefined {
  const ticks = Number(statFields(pid)?.[19]);
  return Number.isSafeInteger(ticks) ? ticks : undefined;
}

/** The fields of /proc/<pid>/stat after "pid (comm)": state first, starttime (field 22) at index 19. */
function statFields(pid: number): string[] | undefined {
  try {
    // "pid (comm) S …": the fields follow the last ")", since comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** How many threads /proc still lists for `pid` (a zombie leader counts itself); 0 once it is gone. */
function threadsLeft(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/task`).length;
  } catch {
    return 0;
  }
}
