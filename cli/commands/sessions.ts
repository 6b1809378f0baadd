// betterwright sessions [--json]: every profile's daemon in this home, and its sessions.
import type { Argv } from "yargs";
import { connectExisting, listDaemonLayouts } from "../../client/library/daemon-client.js";
import { Status, type StatusResult } from "../../shared/protocol/methods/index.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { printJson, wantsJson } from "../output.js";
import { safeLine } from "../../shared/safe-text.js";
import { describeSpec } from "../../shared/session-settings.js";

export async function collectStatuses(home: string): Promise<StatusResult[]> {
  const statuses: StatusResult[] = [];
  for (const layout of listDaemonLayouts(home)) {
    const connection = await connectExisting(layout).catch(() => undefined);
    if (!connection) continue;
    try {
      statuses.push(await connection.peer.call(Status, {}));
    } finally {
      connection.peer.close();
    }
  }
  return statuses;
}

function render(statuses: StatusResult[]): string {
  if (statuses.length === 0) return "no daemon is running\n";
  const lines: string[] = [];
  for (const s of statuses) {
    lines.push(safeLine`profile ${s.profile}: daemon pid ${s.pid}, up ${Math.round(s.uptimeMs / 1000)} s, browser ${s.browser.running ? "running" : "not started"}`);
    if (s.sessions.length === 0) lines.push("  (no sessions)");
    for (const x of s.sessions) {
      const how = describeSpec({ isolated: x.isolated === true, settings: x.settings ?? {}, ...(x.state === undefined ? {} : { state: x.state }) });
      const where = x.placement === undefined ? "" : `   on ${x.placement}`;
      lines.push(safeLine`  ${x.session.padEnd(24)} idle ${String(Math.round(x.idleMs / 1000)).padStart(5)} s   in flight ${x.inFlight}   queued ${x.queued}   ${how}${where}`);
    }
    for (const e of s.endpoints ?? []) {
      const guard = e.guarded ? "" : "   GUARD NOT ENFORCED";
      lines.push(safeLine`  endpoint ${e.url}: ${e.state}, ${e.sessions}/${e.maxSessions} sessions${e.version ? `, ${e.version}` : ""}${e.error ? ` (${e.error})` : ""}${guard}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

export function sessionsCommand(ctx: CliInvocation) {
  return {
    command: "sessions",
    describe: "List every profile's daemon and its sessions",
    builder: (y: Argv<GlobalArgs>) => y,
    handler: (args: GlobalArgs) => ctx.run(async () => {
      const statuses = await collectStatuses(ctx.config(args).settings.home);
      if (wantsJson(args)) printJson({ daemons: statuses });
      else process.stdout.write(render(statuses));
      return 0;
    }, args.json),
  };
}
