// betterwright close [--session S | --all]
import type { Argv } from "yargs";
import { connectExisting, waitForDaemonExit } from "../../client/daemon-client.js";
import { BwError } from "../../shared/errors.js";
import { layoutFor } from "../../shared/paths.js";
import { SessionClose, Shutdown } from "../../shared/protocol/index.js";
import type { CliContext } from "../context.js";
import type { GlobalArgs } from "../global-options.js";
import { printJson, wantsJson } from "../output.js";
import { safeJson } from "../../shared/safe-text.js";

interface CloseArgs extends GlobalArgs {
  session?: string;
  all?: boolean;
}

export function closeCommand(ctx: CliContext) {
  return {
    command: "close",
    describe: "Close a session, or stop the profile's daemon and its browser (--all)",
    builder: (y: Argv<GlobalArgs>) =>
      y
        .option("session", { alias: "s", type: "string", describe: "Session to close (default: BETTERWRIGHT_SESSION or 'default')" })
        .option("all", { type: "boolean", describe: "Stop the daemon: every session, the browser and the worker" }),
    handler: (args: CloseArgs) => ctx.run(async () => {
      if (args.all && args.session !== undefined) throw new BwError("INVALID_ARGUMENT", "give either --session or --all, not both");
      const { settings } = ctx.config(args);
      const layout = layoutFor(settings.home, settings.profile);
      const connection = await connectExisting(layout);
      let result: Record<string, unknown>;
      if (!connection) {
        result = { ok: true, running: false, profile: settings.profile };
      } else if (args.all) {
        await connection.peer.call(Shutdown, {}).finally(() => connection.peer.close());
        if (!(await waitForDaemonExit(connection.daemon.pid))) {
          throw new BwError("DAEMON_UNAVAILABLE", `daemon ${connection.daemon.pid} did not exit in time; see ${layout.logPath}`);
        }
        result = { ok: true, stopped: true, profile: settings.profile, pid: connection.daemon.pid };
      } else {
        const { closed } = await connection.peer.call(SessionClose, { session: settings.session }).finally(() => connection.peer.close());
        result = { ok: true, closed, session: settings.session, profile: settings.profile };
      }
      if (wantsJson(args)) printJson(result);
      else process.stdout.write(`${safeJson(result)}\n`);
      return 0;
    }, args.json),
  };
}
