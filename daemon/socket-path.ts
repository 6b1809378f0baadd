// Preparing the place the daemon binds: the home (checked by prepareHome), or
// for a path too long for sun_path, an owner-only folder under the temp
// directory that must not be a link, and whose every parent is ours or root's
// and writable by nobody else (a root-owned sticky /tmp excepted).
import { unlinkSync } from "node:fs";
import path from "node:path";
import { OWNER_ONLY } from "../shared/path-trust.js";
import { ensureTrustedDir } from "../shared/secure-fs.js";

export function prepareSocketDir(socketPath: string, home: string): void {
  const dir = path.dirname(socketPath);
  ensureTrustedDir(home);
  if (dir === home) return;
  ensureTrustedDir(dir, { kind: "dir", forbidden: OWNER_ONLY }, false);
}

/** Only ever called while holding the profile lock: whatever is there is stale. */
export function removeStaleSocket(socketPath: string): void {
  try {
    unlinkSync(socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
