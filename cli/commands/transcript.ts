// betterwright transcript [--session S] [--since SEQ] [--follow] [--json]
// Reads the session's transcript file directly: it works whether or not the
// daemon runs, and never starts one.
import type { Argv } from "yargs";
import { BwError } from "../../shared/protocol/errors.js";
import { layoutFor, transcriptPath } from "../../shared/paths.js";
import { escapeControls, safeJson, safeLine } from "../../shared/safe-text.js";
import { readTranscript, type TranscriptEntry } from "../../shared/transcript-format.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { wantsJson } from "../output.js";

const FOLLOW_POLL_MS = 500;

interface TranscriptArgs extends GlobalArgs {
  session?: string;
  since?: number;
  follow?: boolean;
}

/** One entry for a person: only the snippet keeps its line breaks, under a gutter nothing else can draw. */
export function renderTranscriptEntry(entry: TranscriptEntry): string {
  const status = entry.ok ? "ok" : `${entry.error?.code ?? "error"}`;
  const snippet = escapeControls(entry.snippet, { keepLines: true }).split("\n").map((l) => `  │ ${l}`).join("\n");
  const outcome = entry.ok ? safeLine`  → ${entry.result ?? ""}` : safeLine`  ✗ ${entry.error?.message ?? ""}`;
  return `${safeLine`#${entry.seq} ${entry.at} ${status} ${entry.durationMs} ms`}\n${snippet}\n${outcome}\n`;
}

export function transcriptCommand(ctx: CliInvocation) {
  return {
    command: "transcript",
    describe: "Show a session's transcript: every finished exec with its snippet and result",
    builder: (y: Argv<GlobalArgs>) =>
      y
        .option("session", { alias: "s", type: "string", describe: "Session (default: BETTERWRIGHT_SESSION or 'default')" })
        .option("since", { type: "number", describe: "Only entries after this sequence number" })
        .option("follow", { alias: "f", type: "boolean", describe: "Keep printing new entries as they are written (Ctrl-C to stop)" }),
    handler: (args: TranscriptArgs) => ctx.run(async () => {
      const since = args.since ?? 0;
      if (!Number.isInteger(since) || since < 0) throw new BwError("INVALID_ARGUMENT", "--since takes a sequence number (a whole number ≥ 0)");
      const { settings } = ctx.config(args);
      const file = transcriptPath(layoutFor(settings.home, settings.profile), settings.session);
      const json = wantsJson(args);
      let last = since;
      const print = () => {
        for (const entry of readTranscript(file, last)) {
          process.stdout.write(json ? `${safeJson(entry)}\n` : renderTranscriptEntry(entry));
          last = entry.seq;
        }
      };
      print();
      if (!args.follow) return 0;
      await new Promise<void>((resolve) => {
        const timer = setInterval(print, FOLLOW_POLL_MS);
        process.once("SIGINT", () => { clearInterval(timer); resolve(); });
      });
      return 0;
    }, args.json),
  };
}
