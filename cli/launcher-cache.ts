// Where the launcher finds V8's cache of the CLI bundle, and whether it may
// use what it finds there. Node built-ins only: this runs before the bundle,
// compiled afresh on every call.
import type { Stats } from "node:fs";
import path from "node:path";
import { boolWord } from "../shared/bool-words.js";
import { codeCacheFileName, wrapCommonJs } from "../shared/code-cache-file.js";

/** The bundle as the launcher compiles it: a CommonJS module's function, with the launcher's import() beside require. */
export function wrapBundle(source: string): string {
  return wrapCommonJs(source, ["__bwImport"]);
}

/** `BETTERWRIGHT_NO_CODE_CACHE` says yes (1, true, yes, on): compile the CLI afresh. Anything else keeps the cache. */
export function codeCacheOff(env: NodeJS.ProcessEnv): boolean {
  return boolWord(env.BETTERWRIGHT_NO_CODE_CACHE ?? "") === true;
}

/**
 * env-paths' cache folder for "betterwright" (shared/paths.ts uses env-paths;
 * test/unit/launcher-cache.test.ts holds the two together), with `code` below
 * it. Undefined where the cache is not used: a platform without uids to check.
 */
export function codeCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string | undefined {
  if (platform === "darwin") return path.join(home, "Library", "Caches", "betterwright", "code");
  if (platform === "win32") return undefined;
  return path.join(env.XDG_CACHE_HOME || path.join(home, ".cache"), "betterwright", "code");
}

/**
 * The cache file for this build of the bundle (its size, change time and
 * inode: V8 checks only the source's length) under this V8 and these flags.
 */
export function codeCacheName(bundle: Pick<Stats, "size" | "mtimeMs" | "ino">, v8: string, arch: string, flags: string): string {
  return codeCacheFileName("cli", bundle, v8, arch, flags);
}
