// proper-lockfile's lock, with its lock folder created owner-only. Left to
// itself it makes the folder with the process umask (usually 0755), and
// nothing under the home may be readable by others, not even for a moment.
import * as fs from "node:fs";
import lockfile, { type LockOptions } from "proper-lockfile";

export const LOCK_DIR_MODE = 0o700;

/** The fs proper-lockfile uses, creating the lock folder 0700. Built per call: proper-lockfile caches a probe result on it. */
function ownerOnlyFs(): NonNullable<LockOptions["fs"]> {
  return {
    mkdir: (path: string, callback: (err: NodeJS.ErrnoException | null) => void) =>
      fs.mkdir(path, { mode: LOCK_DIR_MODE }, (err) => callback(err)),
    stat: fs.stat,
    rmdir: fs.rmdir,
    rmdirSync: fs.rmdirSync,
    utimes: fs.utimes,
    realpath: fs.realpath,
  };
}

/** Takes the lock on `target` (proper-lockfile's `lock`); resolves to its release. */
export function lockOwnerOnly(target: string, options: Omit<LockOptions, "fs">): Promise<() => Promise<void>> {
  return lockfile.lock(target, { ...options, fs: ownerOnlyFs() });
}
