// Turning snippet text into a function of the run's scope. A bare expression
// returns its value; anything else is the body of an async function. The
// scope object sits in a `with` so that `page`, `console`, timers… are bound
// to this run, and stop working when the run is over.
import vm from "node:vm";
import { BwError } from "../../../shared/errors.js";

export type CompiledSnippet = (scope: object) => unknown;

const SCOPE_PARAM = "__betterwrightScope";

function wrap(body: string): string {
  return `(function (${SCOPE_PARAM}) { with (${SCOPE_PARAM}) { return (async () => {\n${body}\n})(); } })`;
}

function wrapExpression(code: string): string {
  return `(function (${SCOPE_PARAM}) { with (${SCOPE_PARAM}) { return (async () => (\n${code}\n))(); } })`;
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

export function compileSnippet(code: string, options: CompileOptions): CompiledSnippet {
  let script: vm.Script;
  try {
    // A trailing `;` or comment still reads as an expression statement; try the expression form first.
    script = tryCompile(wrapExpression(code.replace(/;\s*$/, "")), options);
  } catch {
    try {
      script = tryCompile(wrap(code), options);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new BwError("SNIPPET_SYNTAX_ERROR", `the snippet does not parse: ${message}`);
    }
  }
  return script.runInContext(options.context) as CompiledSnippet;
}
