// Options are declared once, as data: yargs builds --help and parses every
// command from these tables, and the warm path of `exec`/`repl` parses the
// same tables with node:util's parseArgs, so it never loads yargs.
import { parseArgs } from "node:util";
import type { Argv } from "yargs";

export interface OptionSpec {
  name: string;
  alias?: string;
  type: "string" | "boolean" | "number" | "array";
  describe: string;
}

export function applyOptions<T>(argv: Argv<T>, specs: readonly OptionSpec[], global = false): Argv<T> {
  let y = argv;
  for (const spec of specs) {
    const type = spec.type === "array" ? "string" : spec.type;
    y = y.option(spec.name, {
      type,
      describe: spec.describe,
      global,
      ...(spec.alias ? { alias: spec.alias } : {}),
      // One value per occurrence (repeat the flag for more), so a list never swallows the next word.
      ...(spec.type === "array" ? { array: true, nargs: 1 } : {}),
    }) as Argv<T>;
  }
  return y;
}

/**
 * Parses `args` (the words after the command) against the tables, or returns
 * undefined when anything is unusual (help, unknown flags, bad numbers), so
 * the caller falls back to yargs and its messages.
 */
export function parseFast(args: string[], specs: readonly OptionSpec[], positional?: string | { rest: string }): Record<string, unknown> | undefined {
  if (args.some((a) => a === "--help" || a === "-h" || a === "--version")) return undefined;
  const options: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }> = {};
  for (const spec of specs) {
    options[spec.name] = {
      type: spec.type === "boolean" ? "boolean" : "string",
      ...(spec.alias && spec.alias.length === 1 ? { short: spec.alias } : {}),
      ...(spec.type === "array" ? { multiple: true } : {}),
    };
    if (spec.type === "boolean") options[`no-${spec.name}`] = { type: "boolean" };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch {
    return undefined;
  }
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    const value = parsed.values[spec.name];
    if (parsed.values[`no-${spec.name}`] === true) out[spec.name] = false;
    if (value === undefined) continue;
    if (spec.type === "number") {
      const n = Number(value);
      if (typeof value !== "string" || value.trim() === "" || !Number.isFinite(n)) return undefined;
      out[spec.name] = n;
    } else out[spec.name] = value;
  }
  // { rest }: every word, in order (a typed operation's words).
  if (typeof positional === "object") return { ...out, [positional.rest]: parsed.positionals };
  if (parsed.positionals.length > (positional ? 1 : 0)) return undefined;
  if (positional && parsed.positionals.length === 1) out[positional] = parsed.positionals[0];
  return out;
}
