// A session's recently compiled snippets, by source text: a snippet run again
// (a polling loop, a script repeating one step) skips V8's compile, which
// costs more than the rest of a small run. Bounded in entries and in the size
// of what it keeps; each run still gets a fresh function from the script.
import type vm from "node:vm";

export const MAX_CACHED_SCRIPTS = 32;
/** Longer snippets are compiled every time: they are rarely repeated, and they would pin memory. */
export const MAX_CACHED_SNIPPET_CHARS = 16 * 1024;

export class ScriptCache {
  private readonly scripts = new Map<string, vm.Script>();

  constructor(private readonly maxEntries: number = MAX_CACHED_SCRIPTS, private readonly maxChars: number = MAX_CACHED_SNIPPET_CHARS) {}

  get size(): number {
    return this.scripts.size;
  }

  /** The script for `code`, compiled by `compile` unless a recent one is kept; a failed compile is not kept. */
  get(code: string, compile: (code: string) => vm.Script): vm.Script {
    const kept = this.scripts.get(code);
    if (kept !== undefined) {
      // Most recently used last, so the first key is the one to evict.
      this.scripts.delete(code);
      this.scripts.set(code, kept);
      return kept;
    }
    const script = compile(code);
    if (code.length <= this.maxChars && this.maxEntries > 0) {
      if (this.scripts.size >= this.maxEntries) this.scripts.delete(this.scripts.keys().next().value as string);
      this.scripts.set(code, script);
    }
    return script;
  }
}
