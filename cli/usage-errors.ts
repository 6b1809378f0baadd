// yargs's usage errors in the CLI's own voice: an unknown command or flag
// is named as typed, with the known one it most likely meant.
import { closest } from "./suggest.js";

export interface UsageContext {
  argv: readonly string[];
  /** The words of the command being parsed (`vault`), empty at the top. */
  commandPath: readonly string[];
  /** The commands that could follow it. */
  commands: readonly string[];
  /** Every option name and alias the command takes. */
  options: readonly string[];
}

const UNKNOWN = /^Unknown arguments?: (.+)$/;

const dashed = (name: string): string => (name.length === 1 ? `-${name}` : `--${name}`);

/** Whether `name` was typed as a flag (`--name`, `--name=…`, `--no-name`, `-n`). */
function typedAsFlag(argv: readonly string[], name: string): boolean {
  return argv.some((a) => a === dashed(name) || a.startsWith(`${dashed(name)}=`) || a === `--no-${name}` || (name.length === 1 && /^-[^-]/.test(a) && a.includes(name)));
}

function unknownCommand(word: string, context: UsageContext): string {
  const prefix = context.commandPath.length > 0 ? `${context.commandPath.join(" ")} ` : "";
  const guess = closest(word, context.commands);
  const help = `betterwright ${prefix}--help`;
  return guess === undefined
    ? `Unknown command '${prefix}${word}' (${help} lists them)`
    : `Unknown command '${prefix}${word}'. Did you mean '${prefix}${guess}'?`;
}

const forCommand = (context: UsageContext): string => (context.commandPath.length > 0 ? ` for ${context.commandPath.join(" ")}` : "");

function unknownFlag(name: string, context: UsageContext): string {
  // One letter is too little to guess from.
  const guess = name.length === 1 ? undefined : closest(name, context.options.filter((o) => o.length > 1));
  const where = forCommand(context);
  return guess === undefined
    ? `Unknown flag '${dashed(name)}'${where} (betterwright ${context.commandPath.join(" ")}${context.commandPath.length > 0 ? " " : ""}--help lists them)`
    : `Unknown flag '${dashed(name)}'${where}. Did you mean '${dashed(guess)}'?`;
}

/** yargs's `message` said anew; any message but an unknown-argument one is kept. */
export function usageMessage(message: string, context: UsageContext): string {
  const match = UNKNOWN.exec(message);
  if (!match) return message;
  const listed = match[1]!.split(", ");
  // yargs lists a kebab-case flag twice, as typed and camel-cased.
  const names = listed.filter((n) => !/[A-Z]/.test(n) || !listed.includes(n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)));
  // A mistyped command explains the flags that seemed unknown with it.
  const word = names.find((n) => !typedAsFlag(context.argv, n));
  if (word !== undefined && context.commands.length > 0) return unknownCommand(word, context);
  return names.map((n) => (typedAsFlag(context.argv, n) ? unknownFlag(n, context) : `Unexpected word '${n}'${forCommand(context)}`)).join("; ");
}
