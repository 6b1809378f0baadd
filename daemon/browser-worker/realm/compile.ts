// Turning snippet text into a function of the run's scope. A bare expression
// returns its value; anything else is the body of an async function. The
// scope object sits in a `with` so that `page`, `console`, timers… are bound
// to this run, and stop working when the run is over.
import vm from "node:vm";
import { BwError } from "../../../shared/protocol/errors.js";
import { describeSyntaxError, snippetSources } from "../../../shared/snippet-source.js";

export type CompiledSnippet = (scope: object) => unknown;

/**
 * Whether `import()` in a vm script rejects with the error our callback gives.
 * Without --experimental-vm-modules (an in-process host, say) Node rejects it
 * with a host-realm error instead, whose constructor leads to the host's
 * Function; vm.SourceTextModule exists exactly when the flag is on.
 */
export function importRejectsInContext(): boolean {
  return typeof (vm as unknown as { SourceTextModule?: unknown }).SourceTextModule === "function";
}

const SKIPPABLE = /^(?:\s+|\/\*[\s\S]*?\*\/|\/\/[^\n\r\u2028\u2029]*|<!--[^\n\r\u2028\u2029]*|-->[^\n\r\u2028\u2029]*)/;

/**
 * Finds a possible dynamic `import(` in raw source text. It errs towards
 * yes: the word `import` not preceded by an identifier character or `.`, then
 * only whitespace and comments (HTML-like ones too), then `(`. An occurrence
 * inside a string or comment also counts; a real one is never missed.
 */
export function mentionsDynamicImport(code: string): boolean {
  const word = /import/g;
  for (let match = word.exec(code); match; match = word.exec(code)) {
    const before = code[match.index - 1];
    if (before !== undefined && /[\w$.\\]/.test(before)) continue;
    let rest = code.slice(match.index + 6);
    if (/^[\w$\\]/.test(rest)) continue;
    for (let skip = SKIPPABLE.exec(rest); skip && skip[0].length > 0; skip = SKIPPABLE.exec(rest)) rest = rest.slice(skip[0].length);
    if (rest.startsWith("(")) return true;
  }
  return false;
}

export interface CompileOptions {
  context: vm.Context;
  filename: string;
  /** Returns an Error made in the context, so `import()` rejects without a host-realm object. */
  rejectImport: () => unknown;
}

function tryCompile(source: string, options: CompileOptions): vm.Script {
  return new vm.Script(source, {
    filename: options.filename,
    importModuleDynamically: (() => Promise.reject(options.rejectImport())) as never,
  });
}

/** The compiled script of a snippet; each run of it in the context makes a fresh function of the scope (CompiledSnippet). */
export function compileScript(code: string, options: CompileOptions): vm.Script {
  if (!importRejectsInContext() && mentionsDynamicImport(code)) {
    throw new BwError("SNIPPET_SYNTAX_ERROR", "import() is not available in snippets");
  }
  // The expression form first (skipped when the first token rules it out), then the body form.
  const sources = snippetSources(code);
  for (let i = 0; ; i++) {
    try {
      return tryCompile(sources[i]!, options);
    } catch (error) {
      if (i < sources.length - 1) continue;
      throw new BwError("SNIPPET_SYNTAX_ERROR", `the snippet does not parse: ${describeSyntaxError(error, code)}`);
    }
  }
}
