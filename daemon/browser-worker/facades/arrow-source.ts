// The source text of an arrow function written as a call's first argument,
// `page.evaluate(() => document.title)`, found by reading the snippet and
// never by running it. A realm would hand Playwright exactly this text (the
// function's toString()) to run in the page, so a snippet that is only such a
// call holds no code the worker runs. The reading is deliberately narrow:
// a comment, a template literal, a regular expression or a division (any
// `/`), a backslash outside a string, or a line break before `=>` ends it, and
// the snippet runs in its realm as before.
import vm from "node:vm";

const PARAM = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const BLANK = /[ \t]*/y;
const CLOSERS: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

/**
 * From `at`, the index of the first `,` or `)` outside brackets and strings, or undefined when the text holds
 * anything this reading refuses, or ends first.
 */
function scanTo(code: string, at: number): number | undefined {
  const open: string[] = [];
  for (let i = at; i < code.length; i++) {
    const c = code[i]!;
    if (c === '"' || c === "'") {
      for (i++; i < code.length && code[i] !== c; i++) {
        if (code[i] === "\n" || code[i] === "\r") return undefined;
        if (code[i] === "\\") i++;
      }
      if (i >= code.length) return undefined;
    } else if (c === "`" || c === "/" || c === "\\") {
      return undefined;
    } else if (c === "(" || c === "[" || c === "{") {
      open.push(c);
    } else if (c === ")" || c === "]" || c === "}") {
      if (open.length === 0) return c === ")" ? i : undefined;
      if (open.pop() !== CLOSERS[c]) return undefined;
    } else if (c === "," && open.length === 0) {
      return i;
    }
  }
  return undefined;
}

function skip(re: RegExp, code: string, at: number): number {
  re.lastIndex = at;
  return at + (re.exec(code)?.[0].length ?? 0);
}

/** The whitespace, line breaks included, from `at`. */
function skipSpace(code: string, at: number): number {
  let i = at;
  while (i < code.length && /\s/.test(code[i]!)) i++;
  return i;
}

/**
 * Reads an arrow function from `at` (just after a call's `(`): its source as its toString() gives it, and the
 * index of the `,` or `)` after it. Undefined for anything but one arrow function that compiles.
 */
export function arrowSourceAt(code: string, at: number): { source: string; end: number } | undefined {
  const start = skipSpace(code, at);
  let i = start;
  if (code.startsWith("async", i) && /[ \t]/.test(code[i + 5] ?? "")) i = skip(BLANK, code, i + 5);
  if (code[i] === "(") {
    const close = scanTo(code, i + 1);
    // The parameters may hold commas: scan on past each one to the `)` that closes them.
    let at2 = close;
    while (at2 !== undefined && code[at2] === ",") at2 = scanTo(code, at2 + 1);
    if (at2 === undefined) return undefined;
    i = at2 + 1;
  } else {
    PARAM.lastIndex = i;
    const param = PARAM.exec(code)?.[0];
    if (param === undefined) return undefined;
    i += param.length;
  }
  // No line break may stand before `=>`.
  i = skip(BLANK, code, i);
  if (!code.startsWith("=>", i)) return undefined;
  const end = scanTo(code, i + 2);
  if (end === undefined) return undefined;
  const source = code.slice(start, end).trimEnd();
  return compiles(source) ? { source, end } : undefined;
}

/** Whether `source` compiles as one expression; compiled only, never run. */
function compiles(source: string): boolean {
  try {
    new vm.Script(`(${source}\n)`);
    return true;
  } catch {
    return false;
  }
}
