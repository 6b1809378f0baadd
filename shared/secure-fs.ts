// Files under the home are 0600 in 0700 folders, written so that a crash
// leaves either the old content or the new, never a mix.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync, chmodSync, statSync } from "node:fs";
import path from "node:path";

function mkdirOnce(dir: string): NodeJS.ErrnoException | undefined {
  try {
    mkdirSync(dir, { mode: 0o700 });
    return undefined;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return e.code === "EEXIST" && statSync(dir).isDirectory() ? undefined : e;
  }
}

/**
 * mkdir -p, walked by hand: Node's `recursive: true` never returns when a
 * parent exists but refuses the child with ENOENT (under /proc or /sys).
 */
export function ensurePrivateDir(dir: string): void {
  const first = mkdirOnce(dir);
  if (first === undefined) return;
  const parent = path.dirname(dir);
  if (first.code !== "ENOENT" || parent === dir) throw first;
  ensurePrivateDir(parent);
  const second = mkdirOnce(dir);
  if (second) throw second;
}

/** Write via a temp file, fsync, rename, fsync the folder. */
export function writeFileAtomic(file: string, data: string | Buffer): void {
  const dir = path.dirname(file);
  ensurePrivateDir(dir);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, "w", 0o600);
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
