// V8's compiled code kept in a file between processes: its name (what V8
// would refuse it under) and reading it only when it is ours. The CLI's
// launcher keeps its bundle's code this way, and the worker Playwright's on
// Node 20. Node built-ins only: the launcher runs this before any bundle.
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from "node:fs";

/** A cache larger than this is not ours (the CLI bundle's is ~250 KB, Playwright's two bundles' ~10 MB together). */
export const MAX_CODE_CACHE_BYTES = 32 * 1024 * 1024;

/** What of a process's flags a cache's name depends on: V8 refuses a cache made under other flags. */
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
 * The cache file of one script (`prefix` names it) for this build of its source (size, change time and
 * inode: V8 checks only the source's length) under this V8 and these flags.
 */
export function codeCacheFileName(prefix: string, source: Pick<Stats, "size" | "mtimeMs" | "ino">, v8: string, arch: string, flags: string): string {
  return `${prefix}-${v8}-${arch}-${source.size}-${Math.floor(source.mtimeMs)}-${source.ino}-${hash(flags)}.bin`;
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

/** The CommonJS wrapper Node puts around a module's text, with `extra` parameters after Node's own (the launcher's import()). */
export function wrapCommonJs(source: string, extra: readonly string[] = []): string {
  return `(function (${["exports", "require", "module", "__filename", "__dirname", ...extra].join(", ")}) {${source}\n})`;
}
