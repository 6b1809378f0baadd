// Writing V8's compiled code for the next process (shared/code-cache-file.ts
// names and reads it): owner-only and atomic, older builds' files pruned.
import { lstatSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { ensurePrivateDir, writeFileAtomic } from "./secure-fs.js";

/** Caches of other builds and Node versions kept beside the current one (two installs used in turn keep theirs). */
export const KEEP_OTHER_CACHES = 4;

/** Writes `data` as the cache `file` (owner-only), and prunes the oldest other caches of its prefix; a cache that cannot be written is no error. */
export function saveCodeCacheFile(file: string, data: Buffer, prefix: string): void {
  try {
    const dir = path.dirname(file);
    ensurePrivateDir(dir);
    writeFileAtomic(file, data);
    const others = readdirSync(dir)
      .filter((name) => name !== path.basename(file) && name.startsWith(`${prefix}-`) && name.endsWith(".bin"))
      .map((name) => ({ name, mtime: lstatSync(path.join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const old of others.slice(KEEP_OTHER_CACHES)) rmSync(path.join(dir, old.name), { force: true });
  } catch {
    // A read-only or full folder: the next start compiles again, as it did before.
  }
}
