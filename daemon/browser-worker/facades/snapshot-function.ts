// `snapshot(opts?)`: the active page's ARIA tree as text (Playwright's aria
// snapshot), bounded so that one call cannot flood the envelope.
import { BwError } from "../../../shared/protocol/errors.js";
import type { ScopeFunction } from "./scope-functions.js";

export const SNAPSHOT_MAX_CHARS = 20_000;

export interface SnapshotOptions {
  /** Only the subtree of the first element matching this selector. */
  selector?: string;
  /** At most this many characters (capped at SNAPSHOT_MAX_CHARS). */
  maxChars?: number;
  /** "ai" adds element refs and the contents of iframes. */
  mode?: "ai" | "default";
  depth?: number;
}

function options(value: unknown): SnapshotOptions {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw new BwError("INVALID_ARGUMENT", "snapshot() takes { selector, maxChars, mode, depth }");
  const o = value as Record<string, unknown>;
  const out: SnapshotOptions = {};
  if (o.selector !== undefined) {
    if (typeof o.selector !== "string") throw new BwError("INVALID_ARGUMENT", "snapshot selector must be a string");
    out.selector = o.selector;
  }
  if (o.maxChars !== undefined) {
    if (typeof o.maxChars !== "number" || !(o.maxChars > 0)) throw new BwError("INVALID_ARGUMENT", "snapshot maxChars must be a positive number");
    out.maxChars = o.maxChars;
  }
  if (o.mode !== undefined) {
    if (o.mode !== "ai" && o.mode !== "default") throw new BwError("INVALID_ARGUMENT", 'snapshot mode is "ai" or "default"');
    out.mode = o.mode;
  }
  if (o.depth !== undefined) {
    if (typeof o.depth !== "number" || !Number.isInteger(o.depth) || o.depth < 1) throw new BwError("INVALID_ARGUMENT", "snapshot depth must be a positive integer");
    out.depth = o.depth;
  }
  return out;
}

/** Cuts `text` to `limit` characters, saying so at the end. */
export function boundSnapshot(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n[snapshot truncated: ${limit} of ${text.length} characters shown; pass { selector } for a part of the page]`;
}

export function snapshotFunction(): ScopeFunction {
  return {
    name: "snapshot",
    kind: "async",
    async call(run, args) {
      const opts = options(args[0]);
      const page = run.activePage();
      const aria = { timeout: run.remainingMs(), ...(opts.mode ? { mode: opts.mode } : {}), ...(opts.depth ? { depth: opts.depth } : {}) };
      const text = opts.selector === undefined ? await page.ariaSnapshot(aria) : await page.locator(opts.selector).first().ariaSnapshot(aria);
      run.assertLive();
      return boundSnapshot(text, Math.min(Math.floor(opts.maxChars ?? SNAPSHOT_MAX_CHARS), SNAPSHOT_MAX_CHARS));
    },
  };
}
