// Turns an operation's target into what it acts on. A ref resolves only
// against the session's latest snapshot, on the page and the document that
// snapshot was taken on, and to the one element it named then (an element
// handle: it can never be re-resolved to another element) while that element
// keeps the role and name the snapshot showed; anything else is STALE_REF at
// once. A locator that matches several elements is LOCATOR_AMBIGUOUS before
// anything is done.
import type { ElementHandle, Frame, JSHandle, Locator, Page } from "playwright-core";
import { BwError } from "../../../shared/protocol/errors.js";
import { describeTarget, type Target } from "../../../shared/protocol/operations/index.js";
import type { OperationCall } from "./op-context.js";
import { opError } from "./op-errors.js";
import { alive } from "./page-state.js";
import { isTimeout } from "../playwright-errors.js";
import { safeUrl } from "./observe/safe-url.js";
import { assertSameMeaning, meaningHolds } from "./ref-meaning.js";
import { describeNode, findRef } from "./snapshot/aria-render.js";

/** The parts of Locator and ElementHandle the operations call (both have them). */
export interface Actionable {
  click(options?: object): Promise<void>;
  dblclick(options?: object): Promise<void>;
  hover(options?: object): Promise<void>;
  fill(value: string, options?: object): Promise<void>;
  press(key: string, options?: object): Promise<void>;
  check(options?: object): Promise<void>;
  uncheck(options?: object): Promise<void>;
  focus(options?: object): Promise<void>;
  selectOption(values: string[], options?: object): Promise<string[]>;
  setInputFiles(files: string[], options?: object): Promise<void>;
  scrollIntoViewIfNeeded(options?: object): Promise<void>;
  boundingBox(options?: object): Promise<{ x: number; y: number; width: number; height: number } | null>;
  evaluate<R>(fn: (element: any) => R): Promise<R>;
  evaluateHandle(fn: (element: any) => unknown): Promise<JSHandle>;
}

export type Resolved =
  | { kind: "element"; element: Actionable; locator: Locator; ref: string; describe: string }
  | { kind: "locator"; element: Actionable; locator: Locator; describe: string }
  | { kind: "point"; x: number; y: number; describe: string };

function stale(message: string): BwError {
  return new BwError("STALE_REF", `${message}: take a new snapshot and use its refs`);
}

const FRAME_PREFIX = /^(f\d+)e/;

/** The element a ref named in the session's latest snapshot, if it still stands. */
async function resolveRef(ctx: OperationCall, page: Page, pageId: string, ref: string): Promise<Resolved> {
  const binding = ctx.state.binding;
  if (!binding) throw stale(`${ref}: no snapshot has been taken in this session (or its page closed)`);
  if (binding.pageId !== pageId) throw stale(`${ref} comes from a snapshot of page ${binding.pageId}, but ${pageId} is the active page (tabs select ${binding.pageId} to act there)`);
  if (!binding.refs.has(ref)) throw stale(`${ref} is not in the latest snapshot of page ${pageId}`);
  const node = findRef(binding.tree, ref);
  // Asked alongside the checks and the lookup below, so that it adds no round trip of its own when the answer is yes.
  const early = node ? meaningHolds(page, ref, node) : undefined;
  if (!(await ctx.state.entry(pageId).document.still(binding.document))) throw stale(`page ${pageId} has navigated to another document since the snapshot ${ref} comes from`);
  const prefix = FRAME_PREFIX.exec(ref)?.[1];
  if (prefix !== undefined && binding.framed.has(prefix)) {
    const mark = binding.frames.get(prefix);
    if (!mark || !(await alive(mark))) throw stale(`the frame of ${ref} has navigated or closed since the snapshot`);
  }
  const locator = page.getByRef(ref);
  let handles: ElementHandle[];
  try {
    handles = await locator.elementHandles();
    if (handles.length === 0) {
      // Another snapshot of this document (a snippet's page.ariaSnapshot()) may have replaced Playwright's map of
      // refs. An element keeps its ref across ai snapshots of one document, so one more gives that ref back to
      // the element that had it, if it is still there, and to no other.
      await page.ariaSnapshotJSON({ mode: "ai", timeout: ctx.run.remainingMs() }).catch(() => undefined);
      handles = await locator.elementHandles();
    }
  } catch (error) {
    throw opError(error, { ref: true, target: ref });
  }
  if (handles.length !== 1) {
    for (const h of handles) void h.dispose().catch(() => {});
    throw stale(`${ref} no longer points at an element of page ${pageId} (it was removed or replaced, or another snapshot was taken since)`);
  }
  const handle = handles[0]!;
  ctx.defer(() => handle.dispose());
  if (node) await assertSameMeaning(page, ref, node, ctx.run.remainingMs(), early);
  return { kind: "element", element: handle as unknown as Actionable, locator, ref, describe: node ? describeNode(node) : ref };
}

/** A Playwright locator for a semantic target; the target's strings are passed as data, never spliced into a selector. */
export function locatorFor(page: Page | Frame, target: Exclude<Target, { ref: string } | { x: number }>): Locator {
  if ("role" in target) {
    const options = { exact: target.exact ?? true, ...(target.name === undefined ? {} : { name: target.name }) };
    return page.getByRole(target.role as Parameters<Page["getByRole"]>[0], options);
  }
  if ("text" in target) return page.getByText(target.text, { exact: target.exact ?? true });
  if ("label" in target) return page.getByLabel(target.label, { exact: target.exact ?? true });
  if ("placeholder" in target) return page.getByPlaceholder(target.placeholder, { exact: target.exact ?? true });
  if ("testId" in target) return page.getByTestId(target.testId);
  return page.locator(target.selector);
}

/** The short element wait, once the page has loaded (a page still loading may yet show the element). */
export async function elementWait(ctx: OperationCall, page: Page): Promise<number> {
  await page.waitForLoadState("load", { timeout: ctx.run.remainingMs() }).catch(() => {});
  return Math.max(1, Math.min(ctx.elementWaitMs, ctx.run.remainingMs()));
}

/**
 * Waits a short while for a locator that matches nothing: until the page has loaded (within the budget), then
 * `elementWaitMs`. Nothing there by then is ELEMENT_NOT_FOUND, rather than the whole budget spent on it.
 */
async function appears(ctx: OperationCall, page: Page, pageId: string, locator: Locator, describe: string): Promise<void> {
  const waitMs = await elementWait(ctx, page);
  try {
    await locator.waitFor({ state: "attached", timeout: waitMs });
  } catch (error) {
    if (!isTimeout(error)) throw opError(error, { target: describe });
    throw new BwError("ELEMENT_NOT_FOUND", `no element matches ${describe} on page ${pageId} (${safeUrl(page.url())}) after ${waitMs} ms; nothing was done: take a snapshot (or find a word of it) to see what the page shows, then use a ref`, { details: { waitedMs: waitMs } });
  }
}

/** The target's matches in the page's frames (open shadow roots are pierced already): the first frame's locator, and how many in all. */
async function inFrames(page: Page, target: Exclude<Target, { ref: string } | { x: number }>): Promise<[Locator, number] | undefined> {
  let found: Locator | undefined;
  let total = 0;
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    const locator = locatorFor(frame, target);
    const count = await locator.count().catch(() => 0);
    if (count > 0 && found === undefined) found = locator;
    total += count;
  }
  return found === undefined ? undefined : [found, total];
}

/** Resolves a target on the session's active page. */
export async function resolveTarget(ctx: OperationCall, target: Target, allow: { point?: boolean } = {}): Promise<Resolved> {
  const pageId = ctx.pages.active();
  const page = ctx.pages.get(pageId);
  if ("ref" in target) return resolveRef(ctx, page, pageId, target.ref);
  const describe = describeTarget(target);
  if ("x" in target) {
    if (!allow.point) throw new BwError("INVALID_ARGUMENT", `args.target: this operation needs an element, not ${describe}`);
    return { kind: "point", x: target.x, y: target.y, describe };
  }
  let locator = locatorFor(page, target);
  let count: number;
  try {
    count = await locator.count();
    // Not in the page's own document: in its frames, as a person sees them (a payment or consent iframe).
    if (count === 0) [locator, count] = (await inFrames(page, target)) ?? [locator, 0];
  } catch (error) {
    throw opError(error, { target: describe });
  }
  // Zero may still appear, within the short element wait; several never act on the first.
  if (count === 0) await appears(ctx, page, pageId, locator, describe);
  if (count > 1) {
    throw new BwError("LOCATOR_AMBIGUOUS", `${describe} matches ${count} elements; make it unique (an exact name, a ref from a snapshot)`, { details: { count } });
  }
  return { kind: "locator", element: locator as unknown as Actionable, locator, describe };
}

/** The target as an element (refusing coordinates). */
export async function resolveElement(ctx: OperationCall, target: Target): Promise<Exclude<Resolved, { kind: "point" }>> {
  const resolved = await resolveTarget(ctx, target);
  if (resolved.kind === "point") throw new BwError("INVALID_ARGUMENT", "args.target: this operation needs an element");
  return resolved;
}

/** Whether the element is a password field (what is typed into it is kept out of the transcript). */
export function isPasswordField(resolved: Exclude<Resolved, { kind: "point" }>): Promise<boolean> {
  // Runs in the page: the DOM is reached through the element itself, not Node's types.
  return resolved.element.evaluate((e) => e.tagName === "INPUT" && String(e.type).toLowerCase() === "password").catch(() => true);
}
