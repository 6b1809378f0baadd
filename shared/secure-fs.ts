// Files under the home are 0600 in 0700 folders, written so that a crash
// leaves either the old content or the new, never a mix. Nothing here writes
// through a link, or into a folder another user could swap: the checks are
// shared/path-trust.ts, run on lstat results (a few per call, no reads).
import { closeSync, constants, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, renameSync, rmSync, writeSync, chmodSync, type Stats } from "node:fs";
import path from "node:path";
import { BwError } from "./protocol/errors.js";
import { ownProblem, PRIVATE_DIR, problemOf, PRIVATE_FILE, PRIVATE_SOCKET, walkBelow, walkChain, type ChainResult, type FsView, type NodeInfo, type OwnRule, type PathProblem } from "./path-trust.js";

/** open(2) flags that never follow a link at the last component. */
export const APPEND_NOFOLLOW = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;
export const READ_NOFOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW;
/** A new file only: O_EXCL fails on anything already there, a link included. */
export const CREATE_NEW_NOFOLLOW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Our uid; undefined where there are no uids (Windows), and then nothing is checked. */
export function currentUid(): number | undefined {
  return process.getuid?.();
}

function infoOf(stat: Stats): NodeInfo {
  const kind = stat.isDirectory() ? "dir" : stat.isSymbolicLink() ? "symlink" : stat.isFile() ? "file" : stat.isSocket() ? "socket" : "other";
  return { kind, uid: stat.uid, mode: stat.mode & 0o7777 };
}

/** The real file system, as path-trust sees it. */
export const NODE_FS: FsView = {
  lstat(p) {
    try {
      return infoOf(lstatSync(p));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  },
  readlink: (p) => readlinkSync(p),
};

export function unsafePath(problem: PathProblem): BwError {
  return new BwError("UNSAFE_PATH", `refusing to use ${problem.path}: it ${problem.reason}. Fix: ${problem.fix}`, { details: problem });
}

/** A file where a folder is needed: the errno error mkdir would give, so callers describe it as they always have. */
function notAFolder(p: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${p}'`), { code: "ENOTDIR", syscall: "mkdir", path: p });
}

function mkdirOnce(dir: string): NodeJS.ErrnoException | undefined {
  try {
    mkdirSync(dir, { mode: 0o700 });
    return undefined;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return e.code === "EEXIST" ? undefined : e;
  }
}

/** More folders than any path has components: a walk that keeps finding one missing is not converging. */
const MAX_FOLDERS_MADE = 256;

/** Runs a walk, making each missing folder (0700) and walking again, until it passes or fails. */
function settle(walk: () => ChainResult): string {
  for (let made = 0; ; made++) {
    const result = walk();
    if (result.status === "ok") return result.resolved;
    if (result.status === "unsafe") throw unsafePath(result.problem);
    if (result.status === "not-a-folder") throw notAFolder(result.path);
    const error = made < MAX_FOLDERS_MADE ? mkdirOnce(result.missing) : Object.assign(new Error(`cannot make ${result.missing}`), { code: "ENOENT", path: result.missing });
    if (error) throw error;
  }
}

/**
 * Makes `dir` (0700, and any missing parent) and checks the whole way to it:
 * parents ours or root's and not writable by others, `dir` ours by `rule`.
 * `dir` may be a link (a home may) unless `finalMayBeLink` is false.
 */
export function ensureTrustedDir(dir: string, rule: OwnRule = PRIVATE_DIR, finalMayBeLink = true): void {
  const uid = currentUid();
  if (uid === undefined) {
    ensurePrivateDir(dir);
    return;
  }
  settle(() => walkChain(NODE_FS, path.resolve(dir), uid, rule, finalMayBeLink));
}

/** The first problem on the way to `dir`, without creating anything (doctor, the client). */
export function trustProblem(dir: string, rule: OwnRule = PRIVATE_DIR): PathProblem | undefined {
  const uid = currentUid();
  if (uid === undefined) return undefined;
  return problemOf(walkChain(NODE_FS, path.resolve(dir), uid, rule));
}

/**
 * mkdir -p (0700), walked by hand: Node's `recursive: true` never returns when
 * a parent exists but refuses the child with ENOENT (under /proc or /sys).
 * With `root` (a folder already trusted, the home), every folder from there
 * down must be a real folder of ours, not writable by others; without it,
 * `dir` itself must be.
 */
export function ensurePrivateDir(dir: string, root?: string): void {
  const uid = currentUid();
  if (root !== undefined && uid !== undefined) {
    settle(() => walkBelow(NODE_FS, root, dir, uid));
    return;
  }
  const first = mkdirOnce(dir);
  if (first) {
    const parent = path.dirname(dir);
    if (first.code !== "ENOENT" || parent === dir) throw first;
    ensurePrivateDir(parent);
    const second = mkdirOnce(dir);
    if (second) throw second;
  }
  const info = NODE_FS.lstat(dir);
  if (info === undefined) throw Object.assign(new Error(`ENOENT: ${dir} vanished`), { code: "ENOENT", path: dir });
  if (info.kind !== "dir" && info.kind !== "symlink") throw notAFolder(dir);
  const problem = uid === undefined ? undefined : ownProblem(dir, info, uid, PRIVATE_DIR);
  if (problem) throw unsafePath(problem);
}

/** The error for a link met where O_NOFOLLOW refused it (ELOOP), else the error as it was. */
export function linkRefusal(error: unknown, file: string): unknown {
  if ((error as NodeJS.ErrnoException).code !== "ELOOP") return error;
  const info = NODE_FS.lstat(file);
  const uid = currentUid();
  return info?.kind === "symlink" && uid !== undefined ? unsafePath(ownProblem(file, info, uid, PRIVATE_FILE)!) : error;
}

/**
 * Opens a file the daemon writes (or reads back): never through a link, and
 * only a regular file of ours that others cannot write (checked on the open fd).
 */
export function openPrivateFile(file: string, flags: number = APPEND_NOFOLLOW): number {
  let fd: number;
  try {
    fd = openSync(file, flags | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    throw linkRefusal(error, file);
  }
  const uid = currentUid();
  const problem = uid === undefined ? undefined : ownProblem(file, infoOf(fstatSync(fd)), uid, PRIVATE_FILE);
  if (problem) {
    closeSync(fd);
    throw unsafePath(problem);
  }
  return fd;
}

/** A file's text, read through openPrivateFile (no link, ours). */
export function readPrivateFile(file: string): string {
  const fd = openPrivateFile(file, READ_NOFOLLOW);
  try {
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether a daemon's socket is there (false: nothing at the path), and if so
 * that it and the folder it is in are ours alone: checked before a client
 * sends anything, and by the daemon once bound.
 */
export function checkSocket(socketPath: string): boolean {
  const uid = currentUid();
  const info = NODE_FS.lstat(socketPath);
  if (info === undefined) return false;
  if (uid === undefined) return true;
  const problem = trustProblem(path.dirname(socketPath)) ?? ownProblem(socketPath, info, uid, PRIVATE_SOCKET);
  if (problem) throw unsafePath(problem);
  return true;
}

function openNewTemp(tmp: string): number {
  try {
    return openSync(tmp, CREATE_NEW_NOFOLLOW, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    ensurePrivateDir(path.dirname(tmp));
    return openSync(tmp, CREATE_NEW_NOFOLLOW, 0o600);
  }
}

/** Write via a new temp file (never through a link), fsync, rename, fsync the folder. */
export function writeFileAtomic(file: string, data: string | Buffer): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openNewTemp(tmp);
  try {
    try {
      writeSync(fd, typeof data === "string" ? Buffer.from(data) : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (error) {
    // A full disk leaves the old file as it was and no half-written temp file beside it.
    rmSync(tmp, { force: true });
    throw error;
  }
  try {
    const dfd = openSync(dir, "r");
    try { fsyncSync(dfd); } finally { closeSync(dfd); }
  } catch {
    // Some filesystems refuse fsync on a directory; the rename is still atomic.
  }
}

export function makePrivate(file: string): void {
  chmodSync(file, 0o600);
}
