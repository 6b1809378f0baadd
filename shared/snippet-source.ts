// How snippet text becomes a function of the run's scope, shared by the
// worker (which compiles and runs it) and the CLI's repl (which only checks
// whether a chunk parses yet). A bare expression returns its value; anything
// else is the body of an async function. The scope sits in a `with`, so that
// `page`, `console`, timers… are bound to the run and die with it.
import vm from "node:vm";

export const SCOPE_PARAM = "__betterwrightScope";

/**
 * Reserved words that begin a statement and can begin no expression. A
 * snippet whose first token is one of them cannot parse in the expression
 * form, so that compile (and the SyntaxError it would throw, which costs as
 * much as the compile) is skipped. The lookahead keeps `return$x` or
 * `returnä`, identifiers, out.
 */
const STATEMENT_FIRST = /^\s*(?:return|const|var|if|for|while|do|try|throw|switch|break|continue)(?![\p{ID_Continue}$\u200c\u200d\\])/u;

/** Whether `code` may be a bare expression; false only when its first token rules that out. */
export function mayBeExpression(code: string): boolean {
  return !STATEMENT_FIRST.test(code);
}

/** The body form: the snippet as the body of an async function of the scope. */
export function bodySource(code: string): string {
  return `(function (${SCOPE_PARAM}) { with (${SCOPE_PARAM}) { return (async () => {\n${code}\n})(); } })`;
}

/** The expression form; a trailing `;` still reads as an expression statement. */
export function expressionSource(code: string): string {
  return `(function (${SCOPE_PARAM}) { with (${SCOPE_PARAM}) { return (async () => (\n${code.replace(/;\s*$/, "")}\n))(); } })`;
}

/** The wrappers to try, in order: expression first (when it may parse), then function body. */
export function snippetSources(code: string): string[] {
  return mayBeExpression(code) ? [expressionSource(code), bodySource(code)] : [bodySource(code)];
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
