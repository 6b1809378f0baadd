// betterwright <verb> [words…] [flags]: one command per typed operation,
// made from the operation table (its usage, flags and --help included). Each
// exits as `exec` does and prints the envelope when piped or with --json; on a
// terminal, text for a person (cli/verb-text.ts).
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Argv } from "yargs";
import type { Envelope } from "../../shared/protocol/envelope.js";
import { OPERATIONS, operationUsage, type OperationSpec } from "../../shared/protocol/operations/index.js";
import { BwError } from "../../shared/protocol/errors.js";
import { isRef } from "../../shared/protocol/operations/index.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { argLabel, opArgsFromCli, verbOptions } from "../op-args.js";
import { applyOptions } from "../options.js";
import { envelopeExitCode, failureEnvelope, noteReset, printJson, wantsJson } from "../output.js";
import { createParamsFrom, type SessionCreateArgs } from "../session-options.js";
import { verbText } from "../verb-text.js";

type VerbArgs = GlobalArgs & SessionCreateArgs & { session?: string; timeout?: number; words?: string[] } & Record<string, unknown>;

/** The verb of an operation (`scroll_into_view`), and its kebab-case alias (`scroll-into-view`). */
export function verbNames(spec: OperationSpec): string[] {
  const kebabName = spec.name.replace(/_/g, "-");
  return kebabName === spec.name ? [spec.name] : [spec.name, kebabName];
}

export function findVerb(word: string): OperationSpec | undefined {
  return OPERATIONS.find((spec) => verbNames(spec).includes(word));
}

/** `screenshot [TARGET] [FILE]`: a word that is no ref names the file the image is copied to. */
function outputFile(spec: OperationSpec, words: string[], flags: VerbArgs): { words: string[]; file?: string; type?: string } {
  if (spec.name !== "screenshot") return { words };
  const file = words.find((w): boolean => !isRef(w));
  if (file === undefined) return { words };
  const type = /\.png$/i.test(file) ? "png" : /\.jpe?g$/i.test(file) ? "jpeg" : undefined;
  if (type === undefined) throw new BwError("INVALID_ARGUMENT", `FILE: ${JSON.stringify(file.slice(0, 200))} should end in .png, .jpg or .jpeg (or give a ref like e12 as TARGET)`);
  if (flags.type !== undefined && flags.type !== type) throw new BwError("INVALID_ARGUMENT", `--type ${String(flags.type)} does not match ${JSON.stringify(file.slice(0, 200))}`);
  return { words: words.filter((w) => w !== file), file, type };
}

/** Copies the screenshot out of the artifact store to where the user asked, as the user; the result then names it. */
async function saveTo(envelope: Envelope, file: string): Promise<void> {
  const result = envelope.result as { path?: unknown } | undefined;
  if (!envelope.ok || typeof result?.path !== "string") return;
  const target = path.resolve(file);
  try {
    // Written afresh (not copied), so the file gets the user's umask rather than the store's 0600.
    await writeFile(target, await readFile(result.path));
  } catch (error) {
    throw new BwError("INVALID_ARGUMENT", `FILE: cannot write ${target}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  envelope.result = { ...result, file: target };
}

function printForPeople(op: string, envelope: Envelope): void {
  const { stdout, stderr } = verbText(op, envelope);
  if (stdout) process.stdout.write(stdout);
  if (stderr) process.stderr.write(stderr);
}

export function verbHandler(ctx: CliInvocation, spec: OperationSpec) {
  return (args: VerbArgs) => ctx.run(async () => {
    const config = ctx.config(args);
    const { session, profile, timeoutMs } = config.settings;
    const { words, file, type } = outputFile(spec, (args.words ?? []).map(String), args);
    const opArgs = opArgsFromCli(spec, type === undefined ? args : { ...args, type }, words);
    const create = createParamsFrom(args);
    const bw = ctx.client(config);
    try {
      const abort = new AbortController();
      process.once("SIGINT", () => abort.abort());
      const envelope = await bw.op(spec.name as never, opArgs as never, { session, timeoutMs, signal: abort.signal, ...(create ? { create } : {}) }).catch((error: unknown) => failureEnvelope(error, session, profile));
      if (file !== undefined) await saveTo(envelope, file);
      if (wantsJson(args)) printJson(envelope);
      else printForPeople(spec.name, envelope);
      noteReset(envelope);
      return envelopeExitCode(envelope);
    } finally {
      await bw.close();
    }
  }, args.json);
}

export function verbCommand(ctx: CliInvocation, spec: OperationSpec) {
  const [name, ...aliases] = verbNames(spec);
  return {
    command: `${name} [words..]`,
    aliases,
    describe: spec.help,
    builder: (y: Argv<GlobalArgs>) =>
      applyOptions(y.usage(`$0 ${operationUsage(spec)}${spec.name === "screenshot" ? " [FILE]" : ""} [options]\n\n${spec.help}${spec.name === "screenshot" ? "; with FILE (.png, .jpg), copied there too" : ""}. On a terminal prints text; piped or with --json, the envelope (result: ${spec.returns}).`)
        .positional("words", { type: "string", array: true, describe: [...spec.args.filter((a) => a.positional).map((a) => `${argLabel(a)}: ${a.help}`), ...(spec.name === "screenshot" ? ["FILE: where to copy the image (.png, .jpg or .jpeg)"] : [])].join("; ") || "none" }), verbOptions(spec)),
    handler: verbHandler(ctx, spec),
  };
}

export function verbCommands(ctx: CliInvocation) {
  return OPERATIONS.map((spec) => verbCommand(ctx, spec));
}
