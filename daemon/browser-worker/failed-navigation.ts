// A navigation the network failed (the guard refused it, the server was not
// there) commits Chromium's error page, chrome-error://chromewebdata/, some
// 10–30 ms after Playwright has rejected the call; a navigation started in
// between fails as "interrupted by another navigation". With raw Playwright
// every goto straight after a failed one does. Here each failed navigation
// waits for its error page (bounded), so the next one goes through.
import type { Frame, Page, Response } from "playwright-core";
import { isErrorPageUrl } from "../../shared/protocol/operations/results.js";
import { leavesErrorPage } from "./playwright-errors.js";

/** The longest a failed navigation waits for its error page (it commits within tens of milliseconds). */
export const ERROR_PAGE_WAIT_MS = 1000;

/** Runs a navigation of `frame`; when it fails with a network error, returns the failure once the error page is in. */
export async function settlingNavigation<T>(frame: Frame, budgetMs: number, navigate: () => Promise<T>): Promise<T> {
  try {
    return await navigate();
  } catch (error) {
    await errorPageCommitted(frame, error, budgetMs);
    throw error;
  }
}

/** `page.goto(url)` within the budget, settled as settlingNavigation says (a new page's first navigation). */
export function gotoSettled(page: Page, url: string, budgetMs: number): Promise<Response | null> {
  return settlingNavigation(page.mainFrame(), budgetMs, () => page.goto(url, { timeout: budgetMs }));
}

async function errorPageCommitted(frame: Frame, error: unknown, budgetMs: number): Promise<void> {
  const timeout = Math.min(ERROR_PAGE_WAIT_MS, Math.max(0, budgetMs));
  if (timeout === 0 || !(error instanceof Error) || !leavesErrorPage(error.message)) return;
  try {
    if (isErrorPageUrl(frame.url())) return;
    await frame.page().waitForEvent("framenavigated", { predicate: (f) => f === frame && isErrorPageUrl(f.url()), timeout });
  } catch {
    // Not within the bound, or the page went: the failure stands as it is.
  }
}
