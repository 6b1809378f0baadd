// The CLI bundle's compiled code, kept between calls (cli/launcher.ts reads
// it). Written once per bundle build and Node version, after a warm-path call
// has compiled what such a call runs; owner-only, like everything we write.
import { lstatSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { ensurePrivateDir, writeFileAtomic } from "../shared/secure-fs.js";

/** Caches of other builds and Node versions kept beside the current one (two installs used in turn keep theirs). */
export const KEEP_OTHER_CACHES = 4;

/** Writes `data` as the code cache `file`, and prunes the oldest other caches; a cache that cannot be written is no error. */
export function saveCodeCache(file: string, data: Buffer): void {
  try {
    const dir = path.dirname(file);
    ensurePrivateDir(dir);
    writeFileAtomic(file, data);
    pruneOthers(dir, path.basename(file));
  } catch {
    // A read-only or full home: the next call compiles again, as it did before.
  }
}

function pruneOthers(dir: string, keep: string): void {
  const others = readdirSync(dir)
    .filter((name) => name !== keep && name.startsWith("cli-") && name.endsWith(".bin"))
    .map((name) => ({ name, mtime: lstatSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of others.slice(KEEP_OTHER_CACHES)) rmSync(path.join(dir, old.name), { force: true });
}
