// Every command, parsed by yargs (help, validation, usage errors). Loaded
// only when the warm path in main.ts does not apply. Register commands here.
import yargs from "yargs";
import { artifactsCommand } from "./commands/artifacts.js";
import { closeCommand } from "./commands/close.js";
import { doctorCommand } from "./commands/doctor.js";
import { execCommand } from "./commands/exec.js";
import { mcpCommand } from "./commands/mcp.js";
import { verbCommands } from "./commands/ops.js";
import { policyCommand } from "./commands/policy.js";
import { replCommand } from "./commands/repl.js";
import { sessionCommand } from "./commands/session.js";
import { serveCommand } from "./commands/serve.js";
import { sessionsCommand } from "./commands/sessions.js";
import { skillCommand } from "./commands/skill.js";
import { setupCommand } from "./commands/setup.js";
import { stateCommand } from "./commands/state.js";
import { transcriptCommand } from "./commands/transcript.js";
import { vaultCommand } from "./commands/vault.js";
import type { CliInvocation } from "./invocation.js";
import { withGlobalOptions } from "./global-options.js";
import { reportError } from "./output.js";
import { usageMessage } from "./usage-errors.js";
import { BwError } from "../shared/protocol/errors.js";
import { PACKAGE_VERSION } from "../shared/version.js";

class UsageError extends Error {}

interface YargsInternals {
  getOptions(): { key: Record<string, unknown> };
  getInternalMethods(): { getContext(): { commands: string[] }; getCommandInstance(): { getCommands(): string[] } };
}

export async function runYargs(ctx: CliInvocation, argv: string[]): Promise<number> {
  const wantsJson = argv.includes("--json");
  let usageError: string | undefined;
  const parser = withGlobalOptions(yargs(argv))
    .scriptName("betterwright")
    .usage("$0 <command> [options]\n\nA persistent, policy-guarded Chromium for agents and scripts.")
    .command(execCommand(ctx))
    .command(replCommand(ctx))
    .command(sessionCommand(ctx))
    .command(sessionsCommand(ctx))
    .command(closeCommand(ctx))
    .command(transcriptCommand(ctx))
    .command(doctorCommand(ctx))
    .command(setupCommand(ctx))
    .command(policyCommand(ctx))
    .command(vaultCommand(ctx))
    .command(artifactsCommand(ctx))
    // One command per typed operation, from the operation table.
    .command(verbCommands(ctx))
    .command(stateCommand(ctx))
    .command(serveCommand(ctx))
    .command(mcpCommand(ctx))
    .command(skillCommand(ctx))
    .demandCommand(1, "name a command (betterwright --help lists them)")
    .strict()
    .help()
    .alias("help", "h")
    .version("version", "Show betterwright's version", PACKAGE_VERSION)
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .exitProcess(false)
    .fail((message, error) => {
      // Throwing stops yargs before any handler runs.
      // What yargs knows at this point (the command it was parsing), through methods its typings leave out.
      const known = parser as unknown as YargsInternals;
      const internal = known.getInternalMethods();
      const options = known.getOptions();
      throw new UsageError(usageMessage(message || error?.message || "usage error", {
        argv,
        commandPath: internal.getContext().commands,
        commands: internal.getCommandInstance().getCommands(),
        options: Object.keys(options.key),
      }));
    });
  try {
    await parser.parseAsync();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    usageError = error.message;
  }
  await ctx.settled();
  // The same voice as every other error: one line on stderr (or JSON with --json), exit 2.
  if (usageError !== undefined) return reportError(new BwError("INVALID_ARGUMENT", usageError), wantsJson);
  return ctx.exitCode;
}
