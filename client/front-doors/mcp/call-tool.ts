// One tools/call: pick the session, check the arguments against the tool's
// declaration (an operation's: by the library), make the library call, and
// turn its envelope or error into a tool result. Cancellation from the client
// aborts the call, which cancels the run in the daemon (run.cancel).
import type { OperationName } from "../../../shared/protocol/operations/index.js";
import { checkOperationArgs } from "../../../shared/protocol/operations/index.js";
import { BwError } from "../../../shared/protocol/errors.js";
import { validateName } from "../../../shared/names.js";
import type { Envelope } from "../../../shared/protocol/envelope.js";
import { readArtifactImage } from "./artifact-image.js";
import type { McpConnection } from "./connection.js";
import { errorResult } from "./errors.js";
import type { FrontDoor } from "./front-door.js";
import { callFrontDoorTool } from "./front-door-calls.js";
import { envelopeResult, type CallResult } from "./results.js";
import { readSpilled } from "../common/spilled.js";

export interface ToolCallHooks {
  signal: AbortSignal;
  /** Set when the client asked for progress: reports that the call is still running. */
  progress?: (progress: number, message: string) => Promise<void>;
}

const MAX_IMAGES_PER_RUN = 3;

/** Reports progress every `everyMs` while `work` runs. */
async function withHeartbeat<T>(work: Promise<T>, context: ToolCallHooks, everyMs: number): Promise<T> {
  const report = context.progress;
  if (!report) return work;
  const started = Date.now();
  let beats = 0;
  const timer = setInterval(() => {
    beats += 1;
    void report(beats, `running for ${Math.round((Date.now() - started) / 1000)} s`).catch(() => undefined);
  }, everyMs);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

/** Screenshots of the envelope, as image content (those that check out; see artifact-image.ts). */
function attachImages(door: FrontDoor, envelope: Envelope, result: CallResult): CallResult {
  if (!envelope.ok) return result;
  const paths = new Set<string>();
  const r = envelope.result as { path?: unknown } | undefined;
  if (typeof r?.path === "string") paths.add(r.path);
  for (const a of envelope.artifacts) if (a.kind === "screenshot") paths.add(a.path);
  const dir = door.artifactDir(envelope.session);
  for (const file of [...paths].slice(0, MAX_IMAGES_PER_RUN)) {
    const image = readArtifactImage(file, dir, door.options.maxImageBytes);
    if (image) result.content.push({ type: "image", ...image });
  }
  return result;
}

/**
 * The tool result of an envelope. A result the daemon spilled to a file is read back here and handed out in
 * parts (`more`), so that a remote host never gets a path it cannot open; `--large-results files` keeps the path.
 */
function answer(door: FrontDoor, connection: McpConnection, name: string, envelope: Envelope): CallResult {
  const file = envelope.fullOutputPath;
  if (!envelope.ok || !envelope.truncated || file === undefined || door.options.largeResults === "files") return envelopeResult(name, envelope);
  let whole: unknown;
  try {
    whole = readSpilled(file, door.artifactDir(envelope.session));
  } catch {
    return envelopeResult(name, envelope);
  }
  const { truncated: _cut, preview: _preview, fullOutputPath: _path, ...rest } = envelope;
  return envelopeResult(name, { ...rest, result: whole, artifacts: envelope.artifacts.filter((a) => a.path !== file) }, (text) => connection.answers.first(text));
}

function splitSession(args: Record<string, unknown>, connection: McpConnection): { session: string; rest: Record<string, unknown> } {
  const { session, ...rest } = args;
  if (session === undefined || session === null) return { session: connection.session, rest };
  return { session: validateName(session, "session"), rest };
}

export async function callTool(door: FrontDoor, connection: McpConnection, name: string, rawArgs: unknown, context: ToolCallHooks): Promise<CallResult> {
  try {
    const entry = door.tool(name);
    if (!entry) {
      throw new BwError("INVALID_ARGUMENT", `no tool ${JSON.stringify(name.slice(0, 40))} is served here; tools/list shows those that are (start betterwright mcp with --tools all for every one)`);
    }
    if (rawArgs !== undefined && rawArgs !== null && (typeof rawArgs !== "object" || Array.isArray(rawArgs))) throw new BwError("INVALID_ARGUMENT", "arguments: expected an object");
    const given = (rawArgs ?? {}) as Record<string, unknown>;
    const { session, rest } = entry.inSession ? splitSession(given, connection) : { session: connection.session, rest: given };
    const everyMs = door.options.progressEveryMs ?? 2_000;
    if (entry.kind === "operation") {
      // The library checks an operation's arguments against the table (the same check, the same messages).
      const envelope = await withHeartbeat(door.bw.op(name as OperationName, rest as never, { session, timeoutMs: door.options.timeoutMs, signal: context.signal, ...connection.prepare(session) }), context, everyMs);
      const result = answer(door, connection, name, envelope);
      return name === "screenshot" ? attachImages(door, envelope, result) : result;
    }
    const args = checkOperationArgs(entry.spec, rest) as Record<string, unknown>;
    if (name === "run") {
      const timeoutMs = typeof args.timeoutMs === "number" ? args.timeoutMs : door.options.timeoutMs;
      const envelope = await withHeartbeat(door.bw.run(String(args.code), { session, timeoutMs, signal: context.signal, ...(args.args !== undefined ? { args: args.args } : {}), ...connection.prepare(session) }), context, everyMs);
      return attachImages(door, envelope, answer(door, connection, name, envelope));
    }
    return await callFrontDoorTool(door, connection, name, args, session);
  } catch (error) {
    return errorResult(error);
  }
}
