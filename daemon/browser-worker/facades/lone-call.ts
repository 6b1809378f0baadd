// A snippet that is one page call and nothing else, such as
// `return page.title()` or `await page.locator("#total").textContent()`,
// holds no code of the model's: its arguments are JSON, its methods are on
// the facade spec, and its result is the call's. Such a snippet runs on the
// worker's main thread as the very call its realm would have made (same
// message, checks, budget and outcome), without the four thread crossings a
// realm costs. So does `return page.evaluate(() => document.title)`: its
// arrow function is text for the page, read as the realm's toString() would
// give it (arrow-source.ts), and is never run in the worker. Anything else,
// down to a comment or a single-quoted string, is not recognised here and
// runs in the session's realm as before.
import type { RunOutcome } from "../run.js";
import { toErrorReply, valueJson } from "../realm/context.js";
import type { HostRequest } from "../realm/realm-messages.js";
import { arrowSourceAt } from "./arrow-source.js";
import { FACADE_SPEC } from "./facade-spec.js";

export interface LoneCall {
  target: "page" | "locator";
  /** Locator builder steps (`locator`, `getByRole`, `first`…), each with its JSON arguments. */
  steps: { m: string; a: unknown[] }[];
  method: string;
  args: unknown[];
}

/**
 * Final methods whose result is a string, number, boolean, null or nothing, so
 * that what the realm would hand back (the value through JSON, `undefined` as
 * null) is the value itself; kept to those on the facade spec. Methods that
 * return objects or lists stay in the realm.
 */
const PRIMITIVE_RESULTS = new Set([
  "title", "content", "click", "dblclick", "fill", "clear", "type", "pressSequentially", "press", "hover", "focus", "blur",
  "check", "uncheck", "setChecked", "textContent", "innerText", "innerHTML", "getAttribute", "inputValue", "isVisible",
  "isHidden", "isChecked", "isEnabled", "isDisabled", "isEditable", "count", "waitFor", "waitForLoadState", "waitForTimeout",
  "scrollIntoViewIfNeeded", "dispatchEvent", "ariaSnapshot",
]);
/**
 * Methods whose first argument is a page function, taken as an arrow function's text; their results are any JSON,
 * handed back bounded as a realm bounds what a snippet returns (`realmBounded`).
 */
const PAGE_FUNCTION_METHODS = new Set(["evaluate", "evaluateAll"]);
const PAGE_METHODS = new Set<string>(FACADE_SPEC.page.async.filter((m) => PRIMITIVE_RESULTS.has(m) || PAGE_FUNCTION_METHODS.has(m)));
const LOCATOR_METHODS = new Set<string>(FACADE_SPEC.locator.async.filter((m) => PRIMITIVE_RESULTS.has(m) || PAGE_FUNCTION_METHODS.has(m)));
const ROOTS = new Set<string>(FACADE_SPEC.page.roots.filter((m) => m !== "frameLocator"));
const BUILDERS = new Set<string>(FACADE_SPEC.locator.builders);

/** Longer snippets are not looked at: a lone call is short, and the scan stays cheap. */
const MAX_CHARS = 4096;
const IDENT = /[A-Za-z][A-Za-z0-9]*/y;
/** Whitespace, but no line terminator: `return` followed by a newline returns nothing. */
const BLANK = /[ \t]+/y;

function match(re: RegExp, code: string, at: number): string | undefined {
  re.lastIndex = at;
  return re.exec(code)?.[0];
}

/** From just after `(`: the arguments as JSON and the index after `)`, or undefined. Strings are skipped whole. */
function argsAt(code: string, at: number): { args: unknown[]; end: number } | undefined {
  let i = at;
  while (i < code.length && code[i] !== ")") {
    if (code[i] === '"') {
      for (i++; i < code.length && code[i] !== '"'; i++) if (code[i] === "\\") i++;
      if (i >= code.length) return undefined;
    }
    i++;
  }
  if (i >= code.length) return undefined;
  let args: unknown;
  try {
    args = JSON.parse(`[${code.slice(at, i)}]`);
  } catch {
    return undefined;
  }
  return Array.isArray(args) ? { args, end: i + 1 } : undefined;
}

/** From just after `(` of a page-function method: the arrow function as the realm sends it, then JSON arguments. */
function pageFunctionArgsAt(code: string, at: number): { args: unknown[]; end: number } | undefined {
  const fn = arrowSourceAt(code, at);
  if (!fn) return undefined;
  const first = { __bwFn: fn.source };
  if (code[fn.end] === ")") return { args: [first], end: fn.end + 1 };
  const rest = argsAt(code, fn.end + 1);
  return rest && rest.args.length > 0 ? { args: [first, ...rest.args], end: rest.end } : undefined;
}

/** The call `code` consists of, or undefined when it is anything more (or less) than one. */
export function loneCall(code: string): LoneCall | undefined {
  if (code.length > MAX_CHARS) return undefined;
  let i = code.length - code.trimStart().length;
  const end = code.trimEnd().length;
  for (const word of ["return", "await"]) {
    if (!code.startsWith(word, i)) continue;
    const gap = match(BLANK, code, i + word.length);
    if (gap === undefined) return undefined;
    i += word.length + gap.length;
  }
  if (!code.startsWith("page", i)) return undefined;
  i += 4;
  const calls: { m: string; a: unknown[] }[] = [];
  while (i < end && code[i] === ".") {
    const m = match(IDENT, code, i + 1);
    if (m === undefined || code[i + 1 + m.length] !== "(") return undefined;
    const parsed = (PAGE_FUNCTION_METHODS.has(m) ? pageFunctionArgsAt : argsAt)(code, i + 2 + m.length);
    if (!parsed) return undefined;
    calls.push({ m, a: parsed.args });
    i = parsed.end;
  }
  // Only an optional `;` after the call (the expression form drops it, and `return …;` returns the same).
  const rest = code.slice(i, end).trim();
  if (calls.length === 0 || (rest !== "" && rest !== ";")) return undefined;
  const last = calls[calls.length - 1]!;
  if (calls.length === 1) {
    return PAGE_METHODS.has(last.m) ? { target: "page", steps: [], method: last.m, args: last.a } : undefined;
  }
  const steps = calls.slice(0, -1);
  if (!ROOTS.has(steps[0]!.m) || steps.slice(1).some((s) => !BUILDERS.has(s.m))) return undefined;
  return LOCATOR_METHODS.has(last.m) ? { target: "locator", steps, method: last.m, args: last.a } : undefined;
}

/** The message the realm's facade would have sent for this call (context-facades.ts), for the run `token`. */
export function loneCallMessage(call: LoneCall, pageId: string, token: string): Extract<HostRequest, { ask: "call" }> {
  const target = call.target === "page" ? { target: "page", pageId } : { target: "locator", pageId, frameId: null, steps: call.steps };
  return { ...target, ask: "call", token, method: call.method, args: call.args };
}

/** What the snippet would have returned: the value as it crosses into a realm (daemon/browser-worker/realm/context.ts). */
export function loneCallResult(value: unknown): unknown {
  return realmBounded(JSON.parse(valueJson(value)) as unknown, 0);
}

/** The realm's bounds on a returned value (in-context/context-values.ts `safeAt`), as they apply to JSON data. */
const MAX_DEPTH = 20;
const MAX_ITEMS = 10000;

function realmBounded(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) return "[MaxDepth]";
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => realmBounded(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).slice(0, MAX_ITEMS)) {
    // A "__proto__" key from JSON is data, never a prototype.
    Object.defineProperty(out, key, { value: realmBounded((value as Record<string, unknown>)[key], depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Makes the call through `handle` (the worker's handler of a realm's calls) and ends as the snippet would have:
 * its value, or the error its realm would have reported.
 */
export function runLoneCall(call: LoneCall, pageId: () => string, token: string, handle: (m: HostRequest) => Promise<unknown>): Promise<RunOutcome> {
  return new Promise((resolve) => resolve(handle(loneCallMessage(call, pageId(), token)))).then(
    (value): RunOutcome => ({ ok: true, value: loneCallResult(value) }),
    (error: unknown): RunOutcome => ({ ok: false, error: toErrorReply(error) }),
  );
}
