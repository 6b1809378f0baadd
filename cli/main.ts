// The betterwright command. Each command maps its flags to one client call
// and renders the result; stdout carries results only. The warm path (exec,
// run, repl with ordinary flags) parses with node:util and never loads yargs;
// everything else, --help included, goes through cli/yargs-cli.ts, where
// commands are registered. cli/launcher.ts loads this (bundled) and calls start().
import { EXEC_OPTIONS, execCommand } from "./commands/exec.js";
import { findVerb, verbHandler } from "./commands/ops.js";
import { verbOptions } from "./op-args.js";
import { REPL_OPTIONS, replCommand } from "./commands/repl.js";
import { CliInvocation } from "./invocation.js";
import { GLOBAL_OPTIONS, POLICY_OPTIONS } from "./global-options.js";
import { parseFast, type OptionSpec } from "./options.js";
import { EXIT } from "./output.js";
import { escapeControls } from "../shared/safe-text.js";

const SHARED = [...GLOBAL_OPTIONS, ...POLICY_OPTIONS];
const VALUE_FLAGS = new Set(SHARED.filter((o) => o.type !== "boolean").flatMap((o) => [`--${o.name}`, ...(o.alias ? [`-${o.alias}`] : [])]));

/** The command word and the words around it, skipping global flags (and their values) before it. */
function splitCommand(argv: string[]): { command: string; rest: string[] } | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith("-")) return { command: word, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
    if (VALUE_FLAGS.has(word)) i++;
  }
  return undefined;
}

function fastPath(ctx: CliInvocation, argv: string[]): Promise<void> | undefined {
  const split = splitCommand(argv);
  if (!split) return undefined;
  const routes: Record<string, { options: readonly OptionSpec[]; positional?: string; handler: (args: never) => Promise<void> }> = {
    exec: { options: EXEC_OPTIONS, positional: "file", handler: execCommand(ctx).handler },
    run: { options: EXEC_OPTIONS, positional: "file", handler: execCommand(ctx).handler },
    repl: { options: REPL_OPTIONS, handler: replCommand(ctx).handler },
  };
  const verb = findVerb(split.command);
  if (verb) {
    // A typed operation: its flags come from the operation table, its words are its positional arguments.
    const args = parseFast(split.rest, [...SHARED, ...verbOptions(verb)], { rest: "words" });
    return args ? verbHandler(ctx, verb)(args as never) : undefined;
  }
  const route = routes[split.command];
  if (!route) return undefined;
  const args = parseFast(split.rest, [...SHARED, ...route.options], route.positional);
  return args ? route.handler(args as never) : undefined;
}

/** The command's exit code, and whether the warm path (no yargs) served it. */
async function main(ctx: CliInvocation, argv: string[]): Promise<{ code: number; fast: boolean }> {
  const fast = fastPath(ctx, argv);
  if (fast) {
    await fast;
    return { code: ctx.exitCode, fast: true };
  }
  const { runYargs } = await import("./yargs-cli.js");
  return { code: await runYargs(ctx, argv), fast: false };
}

export { saveCodeCache } from "./code-cache.js";

/**
 * Runs the command in `argv` and sets the exit code. Resolves with whether
 * the warm path served it through a daemon: the launcher then keeps V8's
 * code for the next such call.
 */
export function start(argv: string[]): Promise<{ warm: boolean }> {
  // A reader that went away (`| head`) ends the output, not with a stack trace.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
  const ctx = new CliInvocation(process.env);
  return main(ctx, argv).then(
    ({ code, fast }) => {
      process.exitCode = code;
      return { warm: fast && !ctx.inProcess };
    },
    (error: unknown) => {
      process.stderr.write(`betterwright: internal error: ${escapeControls((error as Error)?.stack ?? String(error), { keepLines: true })}\n`);
      process.exitCode = EXIT.infrastructure;
      return { warm: false };
    },
  );
}
