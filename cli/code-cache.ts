// The CLI bundle's compiled code, kept between calls (cli/launcher.ts reads
// it). Written once per bundle build and Node version, after a warm-path call
// has compiled what such a call runs; owner-only, like everything we write.
import { saveCodeCacheFile } from "../shared/code-cache-save.js";

/** Writes `data` as the code cache `file`, and prunes the oldest other caches; a cache that cannot be written is no error. */
export function saveCodeCache(file: string, data: Buffer): void {
  saveCodeCacheFile(file, data, "cli");
}
