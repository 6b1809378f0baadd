// Playwright's two multi-megabyte bundles compiled from V8's code cache, on
// Node 20 (Node 22 and later keep the worker's compiled code themselves, in
// NODE_COMPILE_CACHE). Its load is most of a worker's start, and most of that
// is compiling. The cache lives in the same folder as Node 22's, the profile's
// `compile-cache`, which only that profile's workers write; a file there is
// used only when it is ours and nobody else can write it.
import { readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire, Module } from "node:module";
import path from "node:path";
import vm from "node:vm";
import { codeCacheFileName, codeCacheFlags, readCodeCache, wrapCommonJs } from "../../shared/code-cache-file.js";
import { saveCodeCacheFile } from "../../shared/code-cache-save.js";

/** coreBundle requires utilsBundle as it runs: utilsBundle goes into require's cache first. */
const BUNDLES = ["utilsBundle.js", "coreBundle.js"] as const;
const PREFIX = "pw";

interface Compiled {
  script: vm.Script;
  file: string;
  /** The cache was missing or V8 refused it: write one after Playwright has run. */
  stale: boolean;
}

/**
 * Where the cache goes: the worker's NODE_COMPILE_CACHE folder (set by the
 * daemon, supervisor/spawn.ts), where Node has no compile cache of its own
 * (Node 20); undefined where it has (Node 22.1 and later use the folder themselves).
 */
export function playwrightCodeCacheDir(env: NodeJS.ProcessEnv, nodeCachesItself = "enableCompileCache" in Module): string | undefined {
  if (nodeCachesItself) return undefined;
  return env.NODE_COMPILE_CACHE || undefined;
}

export class PlaywrightCodeCache {
  private readonly compiled: Compiled[] = [];
  private saved = false;

  constructor(
    /** Undefined: no cache; Playwright loads as any package does. */
    private readonly dir: string | undefined,
    private readonly uid: number | undefined,
    /** What V8 refuses a cache made under other flags for (shared/code-cache-file.ts). */
    private readonly flags: string,
  ) {}

  static forWorker(env: NodeJS.ProcessEnv): PlaywrightCodeCache {
    return new PlaywrightCodeCache(playwrightCodeCacheDir(env), process.getuid?.(), codeCacheFlags(process.execArgv, env));
  }

  /**
   * Runs Playwright's bundles into require's cache, compiled from the code
   * cache where one of ours fits, so that `require("playwright-core")` finds
   * them there. Anything unexpected leaves require's cache as it was: the
   * ordinary load follows.
   */
  preload(): void {
    if (this.dir === undefined || this.uid === undefined) return;
    const require = createRequire(import.meta.url);
    const entries: string[] = [];
    try {
      const lib = path.join(path.dirname(realpathSync(require.resolve("playwright-core"))), "lib");
      for (const name of BUNDLES) {
        const filename = path.join(lib, name);
        if (require.cache[filename]) return;
        const file = path.join(this.dir, codeCacheFileName(`${PREFIX}-${path.basename(name, ".js")}`, statSync(filename), process.versions.v8, process.arch, this.flags));
        const cachedData = readCodeCache(file, this.uid);
        const script = new vm.Script(wrapCommonJs(readFileSync(filename, "utf8")), { filename, ...(cachedData ? { cachedData } : {}) });
        const module = new Module(filename);
        module.filename = filename;
        require.cache[filename] = module;
        entries.push(filename);
        (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(filename), module, filename, lib);
        module.loaded = true;
        this.compiled.push({ script, file, stale: cachedData === undefined || script.cachedDataRejected === true });
      }
    } catch {
      for (const filename of entries) delete require.cache[filename];
      this.compiled.length = 0;
    }
  }

  /** Whether save() has caches to write. */
  get unsaved(): boolean {
    return !this.saved && this.compiled.some((c) => c.stale);
  }

  /**
   * Once, after Playwright has launched and served a run (so the cache holds
   * what a start compiles, not only the bundles' top level): writes the caches
   * that were missing or refused.
   */
  save(): void {
    if (this.saved) return;
    this.saved = true;
    for (const { script, file, stale } of this.compiled) if (stale) saveCodeCacheFile(file, script.createCachedData(), PREFIX);
  }
}
