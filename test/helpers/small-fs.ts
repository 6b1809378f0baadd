// Small file systems for resource tests: a tmpfs of a given size mounted on a
// fresh folder (we are root), filled to the last byte, remounted read-only
// (as root, file modes would not stop a write; a read-only mount does).
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export function mountTmpfs(sizeMiB: number, prefix = "bw-tmpfs-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeMiB}m,mode=0700`, "tmpfs", dir]);
  return dir;
}

/** Writes a filler file until the file system refuses another byte; returns its path. */
export function fillUp(dir: string, name = ".filler"): string {
  const file = path.join(dir, name);
  const fd = openSync(file, "a");
  const block = Buffer.alloc(64 * 1024, 0x66);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  }
  // Whatever a 64 KiB block could not take, smaller writes can.
  for (const size of [4096, 512, 1]) {
    try {
      for (;;) writeSync(fd, block.subarray(0, size));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
    }
  }
  closeSync(fd);
  return file;
}

export function free(file: string): void {
  rmSync(file, { force: true });
}

export function remount(dir: string, mode: "ro" | "rw"): void {
  execFileSync("mount", ["-o", `remount,${mode}`, dir]);
}

/** Unmounts (lazily, should a process still hold a file there) and removes the folder. */
export function unmountTmpfs(dir: string): void {
  try {
    execFileSync("umount", ["-l", dir]);
  } catch {
    // not mounted
  }
  rmSync(dir, { recursive: true, force: true });
}
