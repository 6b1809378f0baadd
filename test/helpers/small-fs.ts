// Small file systems for resource tests, filled to the last byte or made
// read-only (file modes would not stop root's writes; a read-only mount does).
// As root: a tmpfs, remounted in place. As an ordinary user: an ext2 image
// mounted with fuse2fs (FUSE needs no privilege), remounted by unmounting and
// mounting it again, which the tests do only while no daemon holds a file there.
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { allPids, commandLine } from "./procs.js";

const asRoot = process.getuid?.() === 0;
const imageOf = (dir: string) => `${dir}.img`;

function found(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

/** Why no small file system can be made here, or undefined when one can. */
export function smallFsUnavailable(): string | undefined {
  if (asRoot) return found("mount") ? undefined : "mount is missing";
  const missing = ["mke2fs", "fuse2fs", "fusermount3"].filter((c) => !found(c));
  if (missing.length > 0) return `as an ordinary user a small file system needs FUSE: ${missing.join(", ")} missing (apt-get install fuse2fs fuse3)`;
  return undefined;
}

function mountImage(dir: string, mode: "ro" | "rw"): void {
  execFileSync("fuse2fs", [imageOf(dir), dir, "-o", mode], { stdio: ["ignore", "ignore", "pipe"] });
}

/** Unmounts, then waits for fuse2fs to finish writing the image, so that it can be mounted again safely. */
function unmountImage(dir: string, lazy = false): void {
  execFileSync("fusermount3", ["-u", ...(lazy ? ["-z"] : []), dir], { stdio: ["ignore", "ignore", "pipe"] });
  const image = imageOf(dir);
  const until = Date.now() + 10_000;
  while (Date.now() < until && allPids().some((pid) => commandLine(pid).includes(image))) Atomics.wait(PAUSE, 0, 0, 50);
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** A fresh folder with a file system of `sizeMiB` mounted on it, owned by us, mode 0700 at the top. */
export function mountSmallFs(sizeMiB: number, prefix = "bw-small-fs-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  try {
    if (asRoot) {
      execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeMiB}m,mode=0700`, "tmpfs", dir]);
    } else {
      const owner = `root_owner=${process.getuid!()}:${process.getgid!()}`;
      execFileSync("mke2fs", ["-q", "-t", "ext2", "-m", "0", "-E", owner, imageOf(dir), `${sizeMiB}M`], { stdio: ["ignore", "ignore", "pipe"] });
      mountImage(dir, "rw");
    }
  } catch (error) {
    rmSync(imageOf(dir), { force: true });
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
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
  if (asRoot) {
    execFileSync("mount", ["-o", `remount,${mode}`, dir]);
    return;
  }
  unmountImage(dir);
  mountImage(dir, mode);
}

/** Unmounts (lazily, should a process still hold a file there) and removes the folder. */
export function unmountSmallFs(dir: string | undefined): void {
  if (dir === undefined) return;
  try {
    if (asRoot) execFileSync("umount", ["-l", dir]);
    else unmountImage(dir, true);
  } catch {
    // not mounted
  }
  rmSync(dir, { recursive: true, force: true });
  rmSync(imageOf(dir), { force: true });
}
