// Files under the home are 0600 in 0700 folders, written so that a crash
// leaves either the old content or the new, never a mix.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeSync, chmodSync } from "node:fs";
import path from "node:path";

export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Write via a temp file, fsync, rename, fsync the folder. */
export function writeFileAtomic(file: string, data: string | Buffer): void {
  const dir = path.dirname(file);
  ensurePrivateDir(dir);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeSync(fd, typeof data === "string" ? Buffer.from(data) : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
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
