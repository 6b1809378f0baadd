// Reading a snapshot as an agent would: the line that mentions something, the
// ref of an element on it, the row (or other element) that holds it, and the
// cursor that continues a cut answer. Written for both servers' snapshot
// text: `- button "Go" [e3]` and `- button "Go" [ref=e3]` (refs of frames and
// later documents carry a prefix, f1e3). Pure.

const REF = /\[(?:ref=)?((?:f\d+)?e\d+)\]/;

const indent = (line: string): number => line.length - line.trimStart().length;

/** The first ref on the line after `label` (the element `label` names), or on the whole line without a label. */
export function refOnLine(line: string, label?: string): string | undefined {
  const at = label === undefined ? 0 : line.indexOf(label);
  if (at < 0) return undefined;
  return REF.exec(line.slice(at + (label?.length ?? 0)))?.[1];
}

/** Whether a line is one of the snapshot's elements (it has a ref) and mentions `needle`; a heading such as `Found 1 match for "x"` is not. */
const mentions = (line: string, needle: string): boolean => line.includes(needle) && REF.test(line);

/** The first element line that mentions `needle`. */
export function lineWith(text: string, needle: string): string | undefined {
  return text.split("\n").find((l) => mentions(l, needle));
}

/** The ref of the element `label` names on the first line that mentions it (`button "Sign in"`). */
export function refOf(text: string, label: string): string {
  const line = lineWith(text, label);
  const ref = line === undefined ? undefined : refOnLine(line, label);
  if (!ref) throw new Error(`no ref for ${label} in a ${text.length}-character snapshot`);
  return ref;
}

/** The index of the `role` line that holds the first mention of `needle`: that line itself, or the nearest less indented one above it. */
function holderIndex(lines: readonly string[], needle: string, role: string): number {
  const at = lines.findIndex((l) => mentions(l, needle));
  if (at < 0) throw new Error(`${needle} is not in a ${lines.join("\n").length}-character snapshot`);
  const isRole = (line: string) => line.trimStart().startsWith(`- ${role} `) || line.trimStart().startsWith(`- ${role}:`);
  let depth = indent(lines[at]!) + 1;
  for (let i = at; i >= 0; i--) {
    const line = lines[i]!;
    if (line.trim() === "" || indent(line) >= depth) continue;
    depth = indent(line);
    if (isRole(line)) return i;
  }
  throw new Error(`no ${role} holds ${needle}`);
}

/**
 * The ref of the `role` element that holds the first mention of `needle`: the
 * mentioning line itself when it is one (a table row on one line), else the
 * nearest line above it, less indented, that is one (a row above its cells).
 */
export function enclosingRef(text: string, needle: string, role: string): string {
  const line = text.split("\n")[holderIndex(text.split("\n"), needle, role)]!;
  const ref = refOnLine(line);
  if (!ref) throw new Error(`the ${role} line has no ref: ${line.trim().slice(0, 120)}`);
  return ref;
}

/**
 * The ref of the element `label` names inside that same `role` element, when
 * the text shows it: on the holder's own line, or on a line of its subtree
 * (an elided stretch, `...`, is skipped). Undefined when the text stops first.
 */
export function refInside(text: string, needle: string, role: string, label: string): string | undefined {
  const lines = text.split("\n");
  const at = holderIndex(lines, needle, role);
  const own = refOnLine(lines[at]!, label);
  if (own) return own;
  const depth = indent(lines[at]!);
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === "" || line.trim() === "...") continue;
    if (indent(line) <= depth) return undefined;
    if (line.includes(label)) return refOnLine(line, label);
  }
  return undefined;
}

/** The cursor a cut snapshot answer names for its next part (`cursor "p1.1.7984"`, `"cursor":"p1.1.7984"`, `cursor: "…"`), if any. */
export function cursorOf(text: string): string | undefined {
  const matches = [...text.matchAll(/\bcursor\b"?\s*[:=]?\s*"([^"\s]+)"/g)];
  return matches[matches.length - 1]?.[1];
}
