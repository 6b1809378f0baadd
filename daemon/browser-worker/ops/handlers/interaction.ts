// click, hover, focus, scroll_into_view, type, fill, fill_form, select,
// check, uncheck, press, scroll, drag, upload. Every target is resolved first
// (a stale ref or an ambiguous locator fails before anything is done), and
// every Playwright wait is bounded by what is left of the budget.
import type { Page } from "playwright-core";
import { BwError } from "../../../../shared/protocol/errors.js";
import { Ops, type ActionResult, type ArgsOf, type Target } from "../../../../shared/protocol/operations/index.js";
import type { OperationCall } from "../op-context.js";
import { mapErrors, opError } from "../op-errors.js";
import { actionDone, actionPerformed, interceptingElement, isTimeout } from "../../playwright-errors.js";
import { handle } from "../handler.js";
import { checkable } from "../checkable.js";
import { pointerDrag } from "../pointer-drag.js";
import { isPasswordField, resolveElement, resolveTarget, type Actionable, type Resolved } from "../targets.js";

type Element = Exclude<Resolved, { kind: "point" }>;

function activePage(ctx: OperationCall): Page {
  return ctx.pages.get(ctx.pages.active());
}

function budget(ctx: OperationCall): { timeout: number } {
  return { timeout: ctx.run.remainingMs() };
}

/** Runs `action` on a resolved element, its failures mapped (its element gone: STALE_REF for a ref). */
async function on(resolved: Element, action: (element: Actionable) => Promise<unknown>): Promise<ActionResult> {
  await mapErrors({ target: resolved.describe, ref: resolved.kind === "element" }, () => action(resolved.element));
  return { target: resolved.describe };
}

/**
 * A pointer action (click, hover, check) tried first within the short element wait, so that a target another
 * element covers fails then as ELEMENT_OBSCURED, naming the cover. Any other wait (not yet visible, enabled or
 * stable) goes on with the rest of the budget, unless the input was sent already: nothing is ever done twice.
 */
async function pointer(ctx: OperationCall, resolved: Element, act: (element: Actionable, options: { timeout: number }) => Promise<unknown>): Promise<ActionResult> {
  const scope = { target: resolved.describe, ref: resolved.kind === "element" };
  try {
    await act(resolved.element, { timeout: Math.max(1, Math.min(ctx.elementWaitMs, ctx.run.remainingMs())) });
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    if (!isTimeout(error) || interceptingElement(message) !== undefined) throw opError(error, scope);
    // Done, and what ran out was the wait for the navigation it scheduled: the page goes on loading.
    if (actionDone(message)) return { target: resolved.describe };
    if (actionPerformed(message)) throw opError(error, scope);
    await mapErrors(scope, () => act(resolved.element, budget(ctx)));
  }
  return { target: resolved.describe };
}

/** check or uncheck where a person would click for it; the result names the target as given. */
async function checkOrUncheck(ctx: OperationCall, resolved: Element, checked: boolean): Promise<ActionResult> {
  await pointer(ctx, await checkable(ctx, resolved), (el, timeout) => (checked ? el.check(timeout) : el.uncheck(timeout)));
  return { target: resolved.describe };
}

async function onTarget(ctx: OperationCall, target: Target, action: (element: Actionable) => Promise<unknown>): Promise<ActionResult> {
  return on(await resolveElement(ctx, target), action);
}

/** The middle of what a target names, in viewport pixels (an element is scrolled into view first). */
async function pointOf(ctx: OperationCall, resolved: Resolved): Promise<{ x: number; y: number }> {
  if (resolved.kind === "point") return resolved;
  const box = await mapErrors({ target: resolved.describe, ref: resolved.kind === "element" }, async () => {
    await resolved.element.scrollIntoViewIfNeeded(budget(ctx));
    return resolved.element.boundingBox(budget(ctx));
  });
  if (!box) throw new BwError("OPERATION_FAILED", `${resolved.describe} is not visible`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Marks `path` secret when the element it goes into is a password field. */
async function secretIf(ctx: OperationCall, resolved: Element, path: string): Promise<void> {
  if (await isPasswordField(resolved)) ctx.secretArg(path);
}

/** Whether the focused element of the page is a password field. */
function focusedIsPassword(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const active = (globalThis as { document?: { activeElement?: { tagName?: string; type?: unknown } | null } }).document?.activeElement;
    return active?.tagName === "INPUT" && String(active.type).toLowerCase() === "password";
  }).catch(() => true);
}

/** A click on a target (an element or a point), as `click` and `action_and_wait` do it. */
export async function click(ctx: OperationCall, args: ArgsOf<typeof Ops.click.args>): Promise<ActionResult> {
  const resolved = await resolveTarget(ctx, args.target, { point: true });
  const options = { ...budget(ctx), ...(args.button ? { button: args.button as "left" } : {}), ...(args.modifiers ? { modifiers: args.modifiers as "Alt"[] } : {}) };
  if (resolved.kind === "point") {
    const page = activePage(ctx);
    for (const m of args.modifiers ?? []) await page.keyboard.down(m);
    try {
      await page.mouse.click(resolved.x, resolved.y, { ...(args.button ? { button: args.button as "left" } : {}), clickCount: args.double ? 2 : 1 });
    } finally {
      for (const m of [...(args.modifiers ?? [])].reverse()) await page.keyboard.up(m);
    }
    return { target: resolved.describe };
  }
  return pointer(ctx, resolved, (el, timeout) => (args.double ? el.dblclick({ ...options, ...timeout }) : el.click({ ...options, ...timeout })));
}

/** A key press on a target, or on whatever has the focus. */
export async function press(ctx: OperationCall, args: ArgsOf<typeof Ops.press.args>): Promise<ActionResult> {
  if (args.target !== undefined) return onTarget(ctx, args.target, (el) => el.press(args.key, budget(ctx)));
  await mapErrors({ target: "the focused element" }, () => activePage(ctx).keyboard.press(args.key));
  return { target: "the focused element" };
}

export const interactionHandlers = [
  handle(Ops.click, click),
  handle(Ops.hover, async (ctx, args) => {
    const resolved = await resolveTarget(ctx, args.target, { point: true });
    if (resolved.kind !== "point") return pointer(ctx, resolved, (el, timeout) => el.hover(timeout));
    await activePage(ctx).mouse.move(resolved.x, resolved.y);
    return { target: resolved.describe };
  }),
  handle(Ops.focus, (ctx, args) => onTarget(ctx, args.target, (el) => el.focus(budget(ctx)))),
  handle(Ops.scrollIntoView, (ctx, args) => onTarget(ctx, args.target, (el) => el.scrollIntoViewIfNeeded(budget(ctx)))),
  handle(Ops.type, async (ctx, args) => {
    const page = activePage(ctx);
    const submit = async (el?: Actionable) => { if (args.submit) await (el ? el.press("Enter", budget(ctx)) : page.keyboard.press("Enter")); };
    if (args.target === undefined) {
      if (await focusedIsPassword(page)) ctx.secretArg("text");
      await mapErrors({ target: "the focused element" }, async () => { await page.keyboard.type(args.text); await submit(); });
      return { target: "the focused element" };
    }
    const resolved = await resolveElement(ctx, args.target);
    await secretIf(ctx, resolved, "text");
    return on(resolved, async (el) => {
      await el.focus(budget(ctx));
      await page.keyboard.type(args.text);
      await submit(el);
    });
  }),
  handle(Ops.fill, async (ctx, args) => {
    const resolved = await resolveElement(ctx, args.target);
    await secretIf(ctx, resolved, "value");
    return on(resolved, (el) => el.fill(args.value, budget(ctx)));
  }),
  handle(Ops.fillForm, async (ctx, args) => {
    // Every field is resolved before the first is touched: a stale ref or an ambiguous locator changes nothing.
    const fields = [];
    for (const field of args.fields) fields.push({ field, resolved: await resolveElement(ctx, field.target) });
    for (const [i, { field, resolved }] of fields.entries()) {
      if (typeof field.value === "boolean") {
        const checked = field.value;
        await checkOrUncheck(ctx, resolved, checked);
      } else {
        const value = field.value;
        await secretIf(ctx, resolved, `fields.${i}.value`);
        await on(resolved, (el) => el.fill(value, budget(ctx)));
      }
    }
    return { filled: fields.length };
  }),
  handle(Ops.select, async (ctx, args) => {
    const resolved = await resolveElement(ctx, args.target);
    let selected: string[] = [];
    await on(resolved, async (el) => { selected = await el.selectOption(args.values, budget(ctx)); });
    return { target: resolved.describe, selected };
  }),
  handle(Ops.check, async (ctx, args) => checkOrUncheck(ctx, await resolveElement(ctx, args.target), true)),
  handle(Ops.uncheck, async (ctx, args) => checkOrUncheck(ctx, await resolveElement(ctx, args.target), false)),
  handle(Ops.press, press),
  handle(Ops.scroll, async (ctx, args) => {
    const page = activePage(ctx);
    const resolved = args.target === undefined ? undefined : await resolveTarget(ctx, args.target, { point: true });
    if (resolved) {
      const { x, y } = await pointOf(ctx, resolved);
      await page.mouse.move(x, y);
    }
    const dy = args.dy ?? (args.dx === undefined ? Math.round((page.viewportSize()?.height ?? 720) * 0.8) : 0);
    await mapErrors({ target: "scroll" }, () => page.mouse.wheel(args.dx ?? 0, dy));
    return { target: resolved?.describe ?? "the page" };
  }),
  handle(Ops.drag, async (ctx, args) => {
    const source = await resolveTarget(ctx, args.source, { point: true });
    const target = await resolveTarget(ctx, args.target, { point: true });
    const page = activePage(ctx);
    const from = await pointOf(ctx, source);
    const to = await pointOf(ctx, target);
    await mapErrors({ target: "drag" }, () => pointerDrag(page.mouse, from, to));
    return { target: `${source.describe} → ${target.describe}` };
  }),
  handle(Ops.upload, async (ctx, args) => {
    const [files] = ctx.fileArgs("locator", "setInputFiles", [args.files]) as [string[]];
    return onTarget(ctx, args.target, (el) => el.setInputFiles(files, budget(ctx)));
  }),
];
