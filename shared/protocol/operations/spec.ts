// How an operation is declared: its arguments as data (name, kind, one line
// of help, whether the CLI takes it as a positional word), from which the
// argument validator, the CLI verb, its --help and docs/operations.md are all
// derived. The TypeScript type of an operation's arguments is inferred from
// the same declaration, so there is no second list to keep in step.
import { BwError } from "../errors.js";
import { arr, bool, num, str, type Validator } from "../validate.js";
import { checkTarget, type Target } from "./targets.js";

export interface FormField {
  target: Target;
  /** Text to fill, or for a checkbox/radio whether it should be checked. */
  value: string | boolean;
}

export type ArgKind =
  | { kind: "string"; max?: number; choices?: readonly string[] }
  | { kind: "number"; min?: number; max?: number; integer?: boolean }
  | { kind: "boolean" }
  | { kind: "strings"; max?: number; itemMax?: number }
  | { kind: "target" }
  | { kind: "fields" }
  /** Any JSON value, at most `maxChars` as JSON text (a snippet's `args`). */
  | { kind: "json"; maxChars: number };

export interface ArgSpec {
  /** The wire name (camelCase); the CLI flag is its kebab-case form. */
  readonly name: string;
  readonly type: ArgKind;
  readonly help: string;
  readonly required?: boolean;
  /** The CLI takes it as a positional word, in declaration order ("strings": every word left). */
  readonly positional?: boolean;
}

type KindType<K> =
  K extends { kind: "string" } ? string
    : K extends { kind: "number" } ? number
      : K extends { kind: "boolean" } ? boolean
        : K extends { kind: "strings" } ? string[]
          : K extends { kind: "target" } ? Target
            : K extends { kind: "fields" } ? FormField[]
              : K extends { kind: "json" } ? unknown
                : never;

/** The arguments object of an operation once checked, from its ArgSpec list. */
export type ArgsOf<S extends readonly ArgSpec[]> =
  & { [A in S[number] as A["required"] extends true ? A["name"] : never]: KindType<A["type"]> }
  & { [A in S[number] as A["required"] extends true ? never : A["name"]]?: KindType<A["type"]> };

/** As a caller may write it: a target may also be a ref as a plain string ("e12"). */
type KindInput<K> =
  K extends { kind: "target" } ? Target | string
    : K extends { kind: "fields" } ? { target: Target | string; value: string | boolean }[]
      : KindType<K>;

/** The arguments a caller passes (the library's `bw.op`), from the same ArgSpec list. */
export type ArgsIn<S extends readonly ArgSpec[]> =
  & { [A in S[number] as A["required"] extends true ? A["name"] : never]: KindInput<A["type"]> }
  & { [A in S[number] as A["required"] extends true ? never : A["name"]]?: KindInput<A["type"]> };

export interface OperationSpec<S extends readonly ArgSpec[] = readonly ArgSpec[], R = unknown, N extends string = string> {
  readonly name: N;
  /** One line: what it does (the CLI's and the MCP tool's description). */
  readonly help: string;
  readonly args: S;
  /** One line: what `result` holds (docs/operations.md). */
  readonly returns: string;
  /** Rules across arguments (exactly one condition, at least one field…), after each was checked. */
  readonly check?: (args: Record<string, unknown>, path: string) => void;
  /** Phantom: the result type. */
  readonly result?: R;
}

export const MAX_STRING_ARG = 100_000;
const MAX_LIST = 100;
const MAX_FIELDS = 50;

function bad(path: string, message: string): never {
  throw new BwError("INVALID_ARGUMENT", `${path}: ${message}`);
}

/** An argument's declared kind as a validator of the one kit (../validate.ts), for the kinds it has words for. */
function validatorOf(type: Extract<ArgKind, { kind: "string" | "number" | "boolean" | "strings" }>): Validator<unknown> {
  switch (type.kind) {
    case "string":
      return str({ max: type.max ?? MAX_STRING_ARG, ...(type.choices ? { choices: type.choices } : {}) });
    case "number":
      return num(type);
    case "boolean":
      return bool();
    case "strings":
      return arr(str({ max: type.itemMax ?? MAX_STRING_ARG }), { max: type.max ?? MAX_LIST, what: "an array of strings" });
  }
}

function checkFields(value: unknown, path: string): FormField[] {
  if (!Array.isArray(value)) bad(path, "expected an array of { target, value }");
  if (value.length === 0) bad(path, "must not be empty");
  if (value.length > MAX_FIELDS) bad(path, `more than ${MAX_FIELDS} fields`);
  return value.map((field: unknown, i) => {
    const at = `${path}[${i}]`;
    if (field === null || typeof field !== "object" || Array.isArray(field)) bad(at, "expected { target, value }");
    const f = field as Record<string, unknown>;
    for (const key of Object.keys(f)) if (key !== "target" && key !== "value") bad(at, `unknown field '${key.slice(0, 40)}'`);
    const v = f.value;
    if (typeof v !== "boolean") str({ max: MAX_STRING_ARG })(v, `${at}.value`);
    return { target: checkTarget(f.target, `${at}.target`), value: v as string | boolean };
  });
}

export function checkArg(value: unknown, path: string, type: ArgKind): unknown {
  switch (type.kind) {
    case "string":
    case "number":
    case "boolean":
    case "strings":
      return validatorOf(type)(value, path);
    case "target":
      return checkTarget(value, path);
    case "fields":
      return checkFields(value, path);
    case "json": {
      const text = JSON.stringify(value);
      if (text === undefined) bad(path, "expected a JSON value");
      if (text.length > type.maxChars) bad(path, `longer than ${type.maxChars} characters as JSON`);
      return value;
    }
  }
}

/** Checks an operation's arguments: unknown ones are refused, required ones must be there; errors name the argument. */
export function checkOperationArgs<S extends readonly ArgSpec[]>(spec: OperationSpec<S>, value: unknown, path = "args"): ArgsOf<S> {
  const input = value === undefined || value === null ? {} : value;
  if (typeof input !== "object" || Array.isArray(input)) bad(path, "expected an object");
  const given = input as Record<string, unknown>;
  const known = new Set(spec.args.map((a) => a.name));
  for (const key of Object.keys(given)) {
    if (!known.has(key)) bad(path, `${spec.name} takes no argument '${key.slice(0, 40)}' (it takes: ${[...known].join(", ") || "none"})`);
  }
  const out: Record<string, unknown> = {};
  for (const arg of spec.args) {
    const v = given[arg.name];
    if (v === undefined || v === null) {
      if (arg.required) bad(`${path}.${arg.name}`, `${spec.name} needs ${arg.name}: ${arg.help}`);
      continue;
    }
    out[arg.name] = checkArg(v, `${path}.${arg.name}`, arg.type);
  }
  spec.check?.(out, path);
  return out as ArgsOf<S>;
}

/** Cross-argument rule: exactly one of `names` (or at most one, when `optional`). */
export function oneOf(names: readonly string[], optional = false): (args: Record<string, unknown>, path: string) => void {
  return (args, path) => {
    const given = names.filter((n) => args[n] !== undefined);
    if (given.length > 1) bad(path, `give one of ${names.join(", ")}, not ${given.join(" and ")}`);
    if (given.length === 0 && !optional) bad(path, `give one of ${names.join(", ")}`);
  };
}

/** The CLI flag of an argument: its kebab-case name (maxChars → max-chars). */
export function flagName(argName: string): string {
  return argName.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** `click TARGET`, `select TARGET VALUES…`: an operation with the words its CLI verb takes. */
export function operationUsage(spec: OperationSpec): string {
  const words = spec.args.filter((a) => a.positional).map((a) => {
    const word = a.type.kind === "fields" ? "REF=VALUE…" : `${flagName(a.name).toUpperCase()}${a.type.kind === "strings" ? "…" : ""}`;
    return a.required ? word : `[${word}]`;
  });
  return [spec.name, ...words].join(" ");
}
