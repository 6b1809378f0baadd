// Untrusted text (page titles, error messages, usernames a snippet chose…) on
// its way to a person's terminal or a file they may `cat`. Invariant: what
// leaves holds no C0 control (but the line breaks a caller keeps), no DEL, no
// C1 control, no U+2028/U+2029 and no bidirectional or invisible formatting
// control, so it cannot drive the terminal, forge a line, end a line where a
// viewer would, or show its characters in another order than they are. Every
// escape is also a valid JSON string escape, so the same function keeps JSON
// text valid and equal in value.

/**
 * The bidirectional formatting controls (ALM U+061C, LRM U+200E, RLM U+200F,
 * the embeddings and overrides U+202A-U+202E, the isolates U+2066-U+2069): a
 * title holding U+202E shows what follows it reversed.
 */
const BIDI_CONTROLS = String.raw`\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069`;
/** One character that is escaped: C0, DEL, C1, one of the two Unicode line separators or a bidi control. */
export const UNSAFE_CHAR = new RegExp(String.raw`[\u0000-\u001f\u007f-\u009f\u2028\u2029${BIDI_CONTROLS}]`);
const UNSAFE_CHARS = new RegExp(UNSAFE_CHAR.source, "g");
/** The same, keeping tab and line feed for text shown over several lines. */
const UNSAFE_CHARS_KEEPING_LINES = new RegExp(String.raw`[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029${BIDI_CONTROLS}]`, "g");

const SHORT_ESCAPES: Readonly<Record<string, string>> = { "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r" };

function escapeChar(char: string): string {
  return SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

export interface EscapeOptions {
  /** Keep line feeds and tabs (text shown over several lines, pretty JSON). */
  keepLines?: boolean;
}

/** `text` with every unsafe character written as a JSON-style escape (`\u009b`, `\n`…). Linear in its length. */
export function escapeControls(text: string, options: EscapeOptions = {}): string {
  // replace() with a global pattern starts from 0 and leaves lastIndex at 0: nothing carries between calls.
  return text.replace(options.keepLines ? UNSAFE_CHARS_KEEPING_LINES : UNSAFE_CHARS, escapeChar);
}

/**
 * JSON text of `value` that parses to the same value but carries no raw C1,
 * DEL, U+2028, U+2029 or bidi control (JSON.stringify leaves them raw; it
 * escapes C0 itself).
 */
export function safeJson(value: unknown, indent?: number): string {
  return escapeControls(JSON.stringify(value, null, indent) ?? "null", { keepLines: true });
}

/** A template tag for one line of terminal output: every interpolated value is escaped, the literal parts are ours. */
export function safeLine(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += escapeControls(String(values[i])) + strings[i + 1]!;
  return out;
}

// eslint-disable-next-line no-control-regex
const ANSI_COLOURS = /\u001b\[[0-9;]*m/g;

/** `text` without the ANSI colour codes Playwright puts in its call logs (they are noise anywhere but its own terminal). */
export function withoutColours(text: string): string {
  return text.replace(ANSI_COLOURS, "");
}
