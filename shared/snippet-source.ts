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

/** Where a line ends for V8: a snippet's line numbers count the same breaks. */
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/;

/**
 * A parse error of a wrapped snippet, told in the snippet as typed: V8 names
 * the wrapper's line (`file:N`; the snippet starts on line 2) and underlines
 * the column with a caret. An error past the snippet's end blames the
 * wrapper's own `}` or the end of input, text the user never wrote: it is an
 * unfinished (or over-closed) snippet, and said so.
 */
export function describeSyntaxError(error: unknown, code: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error && typeof error.stack === "string" ? error.stack : "";
  const where = /^[^\n]*:(\d+)\n[^\n]*\n( *)(\^?)/.exec(stack);
  if (!where) return message;
  const lines = code.split(LINE_BREAK);
  const line = Number(where[1]) - 1;
  if (line >= 1 && line <= lines.length) return where[3] ? `${message} at line ${line}, column ${where[2]!.length + 1}` : `${message} at line ${line}`;
  const end = `at the end of line ${lines.length}`;
  if (/end of input/i.test(message)) return `the snippet ends before it is complete (an unclosed brace, string, template or comment?) ${end}`;
  return `the snippet's brackets do not match (an unclosed or extra parenthesis, bracket or brace?) ${end}`;
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
  return describeSyntaxError(last, code);
}
