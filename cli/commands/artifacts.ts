// betterwright artifacts [list|prune] [--session S | --all] [--json]
// A short-lived client of the daemon's quota service: it may start the
// profile's daemon, never a browser.
import type { Argv } from "yargs";
import type { ArtifactScope } from "../../client/index.js";
import { BwError } from "../../shared/protocol/errors.js";
import type { ArtifactListing, PruneResult } from "../../shared/protocol/methods/index.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { printJson, wantsJson } from "../output.js";
import { safeLine } from "../../shared/safe-text.js";

interface ArtifactsArgs extends GlobalArgs {
  action?: string;
  session?: string;
  all?: boolean;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

export function renderListing(listing: ArtifactListing): string {
  const c = listing.caps;
  const lines = [
    safeLine`store ${listing.root}: ${size(listing.totalBytes)} of ${size(c.globalCapBytes)}${listing.reservedBytes ? ` (+${size(listing.reservedBytes)} reserved)` : ""}`,
    `caps: per session ${size(c.sessionCapBytes)}; per file: screenshot ${size(c.screenshotCapBytes)}, download ${size(c.downloadCapBytes)}, output ${size(c.outputCapBytes)}`,
  ];
  for (const s of listing.sessions) lines.push(safeLine`${s.profile}/${s.session}: ${s.files} file${s.files === 1 ? "" : "s"}, ${size(s.bytes)}`);
  for (const a of listing.artifacts) lines.push(safeLine`  ${size(a.bytes).padStart(10)}  ${a.createdAt}  ${a.kind.padEnd(10)}  ${a.path}${a.protected ? "  (protected)" : ""}`);
  for (const s of listing.sessions) {
    for (const d of s.downloads ?? []) {
      lines.push(safeLine`  download ${d.status}${d.reason ? ` ${d.reason}` : ""}  ${d.at}  ${d.url}${d.path ? ` → ${d.path}` : ""}`);
    }
  }
  if (listing.artifacts.length === 0) lines.push("(no artifacts)");
  return `${lines.join("\n")}\n`;
}

function renderPrune(result: PruneResult): string {
  const lines = [`removed ${result.removed.length} file${result.removed.length === 1 ? "" : "s"}, freed ${size(result.freedBytes)}`];
  for (const k of result.kept) lines.push(safeLine`  kept ${k.path}: ${k.reason}`);
  return `${lines.join("\n")}\n`;
}

export function artifactsCommand(ctx: CliInvocation) {
  return {
    command: "artifacts [action]",
    describe: "List the artifact store (sizes, totals, caps) or prune it",
    builder: (y: Argv<GlobalArgs>) =>
      y
        .positional("action", { type: "string", choices: ["list", "prune"], default: "list", describe: "list (default) or prune" })
        .option("session", { alias: "s", type: "string", describe: "Only this session of the profile" })
        .option("all", { type: "boolean", describe: "Every profile's artifacts, not only this profile's" })
        .example("$0 artifacts", "This profile's artifacts, with totals and the caps in force")
        .example("$0 artifacts prune --session research", "Remove the session's artifacts (not those a recent result refers to)"),
    handler: (args: ArtifactsArgs) => ctx.run(async () => {
      if (args.all && args.session !== undefined) throw new BwError("INVALID_ARGUMENT", "give either --session or --all, not both");
      const config = ctx.config(args);
      const scope: ArtifactScope = args.all ? { all: true } : args.session !== undefined ? { session: config.settings.session } : {};
      const bw = ctx.client(config);
      const json = wantsJson(args);
      try {
        if (args.action === "prune") {
          const result = await bw.pruneArtifacts(scope);
          if (json) printJson(result);
          else process.stdout.write(renderPrune(result));
        } else {
          const listing = await bw.artifacts(scope);
          if (json) printJson(listing);
          else process.stdout.write(renderListing(listing));
        }
        return 0;
      } finally {
        await bw.close();
      }
    }, args.json),
  };
}
