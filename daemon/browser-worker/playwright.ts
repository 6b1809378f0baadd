// Loading Playwright. It is CommonJS: through `require` it skips the ESM
// loader's export scan of its two multi-megabyte bundles, about 100 ms of a
// worker's start on Node 20. Cached after the first call, like any require.
import { createRequire } from "node:module";

export type Playwright = typeof import("playwright-core");

export function loadPlaywright(): Playwright {
  return createRequire(import.meta.url)("playwright-core") as Playwright;
}

/**
 * Calls `fn` (a Playwright API call) from a microtask of its own. Playwright
 * captures and formats its caller's stack, up to 50 frames, on every API
 * call; called straight from a realm's message the stack is some 25 frames
 * of ours and Node's, and formatting them cost most of a `page.title()`.
 */
export function fromShallowStack<T>(fn: () => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queueMicrotask(() => {
      try {
        resolve(fn());
      } catch (error) {
        reject(error);
      }
    });
  });
}
