// Loading Playwright. It is CommonJS: through `require` it skips the ESM
// loader's export scan of its two multi-megabyte bundles, about 100 ms of a
// worker's start on Node 20. Cached after the first call, like any require.
import { createRequire } from "node:module";

export type Playwright = typeof import("playwright-core");

export function loadPlaywright(): Playwright {
  return createRequire(import.meta.url)("playwright-core") as Playwright;
}
