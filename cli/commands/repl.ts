// betterwright repl [--session S]: snippets on stdin separated by blank lines;
// one envelope per line on stdout as each finishes, in order, over one connection.
import type { Argv } from "yargs";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { applyOptions, type OptionSpec } from "../options.js";
import { failureEnvelope, noteReset } from "../output.js";
import { createParamsFrom, SESSION_CREATE_OPTIONS, type SessionCreateArgs } from "../session-options.js";
import { safeJson } from "../../shared/safe-text.js";

interface ReplArgs extends GlobalArgs, SessionCreateArgs {
  session?: string;
  timeout?: number;
}

/** How many snippets repl keeps sent ahead of the one whose envelope it waits for. */
export const REPL_AHEAD = 4;

export const REPL_OPTIONS: readonly OptionSpec[] = [
  { name: "session", alias: "s", type: "string", describe: "Session name (env BETTERWRIGHT_SESSION, default 'default')" },
  { name: "timeout", type: "number", describe: "Budget per snippet in seconds (default 30)" },
  ...SESSION_CREATE_OPTIONS,
];

export function replCommand(ctx: CliInvocation) {
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
      const bw = ctx.client(config);
      const splitter = new SnippetSplitter();
      let failed = false;
      // Snippets are sent as soon as they are complete, up to REPL_AHEAD of them unanswered: the daemon's
      // session queue runs them one after another, in order, each with its whole budget (counted from its
      // start), and the hops to the daemon overlap the runs. Each envelope is printed, in order, as soon
      // as its run and every one before it have finished. The first snippet is answered before any other
      // is sent: it may create the session, which the ones after it must find made.
      let printed: Promise<void> = Promise.resolve();
      const unanswered: Promise<void>[] = [];
      let first = true;
      const send = async (code: string) => {
        const envelope = bw.run(code, { session, timeoutMs, budgetFromStart: true, ...(create ? { create } : {}) })
          .catch((error: unknown) => failureEnvelope(error, session, profile));
        printed = printed.then(() => envelope).then((e) => {
          if (!e.ok) failed = true;
          process.stdout.write(`${safeJson(e)}\n`);
          noteReset(e);
        });
        unanswered.push(printed);
        while (unanswered.length >= (first ? 1 : REPL_AHEAD)) await unanswered.shift();
        first = false;
      };
      try {
        for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
          for (const code of splitter.line(line)) await send(code);
        }
        for (const code of splitter.end()) await send(code);
        await printed;
      } finally {
        await bw.close();
      }
      return failed ? 1 : 0;
    }, args.json),
  };
}
