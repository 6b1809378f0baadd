// dialog and action_and_wait: what a page does in answer to an action. The
// waiter is set before the action, and both share what is left of the budget.
import type { Dialog, Page } from "playwright-core";
import { BwError } from "../../../../shared/protocol/errors.js";
import { Ops, type ActionAndWaitResult, type ActionResult, type ArgsOf } from "../../../../shared/protocol/operations/index.js";
import type { OperationCall } from "../op-context.js";
import { mapErrors } from "../op-errors.js";
import { handle } from "../handler.js";
import { safeUrl } from "../observe/safe-url.js";
import { answerDialog } from "../page-state.js";
import { urlMatcher } from "../url-glob.js";
import { click, press } from "./interaction.js";

type Args = ArgsOf<typeof Ops.actionAndWait.args>;
type Event = Omit<ActionAndWaitResult, "target">;

/** The page's next dialog, answered as asked, or a timeout; `cancel` takes the waiter back. */
function nextDialog(ctx: OperationCall, pageId: string, args: Args, timeout: number): { event: Promise<Event>; cancel(): void } {
  const waiters = ctx.state.entry(pageId).dialogWaiters;
  let waiter!: (dialog: Dialog) => void;
  let timer: NodeJS.Timeout | undefined;
  const event = new Promise<Event>((resolve, reject) => {
    waiter = (dialog) => {
      clearTimeout(timer);
      void answerDialog(dialog, { action: args.dialog === "accept" ? "accept" : "dismiss", promptText: args.promptText }).catch(() => {});
      resolve({ event: "dialog", type: dialog.type(), message: dialog.message().slice(0, 2_000) });
    };
    timer = setTimeout(() => reject(new BwError("SNIPPET_TIMEOUT", "no dialog appeared within the operation's budget")), timeout);
    waiters.push(waiter);
  });
  const cancel = () => {
    clearTimeout(timer);
    const i = waiters.indexOf(waiter);
    if (i !== -1) waiters.splice(i, 1);
  };
  return { event, cancel };
}

/** The page id the session's registry gave a popup. */
function pageIdOf(ctx: OperationCall, popup: Page): string | undefined {
  return ctx.pages.infos().find((info) => ctx.pages.get(info.pageId) === popup)?.pageId;
}

function waiterFor(ctx: OperationCall, page: Page, pageId: string, args: Args, timeout: number): { event: Promise<Event>; cancel(): void } {
  const matches = args.url === undefined ? () => true : urlMatcher(args.url);
  const scope = { target: `waiting for a ${args.waitFor}` };
  switch (args.waitFor) {
    case "dialog":
      return nextDialog(ctx, pageId, args, timeout);
    case "navigation":
      return { cancel: () => {}, event: mapErrors(scope, async () => {
        await page.waitForEvent("framenavigated", { predicate: (frame) => frame === page.mainFrame() && matches(frame.url()), timeout });
        await page.waitForLoadState("domcontentloaded", { timeout: ctx.run.remainingMs() }).catch(() => {});
        return { event: "navigation" as const, url: page.url(), title: await page.title().catch(() => "") };
      }) };
    case "response":
      return { cancel: () => {}, event: mapErrors(scope, async () => {
        const response = await page.waitForResponse((r) => matches(r.url()), { timeout });
        return { event: "response" as const, url: safeUrl(response.url()), status: response.status() };
      }) };
    default:
      return { cancel: () => {}, event: mapErrors(scope, async () => {
        const popup = await page.waitForEvent("popup", { timeout });
        await popup.waitForLoadState("domcontentloaded", { timeout: ctx.run.remainingMs() }).catch(() => {});
        return { event: "popup" as const, url: popup.url(), ...(pageIdOf(ctx, popup) ? { pageId: pageIdOf(ctx, popup)! } : {}) };
      }) };
  }
}

export const waitHandlers = [
  handle(Ops.dialog, async (ctx, args) => {
    const pageId = ctx.pages.active();
    ctx.state.entry(pageId).armedDialog = { action: args.action as "accept", promptText: args.promptText };
    return { pageId, armed: args.action as "accept" };
  }),
  handle(Ops.actionAndWait, async (ctx, args) => {
    const pageId = ctx.pages.active();
    const page = ctx.pages.get(pageId);
    const waiter = waiterFor(ctx, page, pageId, args, ctx.run.remainingMs());
    // A failed action leaves the waiter to its timeout: its rejection is nobody's.
    waiter.event.catch(() => {});
    let acted: ActionResult;
    try {
      acted = args.key !== undefined ? await press(ctx, { key: args.key, ...(args.target ? { target: args.target } : {}) }) : await click(ctx, { target: args.target! });
    } catch (error) {
      waiter.cancel();
      throw error;
    }
    return { ...(await waiter.event), target: acted.target };
  }),
];
