// Whether a process is still running: signal 0 checks without delivering
// anything (EPERM means it exists but belongs to someone else). A zombie has
// exited and waits only to be reaped by its parent, which for a detached
// daemon is whatever adopted it, sometimes a second later: it counts as gone.
import { readFileSync } from "node:fs";

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // "pid (comm) S …": the state follows the last ")", since comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.charAt(stat.lastIndexOf(")") + 2) === "Z";
  } catch {
    return false; // no /proc (macOS), or gone meanwhile: signal 0 had the last word
  }
}
