// betterwright session create NAME [--isolated] [--viewport WxH] …: makes a
// session ahead of its first exec. An isolated one gets its own browser
// context now (its settings checked by Chromium, its saved state applied);
// the same call again is a no-op, with other settings SESSION_EXISTS.
import type { Argv } from "yargs";
import { describeSpec } from "../../shared/session-settings.js";
import { safeLine } from "../../shared/safe-text.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { applyOptions } from "../options.js";
import { printJson, wantsJson } from "../output.js";
import { createParamsFrom, SESSION_CREATE_OPTIONS, type SessionCreateArgs } from "../session-options.js";
import { withClient } from "../with-client.js";

interface CreateArgs extends GlobalArgs, SessionCreateArgs {
  name?: string;
}

export function sessionCommand(ctx: CliInvocation) {
  const create = {
    command: "create <name>",
    describe: "Create a session: shared (the profile's cookies), or --isolated with its own context and settings",
    builder: (y: Argv<GlobalArgs>) => applyOptions(y.positional("name", { type: "string", demandOption: true, describe: "The session's name" }), SESSION_CREATE_OPTIONS)
      .example("$0 session create buyer --isolated --viewport 390x844 --device-scale 3 --locale en-GB", "A phone-sized session with its own cookies")
      .example("$0 session create admin --isolated --state admin-login", "An isolated session that starts from a saved login"),
    handler: (args: CreateArgs) => withClient(ctx, { ...args, session: args.name }, async (bw, config) => {
      const options = createParamsFrom(args) ?? {};
      const result = await bw.createSession(config.settings.session, options);
      if (wantsJson(args)) {
        printJson({ ok: true, ...result });
      } else {
        const how = describeSpec({ isolated: result.isolated, settings: result.settings, ...(result.state === undefined ? {} : { state: result.state }) });
        process.stdout.write(result.created ? safeLine`created session ${result.session} (${how})\n` : safeLine`session ${result.session} already exists as asked (${how})\n`);
      }
      return 0;
    }),
  };

  return {
    command: "session",
    describe: "Create a session ahead of its first exec: session create NAME [--isolated …]",
    builder: (y: Argv<GlobalArgs>) => y.command(create).demandCommand(1, "name a session command: create"),
    handler: () => undefined,
  };
}
