// What a snippet may call on each Playwright object. The host refuses any
// method not listed here; the in-context facades are generated from the same
// lists, so the two can never drift apart. Everything else (route*, expose*,
// newCDPSession, browser(), context(), request, raw screenshot, _-members,
// unrestricted on/once) simply does not exist for the snippet.

export const FACADE_SPEC = {
  page: {
    async: [
      "goto", "reload", "goBack", "goForward", "title", "content", "setContent", "evaluate", "$eval", "$$eval",
      "click", "dblclick", "fill", "type", "press", "hover", "focus", "check", "uncheck", "selectOption",
      "textContent", "innerText", "innerHTML", "getAttribute", "inputValue", "isVisible", "isHidden",
      "isChecked", "isEnabled", "isDisabled", "isEditable", "waitForSelector", "waitForLoadState",
      "waitForURL", "waitForTimeout", "waitForFunction", "setViewportSize", "bringToFront", "dispatchEvent",
    ],
    sync: ["url", "viewportSize", "isClosed"],
  },
  locator: {
    builders: [
      "locator", "getByRole", "getByText", "getByLabel", "getByPlaceholder", "getByAltText", "getByTitle",
      "getByTestId", "first", "last", "nth", "filter",
    ],
    async: [
      "click", "dblclick", "fill", "clear", "type", "pressSequentially", "press", "hover", "focus", "blur",
      "check", "uncheck", "setChecked", "selectOption", "textContent", "innerText", "innerHTML", "getAttribute",
      "inputValue", "isVisible", "isHidden", "isChecked", "isEnabled", "isDisabled", "isEditable", "count",
      "allTextContents", "allInnerTexts", "waitFor", "evaluate", "evaluateAll", "boundingBox",
      "scrollIntoViewIfNeeded", "dispatchEvent", "ariaSnapshot",
    ],
  },
  keyboard: { async: ["press", "type", "down", "up", "insertText"] },
  mouse: { async: ["click", "dblclick", "move", "down", "up", "wheel"] },
} as const;

export type FacadeSpec = typeof FACADE_SPEC;
export type FacadeTarget = "page" | "locator" | "keyboard" | "mouse";

/** Page methods that start a locator chain (sync, no browser round trip). */
export const PAGE_LOCATOR_ROOTS = FACADE_SPEC.locator.builders.filter((m) => m === "locator" || m.startsWith("getBy"));

export function isAllowed(target: FacadeTarget, method: string, kind: "async" | "sync" | "builders"): boolean {
  const group = FACADE_SPEC[target] as Record<string, readonly string[]>;
  return (group[kind] ?? []).includes(method);
}
