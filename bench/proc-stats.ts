// Resource readings of a live process from /proc: resident memory and open
// file descriptors, as `ps` and `ls /proc/<pid>/fd` would show them.
import { readdirSync, readFileSync } from "node:fs";

/** A memory line of /proc/<pid>/status in bytes, or undefined once the process is gone. */
function statusBytes(pid: number, field: "VmRSS" | "VmHWM"): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resident set size in bytes (VmRSS). */
export const rssBytes = (pid: number): number | undefined => statusBytes(pid, "VmRSS");

/** Peak resident set size in bytes (VmHWM). */
export const peakRssBytes = (pid: number): number | undefined => statusBytes(pid, "VmHWM");

/** How many file descriptors the process holds open. */
export function fdCount(pid: number): number | undefined {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return undefined;
  }
}

export const MiB = 1024 * 1024;

export function mib(bytes: number | undefined): string {
  return bytes === undefined ? "?" : `${(bytes / MiB).toFixed(1)} MiB`;
}
