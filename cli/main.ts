#!/usr/bin/env node
// The betterwright command. Each command maps its flags to one client call
// and renders the result; stdout carries results only.
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { closeCommand } from "./commands/close.js";
import { execCommand } from "./commands/exec.js";
import { sessionsCommand } from "./commands/sessions.js";
import { CliContext } from "./context.js";
import { withGlobalOptions } from "./global-options.js";
import { EXIT, printJson } from "./output.js";

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const ctx = new CliContext(process.env);
  const wantsJson = argv.includes("--json");
  let usageError: string | undefined;
  const parser = withGlobalOptions(yargs(argv))
    .scriptName("betterwright")
    .usage("$0 <command> [options]\n\nA persistent, policy-guarded Chromium for agents and scripts.")
    .command(execCommand(ctx))
    .command(sessionsCommand(ctx))
    .command(closeCommand(ctx))
    .demandCommand(1, "name a command")
    .strict()
    .help()
    .alias("help", "h")
    .version(false)
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((message, error) => {
      // Throwing stops yargs before any handler runs.
      throw new UsageError(message || error?.message || "usage error");
    });
  try {
    await parser.parseAsync();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    usageError = error.message;
  }
  await ctx.settled();
  if (usageError !== undefined) {
    if (wantsJson) printJson({ ok: false, error: { code: "INVALID_ARGUMENT", message: usageError, retryable: false } });
    else process.stderr.write(`betterwright: ${usageError}\nRun 'betterwright --help' for usage.\n`);
    return EXIT.usage;
  }
  return ctx.exitCode;
}

main(hideBin(process.argv)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`betterwright: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = EXIT.infrastructure;
  },
);
