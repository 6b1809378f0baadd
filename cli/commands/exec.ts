// betterwright exec [FILE|-] [-c CODE] [--session S] [--timeout SECONDS]
import type { Argv } from "yargs";
import { readCode } from "../code-source.js";
import { parseJsonFlag } from "../json-flag.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { applyOptions, type OptionSpec } from "../options.js";
import { envelopeExitCode, failureEnvelope, noteReset, printJson } from "../output.js";
import { createParamsFrom, SESSION_CREATE_OPTIONS, type SessionCreateArgs } from "../session-options.js";

interface ExecArgs extends GlobalArgs, SessionCreateArgs {
  file?: string;
  code?: string;
  session?: string;
  timeout?: number;
  "approve-downloads"?: boolean;
  args?: string;
}

export const EXEC_OPTIONS: readonly OptionSpec[] = [
  { name: "code", alias: "c", type: "string", describe: "The snippet itself" },
  { name: "session", alias: "s", type: "string", describe: "Session name (env BETTERWRIGHT_SESSION, default 'default')" },
  { name: "timeout", type: "number", describe: "Budget in seconds, queue wait included (env BETTERWRIGHT_TIMEOUT_SECONDS, default 30)" },
  { name: "approve-downloads", type: "boolean", describe: "Accept downloads this session's pages start during this run (into its artifact folder)" },
  { name: "args", type: "string", describe: "JSON data the snippet sees as `args` (e.g. '{\"url\": \"http://localhost:3000\"}')" },
  ...SESSION_CREATE_OPTIONS,
];

export function execCommand(ctx: CliInvocation) {
  return {
    command: "exec [file]",
    aliases: ["run"],
    describe: "Run one snippet in a session and print its result envelope",
    builder: (y: Argv<GlobalArgs>) =>
      applyOptions(y.positional("file", { type: "string", describe: "File holding the snippet; - reads stdin" }), EXEC_OPTIONS)
        .example("$0 exec -c 'await page.goto(\"http://localhost:3000\"); return page.title()'", "Run a snippet in the default session")
        .example("$0 exec --session research script.js", "Run a file in the session 'research'")
        .example("echo 'return page.url()' | $0 exec -", "Read the snippet from stdin")
        .example("$0 exec -c 'await page.goto(args.url); return page.title()' --args '{\"url\":\"http://localhost:3000\"}'", "Give the snippet JSON data as `args`"),
    handler: (args: ExecArgs) => ctx.run(async () => {
      const config = ctx.config(args);
      // yargs hands a lone "-" positional over as "".
      const code = await readCode({ code: args.code, file: args.file === "" ? "-" : args.file });
      const { session, profile, timeoutMs } = config.settings;
      const create = createParamsFrom(args);
      const data = args.args === undefined ? undefined : parseJsonFlag("--args", args.args);
      const bw = ctx.client(config);
      try {
        // Ctrl-C cancels the run in the daemon; the envelope (CANCELLED) is still printed.
        const abort = new AbortController();
        process.once("SIGINT", () => abort.abort());
        const envelope = await bw.run(code, { session, timeoutMs, signal: abort.signal, approveDownloads: args["approve-downloads"] === true, ...(data !== undefined ? { args: data } : {}), ...(create ? { create } : {}) }).catch((error: unknown) => failureEnvelope(error, session, profile));
        printJson(envelope);
        noteReset(envelope);
        return envelopeExitCode(envelope);
      } finally {
        await bw.close();
      }
    }, args.json),
  };
}
