// The `betterwright` command's first code (dist/bin/betterwright.js). It
// compiles the CLI bundle (dist/bin/cli.cjs) with V8's code cache from the
// last warm call, so a warm call neither parses nor compiles the CLI again;
// on Node 20 a CommonJS script is the only kind a public API can do this
// for. Without a usable cache it compiles as any script is compiled, and
// after a warm call it leaves a cache for the next (cli/code-cache.ts).
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { codeCacheFlags, readCodeCache } from "../shared/code-cache-file.js";
import { codeCacheDir, codeCacheName, codeCacheOff, wrapBundle } from "./launcher-cache.js";

interface CliBundle {
  start(argv: string[]): Promise<{ warm: boolean }>;
  saveCodeCache(file: string, data: Buffer): void;
}

const bundle = fileURLToPath(new URL("./cli.cjs", import.meta.url));
const fd = openSync(bundle, "r");
const info = fstatSync(fd);
const source = readFileSync(fd, "utf8");
closeSync(fd);

const uid = process.getuid?.();
const dir = uid === undefined || codeCacheOff(process.env) ? undefined : codeCacheDir(process.env, process.platform, homedir());
const cacheFile = dir === undefined ? undefined : path.join(dir, codeCacheName(info, process.versions.v8, process.arch, codeCacheFlags(process.execArgv, process.env)));
const cachedData = cacheFile === undefined ? undefined : readCodeCache(cacheFile, uid!);

const script = new vm.Script(wrapBundle(source), {
  filename: bundle,
  ...(cachedData ? { cachedData } : {}),
});
const module = { exports: {} as CliBundle };
// The bundle's import() (scripts/bundle-cli.mjs): this file's, which resolves from the same folder.
const load = (specifier: string) => import(specifier);
(script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle), load);

const stale = cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected === true);
void module.exports.start(process.argv.slice(2)).then(({ warm }) => {
  // After the call, so that the cache holds what a warm call compiled, not just the bundle's top level.
  if (stale && warm) module.exports.saveCodeCache(cacheFile, script.createCachedData());
});
