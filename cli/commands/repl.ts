// betterwright repl [--session S]: snippets on stdin separated by blank lines;
// one envelope per line on stdout as each finishes, in order, over one connection.
import type { Argv } from "yargs";
import { BetterWright } from "../../client/index.js";
import type { Envelope } from "../../shared/envelope.js";
import type { CliContext } from "../context.js";
import type { GlobalArgs } from "../global-options.js";
import { applyOptions, type OptionSpec } from "../options.js";
import { failureEnvelope } from "../output.js";
import { createParamsFrom, SESSION_CREATE_OPTIONS, type SessionCreateArgs } from "../session-options.js";
import { safeJson } from "../../shared/safe-text.js";

interface ReplArgs extends GlobalArgs, SessionCreateArgs {
  session?: string;
  timeout?: number;
}

export const REPL_OPTIONS: readonly OptionSpec[] = [
  { name: "session", alias: "s", type: "string", describe: "Session name (env BETTERWRIGHT_SESSION, default 'default')" },
  { name: "timeout", type: "number", describe: "Budget per snippet in seconds (default 30)" },
  ...SESSION_CREATE_OPTIONS,
];

export function replCommand(ctx: CliContext) {
  return {
    command: "repl",
    describe: "Run snippets from stdin, separated by blank lines; print one envelope per line as each finishes",
    builder: (y: Argv<GlobalArgs>) =>
      applyOptions(y, REPL_OPTIONS)
        .example("printf 'await page.goto(\"http://localhost:3000\")\\n\\nreturn page.url()\\n' | $0 repl --session s1", "Two snippets, two envelopes"),
    handler: (args: ReplArgs) => ctx.run(async () => {
      // Loaded here, not at the top: the warm path imports this module for its options alone.
      const [{ createInterface }, { SnippetSplitter }] = await Promise.all([import("node:readline"), import("../snippet-splitter.js")]);
      const config = ctx.config(args);
      const { session, profile, timeoutMs } = config.settings;
      const create = createParamsFrom(args);
      const bw = BetterWright.fromConfig(config, ctx.env);
      const splitter = new SnippetSplitter();
      let failed = false;
      const run = async (code: string) => {
        const envelope: Envelope = await bw.run(code, { session, timeoutMs, ...(create ? { create } : {}) }).catch((error: unknown) => failureEnvelope(error, session, profile));
        if (!envelope.ok) failed = true;
        process.stdout.write(`${safeJson(envelope)}\n`);
      };
      try {
        // Snippets run one after another, each as soon as it is complete.
        for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
          for (const code of splitter.line(line)) await run(code);
        }
        for (const code of splitter.end()) await run(code);
      } finally {
        await bw.close();
      }
      return failed ? 1 : 0;
    }, args.json),
  };
}
