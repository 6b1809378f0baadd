// Preparing the place the daemon binds: the home (0700), or for a path too
// long for sun_path, an owner-only folder under the temp directory that must
// not be a symlink or someone else's.
import { lstatSync, mkdirSync, unlinkSync } from "node:fs";
import path from "node:path";
import { BwError } from "../shared/errors.js";
import { ensurePrivateDir } from "../shared/secure-fs.js";

export function prepareSocketDir(socketPath: string, home: string): void {
  const dir = path.dirname(socketPath);
  ensurePrivateDir(home);
  if (dir === home) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  const uid = process.getuid?.();
  if (stat.isSymbolicLink() || !stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0) {
    throw new BwError("DAEMON_UNAVAILABLE", `refusing to bind in ${dir}: it must be a directory owned by this user with mode 0700`);
  }
}

/** Only ever called while holding the profile lock: whatever is there is stale. */
export function removeStaleSocket(socketPath: string): void {
  try {
    unlinkSync(socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
