// betterwright state list|save|rm: this profile's saved browser states
// (cookies, local storage, IndexedDB), sealed with the vault key by the
// daemon. Only names and sizes are ever printed; `list` and `rm` never start
// a browser, `save` needs the session's.
import type { Argv } from "yargs";
import type { StateListing } from "../../shared/protocol/methods/index.js";
import { safeLine } from "../../shared/safe-text.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { printJson, wantsJson } from "../output.js";
import { withClient } from "../with-client.js";

interface StateArgs extends GlobalArgs {
  name?: string;
  session?: string;
}

function renderListing(listing: StateListing): string {
  const c = listing.caps;
  const lines = listing.states.length === 0
    ? [safeLine`profile ${listing.profile} has no saved states`]
    : listing.states.map((s) => safeLine`${s.name.padEnd(24)} ${String(s.bytes).padStart(10)} B  saved ${s.savedAt}`);
  lines.push(safeLine`${listing.states.length} of ${c.maxStates} states, ${listing.totalBytes} of ${c.maxTotalStateBytes} bytes (at most ${c.maxStateBytes} each) in ${listing.dir}`);
  return `${lines.join("\n")}\n`;
}

export function stateCommand(ctx: CliInvocation) {
  const nameArg = (y: Argv<GlobalArgs>) => y.positional("name", { type: "string", demandOption: true, describe: "The saved state's name (letters, digits, . - _)" });

  const list = {
    command: "list",
    describe: "This profile's saved states: names, sizes, when saved (never their content)",
    builder: (y: Argv<GlobalArgs>) => y,
    handler: (args: StateArgs) => withClient(ctx, args, async (bw) => {
      const listing = await bw.states.list();
      if (wantsJson(args)) printJson(listing);
      else process.stdout.write(renderListing(listing));
      return 0;
    }),
  };

  const save = {
    command: "save <name>",
    describe: "Save a session's cookies, local storage and IndexedDB as NAME (replacing a state of that name)",
    builder: (y: Argv<GlobalArgs>) => nameArg(y)
      .option("session", { alias: "s", type: "string", describe: "The session whose state is saved (env BETTERWRIGHT_SESSION, default 'default')" })
      .example("$0 state save alice --session login", "Keep the login made in session 'login'")
      .example("$0 session create alice2 --isolated --state alice", "A new isolated session that starts logged in"),
    handler: (args: StateArgs) => withClient(ctx, args, async (bw, config) => {
      const saved = await bw.states.save(args.name!, { session: config.settings.session });
      if (wantsJson(args)) printJson({ ok: true, ...saved });
      else process.stdout.write(safeLine`saved state ${saved.name} from session ${saved.session}: ${saved.cookies} cookies, ${saved.origins} origins, ${saved.bytes} bytes\n`);
      return 0;
    }),
  };

  const remove = {
    command: "rm <name>",
    aliases: ["remove"],
    describe: "Delete a saved state",
    builder: nameArg,
    handler: (args: StateArgs) => withClient(ctx, args, async (bw) => {
      await bw.states.remove(args.name!);
      if (wantsJson(args)) printJson({ ok: true, removed: args.name });
      else process.stdout.write(safeLine`removed state ${args.name!}\n`);
      return 0;
    }),
  };

  return {
    command: "state",
    describe: "Saved browser states (logins) for isolated sessions: list, save, rm",
    builder: (y: Argv<GlobalArgs>) => y.command(list).command(save).command(remove).demandCommand(1, "name a state command: list, save or rm"),
    handler: () => undefined,
  };
}
