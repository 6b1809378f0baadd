// navigate, back, forward, reload, wait_for.
import type { Page, Response } from "playwright-core";
import { BwError } from "../../../../shared/protocol/errors.js";
import { describeTarget, Ops } from "../../../../shared/protocol/operations/index.js";
import type { HistoryResult, NavigateResult } from "../../../../shared/protocol/operations/index.js";
import { assertNavigable } from "../../facades/facade-dispatch.js";
import type { OperationCall } from "../op-context.js";
import { mapErrors } from "../op-errors.js";
import { isDownloadStarting } from "../../playwright-errors.js";
import { settlingNavigation } from "../../failed-navigation.js";
import { handle } from "../handler.js";
import { urlMatcher } from "../url-glob.js";
import { locatorFor, resolveElement } from "../targets.js";

function activePage(ctx: OperationCall): Page {
  return ctx.pages.get(ctx.pages.active());
}

async function landed(page: Page, response: Response | null): Promise<NavigateResult> {
  return { url: page.url(), title: await page.title().catch(() => ""), status: response?.status() ?? null };
}

/**
 * A navigation of `page` through the guard: a refused one is BLOCKED_URL, one to a name that did not resolve
 * DNS_UNAVAILABLE (the guard reads Playwright's own error, so it looks first), any other NAVIGATION_FAILED.
 * A failure returns once its error page is in (failed-navigation.ts).
 */
function navigation<T>(ctx: OperationCall, page: Page, target: string, action: () => Promise<T>): Promise<T> {
  return mapErrors({ navigation: true, target }, () => ctx.guard(() => settlingNavigation(page.mainFrame(), ctx.run.remainingMs(), action)));
}

async function history(ctx: OperationCall, direction: "back" | "forward"): Promise<HistoryResult> {
  const page = activePage(ctx);
  const before = page.url();
  const timeout = ctx.run.remainingMs();
  const response = await navigation(ctx, page, direction, () => (direction === "back" ? page.goBack({ timeout }) : page.goForward({ timeout })));
  // null: no history entry that way, or a same-document move; the URL tells which.
  return { url: page.url(), title: await page.title().catch(() => ""), moved: response !== null || page.url() !== before };
}

/** Waits until `check` holds in the page (run there, with `value` passed as data). */
/** Playwright's waitForURL with our matcher: its own globs compile to a backtracking RegExp, matched on this thread. */
function waitForUrl(page: Page, pattern: string, timeout: number): Promise<void> {
  const matches = urlMatcher(pattern);
  return page.waitForURL((url) => matches(url.href), { timeout, waitUntil: "commit" });
}

function pageCondition(page: Page, timeout: number, gone: boolean, text: string): Promise<unknown> {
  return page.waitForFunction(
    ([wanted, absent]) => {
      const body = (globalThis as { document?: { body?: { innerText?: string } } }).document?.body;
      const shown = (body?.innerText ?? "").includes(wanted as string);
      return absent ? !shown : shown;
    },
    [text, gone] as const,
    { timeout, polling: 100 },
  );
}

export const navigationHandlers = [
  handle(Ops.navigate, async (ctx, args) => {
    assertNavigable(args.url);
    const page = activePage(ctx);
    let download = false;
    const response = await navigation(ctx, page, args.url, () => page.goto(args.url, { timeout: ctx.run.remainingMs(), waitUntil: (args.waitUntil ?? "load") as "load" }).catch((error: unknown) => {
      if (!isDownloadStarting(error instanceof Error ? error.message : String(error))) throw error;
      download = true;
      return null;
    }));
    return download ? { ...(await landed(page, null)), download: true } : landed(page, response);
  }),
  handle(Ops.back, (ctx) => history(ctx, "back")),
  handle(Ops.forward, (ctx) => history(ctx, "forward")),
  handle(Ops.reload, async (ctx) => {
    const page = activePage(ctx);
    return landed(page, await navigation(ctx, page, "reload", () => page.reload({ timeout: ctx.run.remainingMs() })));
  }),
  handle(Ops.waitFor, async (ctx, args) => {
    const page = activePage(ctx);
    const started = Date.now();
    const timeout = ctx.run.remainingMs();
    if (args.ms !== undefined) await page.waitForTimeout(Math.min(args.ms, timeout));
    else if (args.text !== undefined) await mapErrors({ target: `text ${JSON.stringify(args.text)}` }, () => pageCondition(page, timeout, false, args.text!));
    else if (args.textGone !== undefined) await mapErrors({ target: `text gone ${JSON.stringify(args.textGone)}` }, () => pageCondition(page, timeout, true, args.textGone!));
    else if (args.url !== undefined) await mapErrors({ target: `url ${args.url}` }, () => waitForUrl(page, args.url!, timeout));
    else if (args.load !== undefined) await mapErrors({ target: `load state ${args.load}` }, () => page.waitForLoadState(args.load as "load", { timeout }));
    else if (args.target !== undefined) {
      const target = args.target;
      if ("x" in target) throw new BwError("INVALID_ARGUMENT", "args.target: wait_for waits for an element, not a point");
      // A ref names an element that exists already: its staleness is checked first.
      const locator = "ref" in target ? (await resolveElement(ctx, target)).locator : locatorFor(page, target);
      await mapErrors({ target: describeTarget(target), ref: "ref" in target }, () => locator.waitFor({ state: "visible", timeout }));
    }
    return { waitedMs: Date.now() - started };
  }),
];
