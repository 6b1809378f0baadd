// An envelope as an MCP tool result, written for a model to read: a
// snapshot's or a page's text plainly (refs intact), other results as compact
// JSON, then one line each for what else happened (warnings, blocked requests,
// console, pages). Images are attached by the caller (screenshots). Pure.
import type { Envelope } from "../../../shared/protocol/envelope.js";
import { errorResult } from "./errors.js";

export type Content =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string };

export interface CallResult {
  content: Content[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const MAX_CONSOLE_LINES = 20;
const MAX_LINE_CHARS = 500;

const clip = (text: string, max = MAX_LINE_CHARS) => (text.length > max ? `${text.slice(0, max)}…` : text);
const json = (value: unknown) => JSON.stringify(value) ?? "undefined";

type Fields = Record<string, unknown>;

function asFields(value: unknown): Fields | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
}

/** The result's own text: plain for snapshot, find and read, JSON otherwise. */
export function resultText(tool: string, result: unknown): string {
  const r = asFields(result);
  if (tool === "snapshot" && r && typeof r.text === "string") {
    const facts = [`page ${String(r.pageId)}`, String(r.url), `${String(r.refs)} refs`];
    if (typeof r.cursor === "string") facts.push(`${String(r.totalChars)} characters in all, more: call snapshot with cursor "${r.cursor}"`);
    const diff = asFields(r.diff);
    // `baseline` says a previous snapshot was there to diff against; without one the text is all of it.
    if (diff) facts.push(diff.baseline ? `diff: ${String(diff.added)} added, ${String(diff.removed)} removed` : `all of it: ${String(diff.reason ?? "no previous snapshot")}`);
    return `${r.text}\n[${facts.join(" · ")}]`;
  }
  if (tool === "find" && r && Array.isArray(r.matches)) {
    return `${r.matches.join("\n")}\n[${String(r.count)} matches${r.truncated ? ", more than shown" : ""} · page ${String(r.pageId)}]`;
  }
  if (tool === "read" && r && typeof r.text === "string") {
    return `${String(r.title)} — ${String(r.url)}\n\n${r.text}${r.truncated ? `\n[cut at ${r.text.length} of ${String(r.totalChars)} characters: pass a larger maxChars, or a target]` : ""}`;
  }
  return json(result);
}

/** One line each for what else the run reports. */
export function envelopeNotes(envelope: Envelope, withPages: boolean): string[] {
  const notes: string[] = [];
  if (envelope.truncated) notes.push(`result cut: its start is above; the whole of it is in ${String(envelope.fullOutputPath)}`);
  for (const w of envelope.warnings) notes.push(`warning ${w.code}: ${clip(w.message)}`);
  for (const b of envelope.blocked ?? []) notes.push(`blocked (${b.layer}) ${clip(b.url, 200)}: ${b.reason}`);
  for (const d of envelope.downloads ?? []) notes.push(`download ${d.status}: ${clip(d.suggestedFilename, 100)}${d.path ? ` → ${d.path}` : ""}${d.reason ? ` (${d.reason})` : ""}`);
  const console = envelope.console.slice(0, MAX_CONSOLE_LINES);
  for (const c of console) notes.push(`console.${c.type} (${c.source}): ${clip(c.text)}`);
  if (envelope.console.length > console.length) notes.push(`… ${envelope.console.length - console.length} more console lines`);
  for (const a of envelope.artifacts) notes.push(`${a.kind}: ${a.path} (${a.bytes} bytes)`);
  if (withPages) {
    for (const p of envelope.pages) notes.push(`${p.active ? "*" : " "} ${p.pageId} ${clip(p.url, 200)} — ${clip(p.title, 200)}`);
  }
  return notes;
}

// Results that already say where the page is need no page list; the rest
// end with it, so a model sees where an action left it.
const SAYS_WHERE = new Set(["snapshot", "find", "read", "tabs", "navigate", "back", "forward", "reload"]);

/** The tool result of an envelope: its error (with the code and next step), or its result and notes. */
export function envelopeResult(tool: string, envelope: Envelope, page: (text: string) => string = (text) => text): CallResult {
  if (!envelope.ok) {
    const failed = errorResult(envelope.error ?? { code: "INTERNAL_ERROR", message: "the run failed without an error", retryable: false });
    const notes = envelopeNotes(envelope, false);
    if (notes.length > 0) failed.content.push({ type: "text", text: notes.join("\n") });
    return failed;
  }
  const body = envelope.truncated ? String(envelope.preview ?? "") : page(resultText(tool, envelope.result));
  const notes = envelopeNotes(envelope, !SAYS_WHERE.has(tool));
  return { content: [{ type: "text", text: notes.length > 0 ? `${body}\n\n${notes.join("\n")}` : body }] };
}
