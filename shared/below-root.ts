// Files below a trusted folder whose inside another party can write (the
// artifact store, which a worker writes): every folder on the way is opened
// without following a link and checked to be a real folder of ours, and the
// file is reached from the open folder, never by its path again, so a folder
// swapped for a link between the check and the use leads nowhere. Linux walks
// from each open folder through /proc/self/fd (openat's effect); elsewhere
// each step is lstat-checked and compared with what was opened.
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readSync, rmSync, type Stats } from "node:fs";
import path from "node:path";
import { BwError } from "./protocol/errors.js";
import { ownProblem, PRIVATE_DIR, PRIVATE_FILE, type OwnRule } from "./path-trust.js";
import { writeFileAtomic } from "./secure-fs.js";

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** O_NONBLOCK: a FIFO planted where a file should be must not hang the reader. */
const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0);
const PROC_FD = "/proc/self/fd";

function refuse(file: string, reason: string): never {
  throw new BwError("UNSAFE_PATH", `refusing to read ${file}: ${reason}`);
}

function kindOf(stat: Stats): "dir" | "file" | "other" {
  return stat.isDirectory() ? "dir" : stat.isFile() ? "file" : "other";
}

/** Closes `fd` and throws unless it is a folder (or file) of ours that others cannot write. */
function check(fd: number, shown: string, rule: OwnRule): void {
  const stat = fstatSync(fd);
  const uid = process.getuid?.();
  const problem = uid === undefined ? (kindOf(stat) === rule.kind ? undefined : { reason: `is not a ${rule.kind === "dir" ? "folder" : "file"}` })
    : ownProblem(shown, { kind: kindOf(stat), uid: stat.uid, mode: stat.mode & 0o7777 }, uid, rule);
  if (problem) {
    closeSync(fd);
    refuse(shown, `it ${problem.reason}`);
  }
}

/** The parts of `file` below `root`: none empty, none `.` or `..`; throws when it is not below. */
export function partsBelow(root: string, file: string): string[] {
  const rel = path.relative(path.resolve(root), path.resolve(file));
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel) || !path.isAbsolute(file)) refuse(file, `it is not inside ${root}`);
  return rel.split(path.sep);
}

/** One step down from the open folder `dirFd` (at `dirPath`), never through a link. */
function step(dirFd: number, dirPath: string, name: string, flags: number): number {
  const shown = path.join(dirPath, name);
  if (existsSync(PROC_FD)) {
    try {
      return openSync(path.join(PROC_FD, String(dirFd), name), flags);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ELOOP" || code === "ENOTDIR") refuse(shown, "it is a link, or not what it should be");
      throw error;
    }
  }
  // No /proc: check the step by its path, open it without following, and make sure both are the same node.
  const before = lstatSync(shown);
  if (before.isSymbolicLink()) refuse(shown, "it is a link");
  const fd = openSync(shown, flags);
  const opened = fstatSync(fd);
  if (opened.ino !== before.ino || opened.dev !== before.dev) {
    closeSync(fd);
    refuse(shown, "it changed while it was opened");
  }
  return fd;
}

/**
 * The folder `dir` below `root`, open (O_DIRECTORY, each step O_NOFOLLOW and
 * checked to be a folder of ours). `root` itself is trusted as it is named.
 */
export function openDirBelow(root: string, dir: string): number {
  const parts = partsBelow(root, dir);
  let fd = openSync(root, constants.O_RDONLY | constants.O_DIRECTORY);
  let at = root;
  for (const name of parts) {
    let next: number;
    try {
      next = step(fd, at, name, DIR_FLAGS);
    } finally {
      closeSync(fd);
    }
    fd = next;
    at = path.join(at, name);
    check(fd, at, PRIVATE_DIR);
  }
  return fd;
}

/** The path that reaches `name` inside the open folder `dirFd` without looking up its path again (Linux); else `fallback`. */
export function pathInOpenDir(dirFd: number, name: string, fallback: string): string {
  return existsSync(PROC_FD) ? path.join(PROC_FD, String(dirFd), name) : fallback;
}

/** `file` below `root`, opened read-only: a regular file of ours, reached without following any link. */
export function openFileBelow(root: string, file: string): number {
  const parts = partsBelow(root, file);
  const dir = path.join(root, ...parts.slice(0, -1));
  const dirFd = parts.length === 1 ? openSync(root, constants.O_RDONLY | constants.O_DIRECTORY) : openDirBelow(root, dir);
  let fd: number;
  try {
    fd = step(dirFd, dir, parts[parts.length - 1]!, FILE_FLAGS);
  } finally {
    closeSync(dirFd);
  }
  check(fd, file, PRIVATE_FILE);
  return fd;
}

export type BoundedRead = { bytes: Buffer } | { tooLarge: number };

/** The open file's bytes, or its size when larger than `maxBytes`; it must not change while it is read. Closes `fd`. */
export function readOpenFile(fd: number, maxBytes: number): BoundedRead {
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error("not a regular file");
    if (stat.size > maxBytes) return { tooLarge: stat.size };
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    // One more byte means the file grew past what fstat said.
    if (read !== bytes.length || readSync(fd, Buffer.alloc(1), 0, 1, read) !== 0) throw new Error("the file changed while it was read");
    return { bytes };
  } finally {
    closeSync(fd);
  }
}

/** `file` below `root`, read whole within `maxBytes`, never through a link. */
export function readBelow(root: string, file: string, maxBytes: number): BoundedRead {
  return readOpenFile(openFileBelow(root, file), maxBytes);
}

/** Runs `body` with `file`'s folder open below `root` and the path that reaches `file` from it. */
function inOpenDir<T>(root: string, file: string, body: (inDir: string) => T): T {
  const fd = openDirBelow(root, path.dirname(path.resolve(file)));
  try {
    return body(pathInOpenDir(fd, path.basename(file), file));
  } finally {
    closeSync(fd);
  }
}

/** Removes `file` below `root` (gone already is fine), through no link: a swapped folder refuses, never removes elsewhere. */
export function unlinkBelow(root: string, file: string): void {
  inOpenDir(root, file, (inDir) => rmSync(inDir, { force: true }));
}

/** Writes `file` below `root` atomically, into its folder as opened without following links. */
export function writeBelow(root: string, file: string, data: string | Buffer): void {
  inOpenDir(root, file, (inDir) => writeFileAtomic(inDir, data));
}

/** `file`'s size when it is a regular file of ours below `root`, reached through no link. */
export function sizeBelow(root: string, file: string): number {
  const fd = openFileBelow(root, file);
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}
