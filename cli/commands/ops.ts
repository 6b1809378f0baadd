// betterwright <verb> [words…] [flags]: one command per typed operation,
// made from the operation table (its usage, flags and --help included). Each
// prints the envelope as `exec` does and exits as `exec` does; on a terminal,
// a snapshot, find or read prints its text plainly instead.
import type { Argv } from "yargs";
import type { Envelope } from "../../shared/envelope.js";
import { OPERATIONS, operationUsage, type OperationSpec } from "../../shared/operations/index.js";
import { escapeControls } from "../../shared/safe-text.js";
import type { CliContext } from "../context.js";
import type { GlobalArgs } from "../global-options.js";
import { opArgsFromCli, verbOptions } from "../op-args.js";
import { applyOptions } from "../options.js";
import { envelopeExitCode, failureEnvelope, noteReset, printJson, wantsJson } from "../output.js";

type VerbArgs = GlobalArgs & { session?: string; timeout?: number; words?: string[] } & Record<string, unknown>;

/** The verb of an operation (`scroll_into_view`), and its kebab-case alias (`scroll-into-view`). */
export function verbNames(spec: OperationSpec): string[] {
  const kebabName = spec.name.replace(/_/g, "-");
  return kebabName === spec.name ? [spec.name] : [spec.name, kebabName];
}

export function findVerb(word: string): OperationSpec | undefined {
  return OPERATIONS.find((spec) => verbNames(spec).includes(word));
}

/** For people: the text of a snapshot, find or read, then one line about the rest. */
function printPlain(envelope: Envelope): boolean {
  const result = envelope.result as { text?: unknown; matches?: unknown; cursor?: unknown; totalChars?: unknown; pageId?: unknown; count?: unknown } | undefined;
  if (!envelope.ok || result === undefined) return false;
  const text = typeof result.text === "string" ? result.text : Array.isArray(result.matches) ? result.matches.join("\n") : undefined;
  if (text === undefined) return false;
  const facts = [
    typeof result.pageId === "string" ? `page ${result.pageId}` : undefined,
    typeof result.totalChars === "number" ? `${result.totalChars} characters` : undefined,
    typeof result.count === "number" ? `${result.count} matches` : undefined,
    typeof result.cursor === "string" ? `more: --cursor ${result.cursor}` : undefined,
  ].filter(Boolean);
  process.stdout.write(`${escapeControls(text, { keepLines: true })}\n`);
  if (facts.length > 0) process.stderr.write(`${escapeControls(`[${facts.join(" · ")}]`)}\n`);
  return true;
}

export function verbHandler(ctx: CliContext, spec: OperationSpec) {
  return (args: VerbArgs) => ctx.run(async () => {
    const config = ctx.config(args);
    const { session, profile, timeoutMs } = config.settings;
    const opArgs = opArgsFromCli(spec, args, (args.words ?? []).map(String));
    const bw = ctx.client(config);
    try {
      const abort = new AbortController();
      process.once("SIGINT", () => abort.abort());
      const envelope = await bw.op(spec.name as never, opArgs as never, { session, timeoutMs, signal: abort.signal }).catch((error: unknown) => failureEnvelope(error, session, profile));
      if (wantsJson(args) || !printPlain(envelope)) printJson(envelope);
      noteReset(envelope);
      return envelopeExitCode(envelope);
    } finally {
      await bw.close();
    }
  }, args.json);
}

export function verbCommand(ctx: CliContext, spec: OperationSpec) {
  const [name, ...aliases] = verbNames(spec);
  return {
    command: `${name} [words..]`,
    aliases,
    describe: spec.help,
    builder: (y: Argv<GlobalArgs>) =>
      applyOptions(y.usage(`$0 ${operationUsage(spec)} [options]\n\n${spec.help}. Prints the envelope; result: ${spec.returns}.`)
        .positional("words", { type: "string", array: true, describe: spec.args.filter((a) => a.positional).map((a) => `${a.name}: ${a.help}`).join("; ") || "none" }), verbOptions(spec)),
    handler: verbHandler(ctx, spec),
  };
}

export function verbCommands(ctx: CliContext) {
  return OPERATIONS.map((spec) => verbCommand(ctx, spec));
}
