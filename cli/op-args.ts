// The CLI face of the operation table: each operation's flags (from its
// arguments), the locator flags of a target, and how the words and flags of
// `betterwright <verb> …` become the operation's arguments. Pure, and light
// enough for the warm path (no yargs here).
import { BwError } from "../shared/protocol/errors.js";
import { checkOperation, flagName, isRef, operationUsage, type ArgSpec, type OperationSpec, type Target } from "../shared/protocol/operations/index.js";
import type { OptionSpec } from "./options.js";
import { parseJsonFlag } from "./json-flag.js";
import { SESSION_CREATE_OPTIONS } from "./session-options.js";

/** Flags every verb takes besides its arguments. */
export const VERB_OPTIONS: readonly OptionSpec[] = [
  { name: "session", alias: "s", type: "string", describe: "Session name (env BETTERWRIGHT_SESSION, default 'default')" },
  { name: "timeout", type: "number", describe: "Budget in seconds, queue wait included (env BETTERWRIGHT_TIMEOUT_SECONDS, default 30)" },
  { name: "args", type: "string", describe: "The operation's arguments as a JSON object (flags and words override its fields)" },
  ...SESSION_CREATE_OPTIONS,
];

/** A target as flags: a semantic locator, a Playwright selector or a point; a ref is a word (e12). */
const LOCATOR_OPTIONS: readonly (OptionSpec & { field: string })[] = [
  { name: "role", field: "role", type: "string", describe: "Target: an ARIA role (button, link, textbox…), with --name" },
  { name: "name", field: "name", type: "string", describe: "Target: the accessible name with --role (exact unless --no-exact)" },
  { name: "exact", field: "exact", type: "boolean", describe: "Target: match names and text exactly (default; --no-exact for a substring)" },
  { name: "text", field: "text", type: "string", describe: "Target: the element showing this text" },
  { name: "label", field: "label", type: "string", describe: "Target: the field with this label" },
  { name: "placeholder", field: "placeholder", type: "string", describe: "Target: the field with this placeholder" },
  { name: "test-id", field: "testId", type: "string", describe: "Target: the element with this data-testid" },
  { name: "selector", field: "selector", type: "string", describe: "Target: a Playwright selector (css=…, xpath=…, #id)" },
  { name: "x", field: "x", type: "number", describe: "Target: a point, CSS pixels from the viewport's left (with -y)" },
  { name: "y", field: "y", type: "number", describe: "Target: a point, CSS pixels from the viewport's top (with -x)" },
];

function hasTarget(spec: OperationSpec): boolean {
  return spec.args.some((a) => a.name === "target" && a.type.kind === "target");
}

function optionType(arg: ArgSpec): OptionSpec["type"] {
  const kind = arg.type.kind;
  return kind === "number" ? "number" : kind === "boolean" ? "boolean" : kind === "strings" ? "array" : "string";
}

function describeArg(arg: ArgSpec): string {
  const choices = arg.type.kind === "string" && arg.type.choices ? ` (${arg.type.choices.join(", ")})` : "";
  return `${arg.help}${choices}`;
}

/** The locator flags a verb takes: those of its target, less any its own arguments already use. */
function locatorOptions(spec: OperationSpec): (OptionSpec & { field: string })[] {
  if (!hasTarget(spec)) return [];
  const own = new Set(spec.args.map((a) => flagName(a.name)));
  return LOCATOR_OPTIONS.filter((o) => !own.has(o.name));
}

/** Every flag of a verb: its non-positional arguments, its target's locator flags, and VERB_OPTIONS. */
export function verbOptions(spec: OperationSpec): OptionSpec[] {
  const own = spec.args.filter((a) => !a.positional).map((a): OptionSpec => ({ name: flagName(a.name), type: optionType(a), describe: describeArg(a) }));
  return [...own, ...locatorOptions(spec), ...VERB_OPTIONS];
}

function bad(path: string, message: string): never {
  throw new BwError("INVALID_ARGUMENT", `${path}: ${message}`);
}

/** An argument as the CLI user typed it: a word (`URL`, `TARGET`) or a flag (`--max-chars`). */
export function argLabel(arg: ArgSpec): string {
  const word = flagName(arg.name);
  return arg.positional ? word.toUpperCase() : `--${word}`;
}

/** The path an operation's check puts first (`args.maxChars`, `args.target.role`, `args`). */
const LEADING_PATH = /^args(?:\.([A-Za-z]+))?((?:\.[A-Za-z]+|\[\d+\])*)(?=:)/;
/** A cross-argument rule's list of argument names ("give one of target, fullPage"). */
const NAME_LIST = /\b(give one of|not) ([A-Za-z]+(?:(?:, | and )(?!not\b)[A-Za-z]+)*)/g;

/** An operation's INVALID_ARGUMENT message (written for JSON callers) in the words of its CLI verb. */
export function inCliWords(spec: OperationSpec, message: string): string {
  const labels = new Map(spec.args.map((a) => [a.name, argLabel(a)]));
  return message
    .replace(LEADING_PATH, (_all, name: string | undefined, rest: string) => (name ? `${labels.get(name) ?? name}${rest}` : spec.name))
    .replace(NAME_LIST, (_all, lead: string, list: string) => `${lead} ${list.replace(/[A-Za-z]+/g, (w) => labels.get(w) ?? w)}`);
}

function targetFromFlags(spec: OperationSpec, flags: Record<string, unknown>): Target | undefined {
  const given: Record<string, unknown> = {};
  for (const o of locatorOptions(spec)) if (flags[o.name] !== undefined) given[o.field] = flags[o.name];
  return Object.keys(given).length > 0 ? (given as unknown as Target) : undefined;
}

function word(arg: ArgSpec, value: string, path: string): unknown {
  if (arg.type.kind === "json") return parseJsonFlag(path, value);
  if (arg.type.kind === "number") {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n)) bad(path, `expected a number, got ${JSON.stringify(value.slice(0, 40))}`);
    return n;
  }
  if (arg.type.kind === "target" && !isRef(value)) {
    bad(path, `expected a ref like e12 (a locator goes in --role/--text/--label/--selector…), got ${JSON.stringify(String(value).slice(0, 40))}`);
  }
  return value;
}

function field(text: string, path: string): { target: string; value: string } {
  const at = text.indexOf("=");
  if (at <= 0) bad(path, `expected REF=VALUE, got ${JSON.stringify(text.slice(0, 40))}`);
  const ref = text.slice(0, at);
  if (!isRef(ref)) bad(path, `expected a ref like e12 before '=', got ${JSON.stringify(String(ref).slice(0, 40))}`);
  return { target: ref, value: text.slice(at + 1) };
}

/** The operation's arguments from `--args` JSON, flags and words, checked against the table; errors name what was typed. */
export function opArgsFromCli(spec: OperationSpec, flags: Record<string, unknown>, words: readonly string[]): Record<string, unknown> {
  let args: Record<string, unknown> = {};
  if (typeof flags.args === "string") {
    const parsed = parseJsonFlag("--args", flags.args);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) bad("--args", "expected a JSON object");
    args = { ...(parsed as Record<string, unknown>) };
  }
  for (const arg of spec.args) {
    if (arg.positional) continue;
    const value = flags[flagName(arg.name)];
    if (value !== undefined) args[arg.name] = value;
  }
  const flagTarget = targetFromFlags(spec, flags);
  if (flagTarget !== undefined) args.target = flagTarget;
  const rest = [...words];
  for (const arg of spec.args.filter((a) => a.positional)) {
    const path = argLabel(arg);
    if (rest.length === 0) break;
    if (arg.type.kind === "target") {
      // A target from flags takes no word; an optional one takes a word only when it is a ref.
      if (arg.name === "target" && flagTarget !== undefined) continue;
      if (!arg.required && !isRef(rest[0])) continue;
    }
    if (arg.type.kind === "strings") args[arg.name] = rest.splice(0);
    else if (arg.type.kind === "fields") args[arg.name] = rest.splice(0).map((w, i) => field(w, `${path}[${i}]`));
    else args[arg.name] = word(arg, rest.shift()!, path);
  }
  if (rest.length > 0) bad(spec.name, `it takes ${operationUsage(spec)}; ${JSON.stringify(rest[0]!.slice(0, 40))} is one word too many`);
  try {
    checkOperation(spec.name, args);
  } catch (error) {
    if (error instanceof BwError) throw new BwError(error.code, inCliWords(spec, error.message));
    throw error;
  }
  return args;
}
