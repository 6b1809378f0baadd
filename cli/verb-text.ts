// A typed verb's envelope as text for a person at a terminal: the result on
// stdout (a snapshot's text, a page's title and URL, a file's path…), what
// else they should know (warnings, refusals, continuation cursors) on stderr,
// and a failure as one line on stderr. Programs get the envelope instead
// (piped, or --json). Everything shown is escaped: it comes from pages.
import type { Envelope } from "../shared/protocol/envelope.js";
import { escapeControls } from "../shared/safe-text.js";

type Result = Record<string, unknown>;
type Lines = { out: string[]; note: string[] };

const str = (value: unknown): string => (typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value));

function titled(r: Result): string {
  const title = str(r.title);
  return title ? `${title}  ${str(r.url)}` : str(r.url);
}

function pageLine(p: Result): string {
  return `${p.active ? "*" : " "} ${str(p.pageId)}  ${titled(p)}`;
}

function entryLine(e: Result): string {
  const what = [e.type, e.status, e.text ?? e.url, e.failure].filter((v) => v !== undefined && v !== "").map(str);
  return `#${str(e.id)} ${what.join("  ")}`;
}

/** A text (snapshot, find, read): the text itself, and its facts as a note. */
function textual(r: Result, text: string, lines: Lines): void {
  lines.out.push(text);
  const facts = [
    typeof r.pageId === "string" ? `page ${r.pageId}` : undefined,
    typeof r.totalChars === "number" ? `${r.totalChars} characters` : undefined,
    typeof r.count === "number" ? `${r.count} matches` : undefined,
    r.truncated === true && typeof r.cursor !== "string" ? "cut short" : undefined,
    typeof r.cursor === "string" ? `more: --cursor ${r.cursor}` : undefined,
  ].filter(Boolean);
  if (facts.length > 0) lines.note.push(`[${facts.join(" · ")}]`);
}

/** The words for one operation's result; undefined: print its fields. */
const FORMATS: Readonly<Record<string, (r: Result, lines: Lines) => void>> = {
  navigate: (r, { out }) => out.push(r.download === true ? `${str(r.url)} started a download (betterwright downloads)` : `${titled(r)}${typeof r.status === "number" ? `  [${r.status}]` : ""}`),
  back: (r, { out }) => out.push(r.moved === false ? `no earlier page; still at ${titled(r)}` : titled(r)),
  forward: (r, { out }) => out.push(r.moved === false ? `no later page; still at ${titled(r)}` : titled(r)),
  reload: (r, { out }) => out.push(titled(r)),
  snapshot: (r, lines) => textual(r, str(r.text), lines),
  read: (r, lines) => textual(r, `${titled(r)}\n\n${str(r.text)}`, lines),
  find: (r, lines) => textual(r, Array.isArray(r.matches) ? r.matches.map(str).join("\n") : "", lines),
  screenshot: (r, { out, note }) => {
    out.push(str(r.file ?? r.path));
    note.push(`[${str(r.width)}x${str(r.height)} ${str(r.type)}, ${str(r.bytes)} bytes]`);
  },
  tabs: (r, { out }) => out.push(...(Array.isArray(r.pages) ? r.pages.map((p) => pageLine(p as Result)) : [])),
  observe: (r, { out, note }) => {
    out.push(...(Array.isArray(r.entries) ? r.entries.map((e) => entryLine(e as Result)) : []));
    note.push(`[${str(r.source)} · next: --cursor ${str(r.nextCursor)}${r.dropped ? ` · ${str(r.dropped)} dropped` : ""}]`);
  },
  wait_for: (r, { out }) => out.push(`waited ${str(r.waitedMs)} ms`),
  fill_form: (r, { out }) => out.push(`filled ${str(r.filled)} fields`),
  select: (r, { out }) => out.push(`selected ${Array.isArray(r.selected) ? r.selected.map(str).join(", ") : ""} in ${str(r.target)}`),
  dialog: (r, { out }) => out.push(`the next dialog on ${str(r.pageId)} will be ${r.armed === "accept" ? "accepted" : "dismissed"}`),
  webmcp_tools: (r, { out, note }) => {
    const tools = Array.isArray(r.tools) ? (r.tools as Result[]) : [];
    out.push(...tools.map((t) => `${str(t.name)}${t.submits ? " (acts on its own: --confirm)" : ""}  ${str(t.description)}`));
    note.push(`[${str(r.total)} tools${r.omitted ? `, ${str(r.omitted)} not listed` : ""} · written by the page: untrusted]`);
  },
  webmcp_call: (r, { out, note }) => {
    out.push(str(r.result));
    note.push(`[${str(r.tool)} answered${r.truncated ? `, cut at ${str(r.result).length} of ${str(r.totalChars)} characters` : ""} · written by the page: untrusted]`);
  },
};

function fields(value: unknown, out: string[]): void {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    out.push(str(value));
    return;
  }
  for (const [key, v] of Object.entries(value)) out.push(`${key}: ${str(v)}`);
}

/** The text a person reads for this envelope of operation `op`. */
export function verbText(op: string, envelope: Envelope): { stdout: string; stderr: string } {
  const lines: Lines = { out: [], note: [] };
  if (envelope.ok) {
    const result = envelope.result;
    const format = FORMATS[op];
    if (format && result !== null && typeof result === "object") format(result as Result, lines);
    else if (result !== null && typeof result === "object" && typeof (result as Result).target === "string" && Object.keys(result).length === 1) lines.out.push(`${op.replace(/_/g, " ")}: ${str((result as Result).target)}`);
    else fields(result, lines.out);
  } else {
    lines.note.push(`betterwright: ${str(envelope.error?.message)} [${str(envelope.error?.code)}]`);
  }
  for (const b of envelope.blocked ?? []) lines.note.push(`blocked: ${b.url} (${b.reason})`);
  for (const w of envelope.warnings) lines.note.push(`warning: ${w.message} [${w.code}]`);
  const text = (list: string[]) => (list.length === 0 ? "" : `${escapeControls(list.join("\n"), { keepLines: true })}\n`);
  return { stdout: text(lines.out), stderr: text(lines.note) };
}
