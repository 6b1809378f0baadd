// Taking a snapshot of the active page (or of one element's subtree): the
// ai-mode tree from Playwright, the page's password values to mask, and the
// records that make refs safe: the session's latest snapshot becomes this one,
// bound to this page and this document (and to each frame it reached into).
import type { ElementHandle, Locator, Page } from "playwright-core";
import type { OperationCall } from "../op-context.js";
import { mapErrors } from "../op-errors.js";
import type { PageEntry } from "../page-state.js";
import { collectRefs, maskPasswords, renderTree, type AriaTree } from "./aria-render.js";
import { lendRefs } from "./lent-refs.js";
import { documentAndPasswords, passwordsAfter } from "./password-values.js";

export interface Capture {
  pageId: string;
  entry: PageEntry;
  /** With the page's password values masked. */
  tree: AriaTree;
  document: number;
}

/**
 * The first ref of each child frame the tree reached into, by the frame's prefix (f2). Only refs under an
 * iframe are a child frame's: the main frame's refs carry a prefix too once its page has shown a second
 * document, and they need no mark (the document check covers them). Pure.
 */
export function childFrameRefs(tree: AriaTree, inFrame = false, firstOf = new Map<string, string>()): Map<string, string> {
  for (const node of tree) {
    if (typeof node === "string") continue;
    const prefix = inFrame && node.ref !== undefined ? /^(f\d+)e/.exec(node.ref)?.[1] : undefined;
    if (prefix !== undefined && !firstOf.has(prefix)) firstOf.set(prefix, node.ref!);
    childFrameRefs(node.children ?? [], inFrame || node.role === "iframe", firstOf);
  }
  return firstOf;
}

/** One element of each child frame the tree reached into, held so that the frame's navigation is noticed. */
async function frameMarks(page: Page, firstOf: ReadonlyMap<string, string>): Promise<Map<string, ElementHandle>> {
  const marks = new Map<string, ElementHandle>();
  await Promise.all([...firstOf].map(async ([prefix, ref]) => {
    const handles = await page.getByRef(ref).elementHandles().catch(() => [] as ElementHandle[]);
    if (handles.length === 1) marks.set(prefix, handles[0]!);
    else for (const h of handles) void h.dispose().catch(() => {});
  }));
  return marks;
}

/** Captures the tree and makes it the session's latest snapshot (the one whose refs actions accept). */
export async function capture(ctx: OperationCall, options: { root?: Locator; depth?: number | undefined }): Promise<Capture> {
  const pageId = ctx.pages.active();
  const entry = ctx.state.entry(pageId);
  const page = entry.page;
  const timeout = ctx.run.remainingMs();
  // Password values are read before and after the capture, so that one set or cleared while it ran is masked too.
  const { document, values } = await mapErrors({}, () => documentAndPasswords(ctx, pageId, page, entry.document));
  const aria = { mode: "ai" as const, timeout, ...(options.depth === undefined ? {} : { depth: options.depth }) };
  const raw = await mapErrors({ target: "snapshot" }, () => (options.root ? options.root.ariaSnapshotJSON(aria) : page.ariaSnapshotJSON(aria))) as AriaTree;
  const framed = childFrameRefs(raw);
  const [masked, frames] = await Promise.all([passwordsAfter(page, entry.document, document, raw, values), frameMarks(page, framed)]);
  const tree = lendRefs(maskPasswords(raw, masked));
  ctx.run.assertLive();
  ctx.state.bind({ pageId, document, refs: collectRefs(tree), tree, framed: new Set(framed.keys()), frames });
  return { pageId, entry, tree, document };
}

/** The capture as lines of text. */
export function render(c: Capture, interactive: boolean, tree: AriaTree = c.tree): string[] {
  return renderTree(tree, { interactive, pageUrl: c.entry.page.url() });
}
