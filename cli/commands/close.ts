// betterwright close [--session S | --all]. `--all` stops every profile's
// daemon in this home, as `sessions` lists every profile's; a stated profile
// (--profile, BETTERWRIGHT_PROFILE) narrows it to that profile's daemon.
import type { Argv } from "yargs";
import { connectExisting, listDaemonLayouts, waitForDaemonExit } from "../../client/library/daemon-client.js";
import { BwError } from "../../shared/protocol/errors.js";
import { layoutFor, type HomeLayout } from "../../shared/paths.js";
import { SessionClose, Shutdown } from "../../shared/protocol/methods/index.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { printJson, wantsJson } from "../output.js";
import { safeLine } from "../../shared/safe-text.js";

interface CloseArgs extends GlobalArgs {
  session?: string;
  all?: boolean;
}

/** Stops the daemon of `layout` if one runs: its profile and pid, or undefined when none ran. */
async function stopDaemon(layout: HomeLayout): Promise<{ profile: string; pid: number } | undefined> {
  const connection = await connectExisting(layout);
  if (!connection) return undefined;
  await connection.peer.call(Shutdown, {}).finally(() => connection.peer.close());
  if (!(await waitForDaemonExit(connection.daemon.pid))) {
    throw new BwError("DAEMON_UNAVAILABLE", `daemon ${connection.daemon.pid} did not exit in time; see ${layout.logPath}`);
  }
  return { profile: layout.profile, pid: connection.daemon.pid };
}

function render(result: Record<string, unknown>): string {
  if (Array.isArray(result.daemons)) {
    const daemons = result.daemons as { profile: string; pid: number }[];
    if (daemons.length === 0) return "no daemon was running\n";
    return daemons.map((d) => safeLine`stopped the daemon of profile ${d.profile} (pid ${d.pid})\n`).join("");
  }
  if (result.running === false) return safeLine`no daemon of profile ${result.profile} was running\n`;
  if (result.stopped === true) return safeLine`stopped the daemon of profile ${result.profile} (pid ${result.pid})\n`;
  return result.closed === true ? safeLine`closed session ${result.session}\n` : safeLine`session ${result.session} was not open\n`;
}

export function closeCommand(ctx: CliInvocation) {
  return {
    command: "close",
    describe: "Close a session, or stop every profile's daemon and browser (--all; with --profile, that profile's)",
    builder: (y: Argv<GlobalArgs>) =>
      y
        .option("session", { alias: "s", type: "string", describe: "Session to close (default: BETTERWRIGHT_SESSION or 'default')" })
        .option("all", { type: "boolean", describe: "Stop every profile's daemon in this home (only the stated one with --profile or BETTERWRIGHT_PROFILE): its sessions, browser and worker" }),
    handler: (args: CloseArgs) => ctx.run(async () => {
      if (args.all && args.session !== undefined) throw new BwError("INVALID_ARGUMENT", "give either --session or --all, not both");
      const config = ctx.config(args);
      const { settings } = config;
      let result: Record<string, unknown>;
      if (args.all && config.profileStated !== true) {
        // All at once: each may take its drain time (in-flight runs finishing).
        const stopped = await Promise.all(listDaemonLayouts(settings.home).map(stopDaemon));
        const daemons = stopped.filter((d) => d !== undefined);
        result = { ok: true, stopped: daemons.length > 0, daemons };
      } else if (args.all) {
        const stopped = await stopDaemon(layoutFor(settings.home, settings.profile));
        result = stopped ? { ok: true, stopped: true, ...stopped } : { ok: true, running: false, profile: settings.profile };
      } else {
        const connection = await connectExisting(layoutFor(settings.home, settings.profile));
        if (!connection) result = { ok: true, running: false, profile: settings.profile };
        else {
          const { closed } = await connection.peer.call(SessionClose, { session: settings.session }).finally(() => connection.peer.close());
          result = { ok: true, closed, session: settings.session, profile: settings.profile };
        }
      }
      if (wantsJson(args)) printJson(result);
      else process.stdout.write(render(result));
      return 0;
    }, args.json),
  };
}
