// What every command handler gets: the environment, the config resolver and
// a runner that turns a result or a thrown error into the exit code.
import { BetterWright } from "../client/index.js";
import { resolveConfig, type ResolvedConfig } from "../shared/config.js";
import { safeLine } from "../shared/safe-text.js";
import { flagsFrom, type GlobalArgs } from "./global-options.js";
import { reportError } from "./output.js";

export class CliInvocation {
  exitCode = 0;
  /** A command ran with --no-daemon: the CLI hosted the daemon's code itself (the launcher keeps no code cache of that). */
  inProcess = false;
  private pending: Promise<void> = Promise.resolve();

  constructor(readonly env: NodeJS.ProcessEnv) {}

  config(args: GlobalArgs & { session?: string; timeout?: number }): ResolvedConfig {
    const config = resolveConfig({ flags: flagsFrom(args), env: this.env });
    if (config.settings.noDaemon) this.inProcess = true;
    return config;
  }

  /** A library client of the profile's daemon, whose notices (a daemon that had died, replaced) go to stderr. */
  client(config: ResolvedConfig): BetterWright {
    return BetterWright.fromConfig(config, this.env, { onNotice: (message) => process.stderr.write(safeLine`betterwright: ${message}\n`) });
  }

  /** Runs a command body; errors become a message (or JSON) and an exit code. */
  run(body: () => Promise<number>, json = false): Promise<void> {
    this.pending = body().then(
      (code) => { this.exitCode = code; },
      (error: unknown) => { this.exitCode = reportError(error, json); },
    );
    return this.pending;
  }

  settled(): Promise<void> {
    return this.pending;
  }
}
