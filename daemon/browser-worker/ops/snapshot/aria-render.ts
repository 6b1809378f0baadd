// Renders Playwright's ariaSnapshotJSON({ mode: "ai" }) tree as compact text
// for an agent: unnamed wrappers (generic, none) are folded into their
// parent, refs are shown as [e12] only on elements worth acting on or
// pointing at, link targets on the same origin are shortened to their path,
// and the value of a password field is never shown. Pure: no browser here.

import { clipAtWord, cutAtWord } from "../clip-text.js";

export interface AriaNode {
  role: string;
  name?: string;
  ref?: string;
  cursor?: string;
  text?: string;
  children?: (string | AriaNode)[];
  url?: string;
  placeholder?: string;
  checked?: boolean | "mixed";
  disabled?: boolean;
  expanded?: boolean;
  active?: boolean;
  invalid?: unknown;
  level?: number;
  pressed?: boolean | "mixed";
  selected?: boolean;
}

export type AriaTree = (string | AriaNode)[];

/** What an agent acts on: shown in --interactive, and always with their refs. */
export const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([
  "button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox", "listbox", "option",
  "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "switch", "slider", "spinbutton", "treeitem", "gridcell",
]);
/** Landmarks and containers an agent may point at (snapshot, read, screenshot of a part): refs shown in full snapshots. */
const POINTABLE_ROLES: ReadonlySet<string> = new Set([
  "heading", "img", "table", "row", "dialog", "alertdialog", "form", "region", "navigation", "main", "article",
  "tabpanel", "iframe", "list", "menu", "menubar", "tablist", "tree", "grid", "banner", "contentinfo", "complementary", "search",
]);
/** Wrappers that say nothing without a name: their children are shown in their place. */
const FOLDED_ROLES: ReadonlySet<string> = new Set(["generic", "none", "presentation", "rowgroup", "group"]);
const CELL_ROLES: ReadonlySet<string> = new Set(["cell", "gridcell", "columnheader", "rowheader"]);
/** Options listed under a select or listbox; the rest are counted (`find` searches them all). */
export const MAX_LISTED_OPTIONS = 25;

export const PASSWORD_MASK = "••••••";
const MAX_URL_CHARS = 120;

export interface RenderOptions {
  interactive: boolean;
  /** The page's URL, to shorten links on its origin. */
  pageUrl: string;
}

/**
 * Replaces, in place, the value shown by any textbox that holds one of the page's password values
 * (every value, when they could not be read), so that no rendering of this tree (now, or as a later
 * diff's baseline) can show it.
 */
export function maskPasswords(tree: AriaTree, passwordValues: ReadonlySet<string> | "all"): AriaTree {
  if (passwordValues !== "all" && passwordValues.size === 0) return tree;
  const walk = (n: string | AriaNode) => {
    if (typeof n === "string") return;
    if ((n.role === "textbox" || n.role === "searchbox") && n.text && (passwordValues === "all" || passwordValues.has(n.text))) n.text = PASSWORD_MASK;
    for (const c of n.children ?? []) walk(c);
  };
  tree.forEach(walk);
  return tree;
}

function isClickable(node: AriaNode): boolean {
  return node.cursor === "pointer";
}

function isInteractive(node: AriaNode): boolean {
  return INTERACTIVE_ROLES.has(node.role) || isClickable(node);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function quoted(text: string): string {
  return `"${oneLine(text).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function shortUrl(url: string, pageUrl: string): string {
  let shown = url;
  try {
    const target = new URL(url, pageUrl);
    const page = new URL(pageUrl);
    if (target.origin === page.origin && target.origin !== "null") shown = `${target.pathname}${target.search}${target.hash}`;
  } catch {
    // not a URL we can parse: shown as it is
  }
  return clipAtWord(shown, MAX_URL_CHARS, "url");
}

function attributes(node: AriaNode): string {
  const out: string[] = [];
  if (node.checked !== undefined) out.push(node.checked === "mixed" ? "checked=mixed" : "checked");
  if (node.disabled) out.push("disabled");
  if (node.expanded) out.push("expanded");
  if (node.selected) out.push("selected");
  if (node.pressed !== undefined) out.push(node.pressed === "mixed" ? "pressed=mixed" : "pressed");
  if (node.level !== undefined) out.push(`level=${node.level}`);
  if (node.invalid) out.push("invalid");
  if (node.active && !FOLDED_ROLES.has(node.role)) out.push("active");
  if (isClickable(node) && !INTERACTIVE_ROLES.has(node.role)) out.push("pointer");
  return out.map((a) => ` [${a}]`).join("");
}

function showsRef(node: AriaNode): boolean {
  return node.ref !== undefined && (isInteractive(node) || POINTABLE_ROLES.has(node.role));
}

/** The text a node shows (its single text child). */
function shownText(node: AriaNode): string | undefined {
  return node.text === undefined ? undefined : oneLine(node.text);
}

/** Text under a node, for an interactive line whose element has no name (a clickable <div>). */
function innerText(node: AriaNode, limit = 80): string {
  const parts: string[] = [];
  const walk = (n: string | AriaNode) => {
    if (parts.join(" ").length > limit) return;
    if (typeof n === "string") parts.push(n);
    else if (n.text !== undefined) parts.push(n.text);
    else for (const c of n.children ?? []) walk(c);
  };
  walk(node);
  return clipAtWord(oneLine(parts.join(" ")), limit);
}

function line(node: AriaNode, depth: number, options: RenderOptions, text: string | undefined): string {
  const name = node.name ? ` ${quoted(node.name)}` : "";
  const placeholder = node.placeholder && node.placeholder !== node.name ? ` [placeholder=${quoted(node.placeholder)}]` : "";
  const ref = showsRef(node) ? ` [${node.ref}]` : "";
  const url = node.url !== undefined && !options.interactive ? ` → ${shortUrl(node.url, options.pageUrl)}` : "";
  return `${"  ".repeat(depth)}- ${node.role}${name}${attributes(node)}${placeholder}${ref}${url}${text ? `: ${text}` : ""}`;
}

function folded(node: AriaNode): boolean {
  return FOLDED_ROLES.has(node.role) && !node.name && !isClickable(node);
}

/** What one level shows: text as strings, unnamed wrappers replaced by their children. */
function shownChildren(tree: AriaTree): AriaTree {
  const out: AriaTree = [];
  const text = (t: string) => {
    const shown = oneLine(t);
    if (shown) out.push(shown);
  };
  for (const child of tree) {
    if (typeof child === "string") text(child);
    else if (child.role === "text") text(child.text ?? "");
    else if (folded(child)) {
      if (child.text !== undefined) text(child.text);
      out.push(...shownChildren(child.children ?? []));
    } else out.push(child);
  }
  return out;
}

/** A label's text beside the field it names (`Email` next to textbox "Email") says nothing new. */
function echoesNeighbour(items: AriaTree, i: number, text: string): boolean {
  return [items[i - 1], items[i + 1]].some((n) => typeof n === "object" && n.name !== undefined && oneLine(n.name).includes(text));
}

/** A table row on one line (`row [e19]: #10000 | paid | link "View" [e25]`) when its cells hold no structure. */
function inlineRow(row: AriaNode, depth: number, options: RenderOptions): string | undefined {
  const cells: string[] = [];
  for (const cell of shownChildren(row.children ?? [])) {
    if (typeof cell === "string" || !CELL_ROLES.has(cell.role)) return undefined;
    const own = cell.name ?? cell.text;
    const parts: string[] = [`${own === undefined ? "" : oneLine(own)}${showsRef(cell) ? ` [${cell.ref}]` : ""}`.trim()];
    for (const item of shownChildren(cell.children ?? [])) {
      if (typeof item === "string") parts.push(item);
      else if (shownChildren(item.children ?? []).length > 0) return undefined;
      else parts.push(line(item, 0, options, shownText(item)).slice(2));
    }
    cells.push(parts.filter(Boolean).join(", "));
  }
  if (cells.length === 0) return undefined;
  return `${"  ".repeat(depth)}- row${attributes(row)}${showsRef(row) ? ` [${row.ref}]` : ""}: ${cells.join(" | ")}`;
}

function renderFull(tree: AriaTree, depth: number, options: RenderOptions, out: string[], optionCap = Infinity): void {
  const items = shownChildren(tree);
  let options_ = 0;
  items.forEach((item, i) => {
    if (typeof item === "string") {
      if (!echoesNeighbour(items, i, item)) out.push(`${"  ".repeat(depth)}- text: ${item}`);
      return;
    }
    if (item.role === "option" && ++options_ > optionCap) {
      if (options_ === optionCap + 1) out.push(`${"  ".repeat(depth)}- option … ${items.filter((n) => typeof n === "object" && n.role === "option").length - optionCap} more`);
      return;
    }
    const row = item.role === "row" ? inlineRow(item, depth, options) : undefined;
    if (row !== undefined) {
      out.push(row);
      return;
    }
    const value = item.role === "combobox" ? selectedOptions(item) ?? shownText(item) : shownText(item);
    out.push(line(item, depth, options, value));
    const cap = item.role === "combobox" || item.role === "listbox" ? MAX_LISTED_OPTIONS : Infinity;
    renderFull(item.children ?? [], depth + 1, options, out, cap);
  });
}

/** The selected options of a combobox (a <select>), as its shown value. */
function selectedOptions(node: AriaNode): string | undefined {
  const names: string[] = [];
  const walk = (n: string | AriaNode) => {
    if (typeof n === "string") return;
    if (n.role === "option" && n.selected && n.name) names.push(n.name);
    for (const c of n.children ?? []) walk(c);
  };
  walk(node);
  return names.length > 0 ? oneLine(names.join(", ")) : undefined;
}

/** Where an element sits, for telling apart elements that read the same: its row's first cell, or its list item. */
const CONTEXT_ROLES: ReadonlySet<string> = new Set(["row", "listitem", "article", "dialog", "region", "form"]);

function contextOf(node: AriaNode): string | undefined {
  const first = node.role === "row" ? shownChildren(node.children ?? []).find((c) => typeof c !== "string") : undefined;
  const text = node.name ?? (typeof first === "object" ? first.name ?? first.text : undefined) ?? innerText(node, 40);
  return text ? `${node.role} "${cutAtWord(oneLine(text), 40)}"` : undefined;
}

interface InteractiveLine {
  line: string;
  context: string | undefined;
}

function collectInteractive(tree: AriaTree, options: RenderOptions, out: InteractiveLine[], context: string | undefined, inSelect = false): void {
  for (const child of tree) {
    if (typeof child === "string") continue;
    if (isInteractive(child) && child.ref !== undefined && !(inSelect && child.role === "option")) {
      const text = child.role === "combobox" ? selectedOptions(child) ?? shownText(child)
        : child.name ? shownText(child) : shownText(child) ?? (innerText(child) || undefined);
      out.push({ line: line(child, 0, options, text), context });
    }
    const inner = CONTEXT_ROLES.has(child.role) ? contextOf(child) ?? context : context;
    collectInteractive(child.children ?? [], options, out, inner, inSelect || child.role === "combobox");
  }
}

/** One line per element an agent can act on; lines that would read the same say where each is. */
function renderInteractive(tree: AriaTree, options: RenderOptions, out: string[]): void {
  const lines: InteractiveLine[] = [];
  collectInteractive(tree, options, lines, undefined);
  const bare = (l: string) => l.replace(/ \[(f\d+)?e\d+\]/, "");
  // Per reading, the places it occurs in: a place is worth saying only where it tells the lines apart.
  const places = new Map<string, Set<string | undefined>>();
  for (const l of lines) places.set(bare(l.line), (places.get(bare(l.line)) ?? new Set()).add(l.context));
  for (const l of lines) out.push(places.get(bare(l.line))!.size > 1 && l.context ? `${l.line} (in ${l.context})` : l.line);
}

/** The tree as lines of text: the whole tree, or only what an agent can act on. */
export function renderTree(tree: AriaTree, options: RenderOptions): string[] {
  const out: string[] = [];
  if (options.interactive) renderInteractive(tree, options, out);
  else renderFull(tree, 0, options, out);
  return out;
}

/** Every ref in the tree: what actions accept until the next snapshot (shown or not). */
export function collectRefs(tree: AriaTree): Set<string> {
  const refs = new Set<string>();
  const walk = (n: string | AriaNode) => {
    if (typeof n === "string") return;
    if (n.ref !== undefined) refs.add(n.ref);
    for (const c of n.children ?? []) walk(c);
  };
  tree.forEach(walk);
  return refs;
}

/** The node of a ref, for describing what an action reached. */
export function findRef(tree: AriaTree, ref: string): AriaNode | undefined {
  for (const n of tree) {
    if (typeof n === "string") continue;
    if (n.ref === ref) return n;
    const found = findRef(n.children ?? [], ref);
    if (found) return found;
  }
  return undefined;
}

/** `button "Sign in"`: an element's role and accessible name. */
export function describeRole(node: { role: string; name?: string | undefined }): string {
  return `${node.role}${node.name ? ` ${quoted(node.name)}` : ""}`;
}

/** `button "Sign in" [e12]`: how results name a ref's element. */
export function describeNode(node: AriaNode): string {
  return `${describeRole(node)} [${node.ref}]`;
}
