// What a snippet may call on each Playwright object. The host refuses any
// method not listed here; the in-context facades are generated from the same
// lists, so the two can never drift apart. Everything else (route*, expose*,
// newCDPSession, browser(), context(), request, raw screenshot, _-members,
// unrestricted on/once) simply does not exist for the snippet.

const GET_BY = ["getByRole", "getByText", "getByLabel", "getByPlaceholder", "getByAltText", "getByTitle", "getByTestId"] as const;

/** Methods pages and frames share: they act on the page's main frame or on the frame. */
const FRAME_ASYNC = [
  "goto", "title", "content", "setContent", "evaluate", "$eval", "$$eval",
  "click", "dblclick", "fill", "type", "press", "hover", "focus", "check", "uncheck", "selectOption",
  "textContent", "innerText", "innerHTML", "getAttribute", "inputValue", "isVisible", "isHidden",
  "isChecked", "isEnabled", "isDisabled", "isEditable", "waitForSelector", "waitForLoadState",
  "waitForURL", "waitForTimeout", "waitForFunction", "dispatchEvent",
  // File paths are checked on the host: real files inside the session's artifact folder only.
  "setInputFiles",
] as const;

export const FACADE_SPEC = {
  page: {
    async: [...FRAME_ASYNC, "reload", "goBack", "goForward", "setViewportSize", "bringToFront", "ariaSnapshot"],
    sync: ["url", "viewportSize", "isClosed"],
    /** Builders that start a chain: `locator`/`getBy*` give a Locator, `frameLocator` a FrameLocator. */
    roots: ["locator", ...GET_BY, "frameLocator"],
    /** `page.on/once/off` accept these events only. */
    events: ["console", "pageerror", "dialog"],
  },
  frame: {
    async: [...FRAME_ASYNC],
    sync: ["url", "name", "isDetached"],
    roots: ["locator", ...GET_BY, "frameLocator"],
  },
  locator: {
    /** Locator → Locator. */
    builders: ["locator", ...GET_BY, "first", "last", "nth", "filter", "and", "or"],
    /** Locator → FrameLocator. */
    toFrameLocator: ["frameLocator", "contentFrame"],
    async: [
      "click", "dblclick", "fill", "clear", "type", "pressSequentially", "press", "hover", "focus", "blur",
      "check", "uncheck", "setChecked", "selectOption", "textContent", "innerText", "innerHTML", "getAttribute",
      "inputValue", "isVisible", "isHidden", "isChecked", "isEnabled", "isDisabled", "isEditable", "count",
      "allTextContents", "allInnerTexts", "waitFor", "evaluate", "evaluateAll", "boundingBox",
      "scrollIntoViewIfNeeded", "dispatchEvent", "ariaSnapshot", "setInputFiles",
    ],
  },
  frameLocator: {
    /** FrameLocator → Locator. */
    builders: ["locator", ...GET_BY, "owner"],
    /** FrameLocator → FrameLocator. */
    toFrameLocator: ["frameLocator", "first", "last", "nth"],
  },
  keyboard: { async: ["press", "type", "down", "up", "insertText"] },
  mouse: { async: ["click", "dblclick", "move", "down", "up", "wheel"] },
  /** `page.webmcp`: the page's WebMCP tools, through the worker's bridge (docs/webmcp.md). */
  webmcp: { async: ["tools", "callTool"] },
} as const;

export type FacadeSpec = typeof FACADE_SPEC;
export type FacadeTarget = "page" | "frame" | "locator" | "keyboard" | "mouse" | "webmcp";
export type ChainKind = "locator" | "frameLocator";

export function isAllowed(target: FacadeTarget, method: string, kind: "async" | "sync"): boolean {
  const group = FACADE_SPEC[target] as Record<string, readonly string[] | undefined>;
  return (group[kind] ?? []).includes(method);
}

/** What a chain step on `from` ("root" = a page or frame) yields, or undefined when the step is not allowed. */
export function chainStep(from: ChainKind | "root", method: string): ChainKind | undefined {
  const has = (list: readonly string[]) => list.includes(method);
  if (from === "root") return has(FACADE_SPEC.page.roots) ? (method === "frameLocator" ? "frameLocator" : "locator") : undefined;
  if (from === "locator") return has(FACADE_SPEC.locator.builders) ? "locator" : has(FACADE_SPEC.locator.toFrameLocator) ? "frameLocator" : undefined;
  return has(FACADE_SPEC.frameLocator.builders) ? "locator" : has(FACADE_SPEC.frameLocator.toFrameLocator) ? "frameLocator" : undefined;
}
