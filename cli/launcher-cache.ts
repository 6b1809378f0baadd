// Where the launcher finds V8's cache of the CLI bundle, and whether it may
// use what it finds there. Node built-ins only: this runs before the bundle,
// compiled afresh on every call.
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from "node:fs";
import path from "node:path";
import { boolWord } from "../shared/bool-words.js";

/** The bundle as the launcher compiles it: a CommonJS module's function, with the launcher's import() beside require. */
export function wrapBundle(source: string): string {
  return `(function (exports, require, module, __filename, __dirname, __bwImport) {${source}\n})`;
}

/** A cache larger than this is not ours (the bundle's is ~250 KB). */
export const MAX_CODE_CACHE_BYTES = 32 * 1024 * 1024;

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

/** What of a process's flags the cache's name depends on: V8 refuses a cache made under other flags. */
export function codeCacheFlags(execArgv: readonly string[], env: NodeJS.ProcessEnv): string {
  return `${execArgv.join("\0")}\0${env.NODE_OPTIONS ?? ""}`;
}

/** FNV-1a of the text: V8 refuses a cache made under other flags, so each set of flags keeps its own. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16);
}

/**
 * The cache file for this build of the bundle (its size, change time and
 * inode: V8 checks only the source's length) under this V8 and these flags.
 */
export function codeCacheName(bundle: Pick<Stats, "size" | "mtimeMs" | "ino">, v8: string, arch: string, flags: string): string {
  return `cli-${v8}-${arch}-${bundle.size}-${Math.floor(bundle.mtimeMs)}-${bundle.ino}-${hash(flags)}.bin`;
}

/**
 * The cache's bytes when it is a regular file of ours that nobody else can
 * write, read without following a link; undefined otherwise. The cache is
 * code: one planted by someone else must never run.
 */
export function readCodeCache(file: string, uid: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.uid !== uid || (info.mode & 0o022) !== 0 || info.size > MAX_CODE_CACHE_BYTES) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
