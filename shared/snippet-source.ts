// How snippet text becomes a function of the run's scope, shared by the
// worker (which compiles and runs it) and the CLI's repl (which only checks
// whether a chunk parses yet). A bare expression returns its value; anything
// else is the body of an async function. The scope sits in a `with`, so that
// `page`, `console`, timers… are bound to the run and die with it.
import vm from "node:vm";

export const SCOPE_PARAM = "__betterwrightScope";

/** The wrappers to try, in order: expression first, then function body. */
export function snippetSources(code: string): string[] {
  const expression = code.replace(/;\s*$/, "");
  return [
    `(function (${SCOPE_PARAM}) { with (${SCOPE_PARAM}) { return (async () => (\n${expression}\n))(); } })`,
    `(function (${SCOPE_PARAM}) { with (${SCOPE_PARAM}) { return (async () => {\n${code}\n})(); } })`,
  ];
}

/** The parse error of the body form, or undefined when the snippet parses. Compiles, never runs. */
export function snippetSyntaxError(code: string): string | undefined {
  let last: unknown;
  for (const source of snippetSources(code)) {
    try {
      new vm.Script(source);
      return undefined;
    } catch (error) {
      last = error;
    }
  }
  return last instanceof Error ? last.message : String(last);
}
