// The one table of typed operations. The socket method `session.op`, the CLI
// verbs and their --help, the library's `bw.op()` and docs/operations.md are
// all derived from it: a new operation is one entry here and one handler in
// daemon/browser-worker/ops/.
import { BwError } from "../errors.js";
import type { ArgSpec, OperationSpec } from "./spec.js";
import { oneOf } from "./spec.js";
import { DOWNLOAD_HISTORY_LIMIT } from "../methods/artifacts.js";
import type * as R from "./results.js";
import { MAX_WEBMCP_INPUT_CHARS, MAX_WEBMCP_NAME_CHARS, type WebmcpCallResult, type WebmcpToolsResult } from "../../webmcp.js";

function op<Result>() {
  return <const N extends string, const S extends readonly ArgSpec[]>(name: N, spec: Omit<OperationSpec<S, Result, N>, "name" | "result">): OperationSpec<S, Result, N> => ({ name, ...spec });
}

const str = (max?: number, choices?: readonly string[]) => ({ kind: "string" as const, ...(max === undefined ? {} : { max }), ...(choices ? { choices } : {}) });
const int = (min: number, max: number) => ({ kind: "number" as const, min, max, integer: true });
const flag = { kind: "boolean" } as const;
const target = { kind: "target" } as const;

export const MAX_SNAPSHOT_CHARS = 100_000;
export const DEFAULT_SNAPSHOT_CHARS = 8_000;
export const MAX_READ_CHARS = 100_000;
export const DEFAULT_READ_CHARS = 8_000;
export const MAX_OBSERVE_ENTRIES = 200;
export const DEFAULT_DOWNLOAD_ENTRIES = 20;
/** How long an operation waits for a target that matches nothing (or is covered) once the page has loaded. */
export const DEFAULT_ELEMENT_WAIT_MS = 2_000;
export const MAX_ELEMENT_WAIT_MS = 60_000;

const TARGET_HELP = "what to act on: a ref from the latest snapshot (e12), or a locator";
/** The required target of an operation that acts on one element. */
const targetArg = { name: "target", type: target, help: TARGET_HELP, required: true, positional: true } as const;

export const navigate = op<R.NavigateResult>()("navigate", {
  help: "Go to a URL (http, https, about:blank, data:) in the active page and wait for it to load",
  args: [
    { name: "url", type: str(8192), help: "the address to load", required: true, positional: true },
    { name: "waitUntil", type: str(20, ["load", "domcontentloaded", "commit"]), help: "when the navigation counts as done (default load)" },
  ],
  returns: "{ url, title, status, download? }",
});
export const back = op<R.HistoryResult>()("back", { help: "Go back one page in the active page's history", args: [], returns: "{ url, title, moved }" });
export const forward = op<R.HistoryResult>()("forward", { help: "Go forward one page in the active page's history", args: [], returns: "{ url, title, moved }" });
export const reload = op<R.NavigateResult>()("reload", { help: "Reload the active page", args: [], returns: "{ url, title, status }" });

export const snapshot = op<R.SnapshotResult>()("snapshot", {
  help: "The active page's accessibility tree as compact text, with refs (e12) that actions take",
  args: [
    { name: "target", type: target, help: "only this element's subtree", positional: true },
    { name: "interactive", type: flag, help: "only elements an agent can act on, with their names" },
    { name: "depth", type: int(1, 100), help: "at most this many levels deep" },
    { name: "maxChars", type: int(200, MAX_SNAPSHOT_CHARS), help: `characters per answer (default ${DEFAULT_SNAPSHOT_CHARS}); the rest comes with cursor` },
    { name: "cursor", type: str(100), help: "continue a capture (kept 30 s) from where the last answer stopped" },
    { name: "diff", type: flag, help: "only what changed since this page's previous snapshot" },
  ],
  check: (args, path) => {
    if (args.cursor !== undefined && Object.keys(args).some((k) => k !== "cursor" && k !== "maxChars")) {
      throw new BwError("INVALID_ARGUMENT", `${path}: cursor continues a capture and takes no other option but maxChars`);
    }
  },
  returns: "{ pageId, url, text, totalChars, offset, cursor?, refs, interactive, diff? }",
});
export const find = op<R.FindResult>()("find", {
  help: "Find elements of a big page by role, name or text (substring, or /regex/flags): the matching snapshot lines, with refs to act on",
  args: [
    { name: "query", type: str(1000), help: "text to look for, or /regex/flags", required: true, positional: true },
    { name: "limit", type: int(1, 200), help: "at most this many matches (default 20)" },
  ],
  returns: "{ pageId, matches, count, truncated }",
});

export const click = op<R.ActionResult>()("click", {
  help: "Click an element (or a point)",
  args: [
    targetArg,
    { name: "double", type: flag, help: "double-click" },
    { name: "button", type: str(10, ["left", "right", "middle"]), help: "mouse button (default left)" },
    { name: "modifiers", type: { kind: "strings", max: 4, itemMax: 10 }, help: "keys held: Alt, Control, Meta, Shift, ControlOrMeta" },
  ],
  check: (args, path) => {
    for (const m of (args.modifiers as string[] | undefined) ?? []) {
      if (!["Alt", "Control", "Meta", "Shift", "ControlOrMeta"].includes(m)) throw new BwError("INVALID_ARGUMENT", `${path}.modifiers: ${m} is none of Alt, Control, Meta, Shift, ControlOrMeta`);
    }
  },
  returns: "{ target }",
});
export const hover = op<R.ActionResult>()("hover", { help: "Move the mouse over an element (or a point)", args: [targetArg], returns: "{ target }" });
export const focus = op<R.ActionResult>()("focus", { help: "Focus an element", args: [targetArg], returns: "{ target }" });
export const scrollIntoView = op<R.ActionResult>()("scroll_into_view", { help: "Scroll until an element is visible", args: [targetArg], returns: "{ target }" });
export const type = op<R.ActionResult>()("type", {
  help: "Type text key by key into an element (after what it holds), or into the focused element",
  args: [
    { name: "target", type: target, help: `${TARGET_HELP}; without it, the focused element`, positional: true },
    { name: "text", type: str(10_000), help: "the text to type", required: true, positional: true },
    { name: "submit", type: flag, help: "press Enter afterwards" },
  ],
  returns: "{ target }",
});
export const fill = op<R.ActionResult>()("fill", {
  help: "Replace the value of a text field",
  args: [
    targetArg,
    { name: "value", type: str(), help: "the new value (may be empty)", required: true, positional: true },
  ],
  returns: "{ target }",
});
export const fillForm = op<R.FillFormResult>()("fill_form", {
  help: "Fill several fields at once: text fields get text, checkboxes and radios true or false",
  args: [{ name: "fields", type: { kind: "fields" }, help: "[{ target, value }]; on the CLI, REF=VALUE words", required: true, positional: true }],
  returns: "{ filled }",
});
export const select = op<R.SelectResult>()("select", {
  help: "Choose options of a <select> by value or label",
  args: [
    targetArg,
    { name: "values", type: { kind: "strings", max: 100, itemMax: 1000 }, help: "the options to select", required: true, positional: true },
  ],
  returns: "{ target, selected }",
});
export const check = op<R.ActionResult>()("check", { help: "Check a checkbox or radio (a no-op when it already is)", args: [targetArg], returns: "{ target }" });
export const uncheck = op<R.ActionResult>()("uncheck", { help: "Uncheck a checkbox (a no-op when it already is)", args: [targetArg], returns: "{ target }" });
export const press = op<R.ActionResult>()("press", {
  help: "Press a key or chord (Enter, Tab, Control+a) on an element, or on the focused element",
  args: [
    { name: "target", type: target, help: `${TARGET_HELP}; without it, the focused element`, positional: true },
    { name: "key", type: str(64), help: "a key name as Playwright spells it", required: true, positional: true },
  ],
  returns: "{ target }",
});
export const scroll = op<R.ActionResult>()("scroll", {
  help: "Scroll the page (or the element under a target) by a number of pixels",
  args: [
    { name: "target", type: target, help: "scroll with the mouse over this element", positional: true },
    { name: "dx", type: int(-1_000_000, 1_000_000), help: "pixels right (negative: left)" },
    { name: "dy", type: int(-1_000_000, 1_000_000), help: "pixels down (negative: up); default one screen down" },
  ],
  returns: "{ target }",
});
export const drag = op<R.ActionResult>()("drag", {
  help: "Drag one element onto another",
  args: [
    { name: "source", type: target, help: "what to drag", required: true, positional: true },
    { name: "target", type: target, help: "where to drop it", required: true, positional: true },
  ],
  returns: "{ target }",
});
export const upload = op<R.ActionResult>()("upload", {
  help: "Set the files of a file input, from the session's artifact folder",
  args: [
    targetArg,
    { name: "files", type: { kind: "strings", max: 20, itemMax: 255 }, help: "file names in the session's artifact folder", required: true, positional: true },
  ],
  returns: "{ target }",
});

export const waitFor = op<R.WaitResult>()("wait_for", {
  help: "Wait for one condition: text shown or gone, a URL, a load state, an element, or a pause",
  args: [
    { name: "text", type: str(1000), help: "text the page shows (substring of its visible text)" },
    { name: "textGone", type: str(1000), help: "text the page no longer shows" },
    { name: "url", type: str(8192), help: "the page's URL: exact, or a glob with * and **" },
    { name: "load", type: str(20, ["load", "domcontentloaded", "networkidle"]), help: "a load state" },
    { name: "target", type: target, help: "an element that becomes visible", positional: true },
    { name: "ms", type: int(0, 60_000), help: "a plain pause, in milliseconds" },
  ],
  check: oneOf(["text", "textGone", "url", "load", "target", "ms"]),
  returns: "{ waitedMs }",
});
export const screenshot = op<R.ScreenshotResult>()("screenshot", {
  help: "Save a screenshot of the viewport, the full page or one element to the artifact store",
  args: [
    { name: "target", type: target, help: "only this element (a ref or a selector)", positional: true },
    { name: "fullPage", type: flag, help: "the whole scrollable page" },
    { name: "type", type: str(5, ["png", "jpeg"]), help: "image format (default png)" },
  ],
  check: oneOf(["target", "fullPage"], true),
  returns: "{ path, bytes, width, height, type }",
});
export const read = op<R.ReadResult>()("read", {
  help: "The page's URL, title and visible text (or one element's), capped",
  args: [
    { name: "target", type: target, help: "only this element's text", positional: true },
    { name: "maxChars", type: int(100, MAX_READ_CHARS), help: `at most this many characters (default ${DEFAULT_READ_CHARS})` },
  ],
  returns: "{ url, title, text, totalChars, truncated }",
});
export const tabs = op<R.TabsResult>()("tabs", {
  help: "List the session's pages, open one, make one active, or close one",
  args: [
    { name: "action", type: str(10, ["list", "new", "select", "close"]), help: "list (default), new, select or close", positional: true },
    { name: "arg", type: str(8192), help: "new: a URL to open; select, close: a page id (p2)", positional: true },
  ],
  returns: "{ active, pages }",
});
export const observe = op<R.ObserveResult>()("observe", {
  help: "Read the active page's console, page errors or network requests since a cursor (kept across runs, bounded)",
  args: [
    { name: "source", type: str(10, ["console", "errors", "network", "dialogs"]), help: "console, errors, network or dialogs", required: true, positional: true },
    { name: "since", type: int(0, Number.MAX_SAFE_INTEGER), help: "only entries after this cursor (nextCursor of the last read)" },
    { name: "limit", type: int(1, MAX_OBSERVE_ENTRIES), help: "at most this many entries (default 50)" },
  ],
  returns: "{ pageId, source, entries, nextCursor, dropped, more }",
});
export const downloads = op<R.DownloadsResult>()("downloads", {
  help: "The session's downloads, newest first: accepted ones with their path and size, refused or cancelled ones with the reason (the last 100, kept across restarts)",
  args: [
    { name: "status", type: str(10, ["accepted", "rejected"]), help: "only accepted or only rejected ones", positional: true },
    { name: "limit", type: int(1, DOWNLOAD_HISTORY_LIMIT), help: `at most this many (default ${DEFAULT_DOWNLOAD_ENTRIES})` },
  ],
  returns: "{ downloads: [{ id, url, suggestedFilename, status, path?, bytes?, reason?, message?, runId?, at }], total, more }",
});
export const dialog = op<R.DialogArmResult>()("dialog", {
  help: "Accept or dismiss the active page's next dialog (alert, confirm, prompt); a dialog nothing is armed for is dismissed",
  args: [
    { name: "action", type: str(10, ["accept", "dismiss"]), help: "accept or dismiss", required: true, positional: true },
    { name: "promptText", type: str(10_000), help: "what a prompt() gets when accepted", positional: true },
  ],
  returns: "{ pageId, armed }",
});
export const actionAndWait = op<R.ActionAndWaitResult>()("action_and_wait", {
  help: "Click (or press a key) and wait for the navigation, response, popup or dialog it causes; the waiter is set before the action",
  args: [
    { name: "waitFor", type: str(12, ["navigation", "response", "popup", "dialog"]), help: "navigation, response, popup or dialog", required: true, positional: true },
    { name: "target", type: target, help: "what to click (or to press the key on)", positional: true },
    { name: "key", type: str(64), help: "press this key instead of clicking" },
    { name: "url", type: str(8192), help: "navigation, response: the URL to wait for, exact or a glob (* within a segment, ** across)" },
    { name: "dialog", type: str(10, ["accept", "dismiss"]), help: "dialog: accept or dismiss it (default dismiss)" },
    { name: "promptText", type: str(10_000), help: "dialog: what a prompt() gets when accepted" },
  ],
  check: (args, path) => {
    if (args.target === undefined && args.key === undefined) throw new BwError("INVALID_ARGUMENT", `${path}: action_and_wait needs a target to click or a key to press`);
    if ((args.dialog !== undefined || args.promptText !== undefined) && args.waitFor !== "dialog") throw new BwError("INVALID_ARGUMENT", `${path}.dialog: only for waitFor dialog`);
    if (args.url !== undefined && args.waitFor !== "navigation" && args.waitFor !== "response") throw new BwError("INVALID_ARGUMENT", `${path}.url: only for waitFor navigation or response`);
  },
  returns: "{ event, target, url?, status?, title?, pageId?, type?, message? }",
});
export const credentialsFill = op<unknown>()("credentials_fill", {
  help: "Fill the login form of the active page from the vault; the secret never comes back",
  args: [
    { name: "id", type: str(100), help: "the vault entry (default: the only one for this site)", positional: true },
    { name: "submit", type: flag, help: "submit the form afterwards" },
  ],
  returns: "{ id, site, username, filled, submitted }",
});

export const webmcpTools = op<WebmcpToolsResult>()("webmcp_tools", {
  help: "The tools the active page registers for agents through WebMCP: names, descriptions, input schemas (bounded; untrusted page data)",
  args: [],
  returns: "{ pageId, url, tools: [{ name, description, inputSchema?, readOnly?, submits? }], total, omitted, untrusted }",
});
export const webmcpCall = op<WebmcpCallResult>()("webmcp_call", {
  help: "Call a WebMCP tool of the active page with JSON input; a tool that submits on its own needs confirm (its result is untrusted page data)",
  args: [
    { name: "name", type: str(MAX_WEBMCP_NAME_CHARS), help: "the tool's name, as webmcp_tools lists it", required: true, positional: true },
    { name: "input", type: { kind: "json", maxChars: MAX_WEBMCP_INPUT_CHARS }, help: "the tool's input, a JSON object matching its inputSchema (default {})", positional: true },
    { name: "confirm", type: flag, help: "allow a tool that submits a form or takes a consequential action on its own" },
    { name: "timeoutMs", type: int(100, 600_000), help: "give up (and ask the page to cancel) after this long; default the run's budget" },
  ],
  check: (args, path) => {
    if (args.input !== undefined && (args.input === null || typeof args.input !== "object" || Array.isArray(args.input))) throw new BwError("INVALID_ARGUMENT", `${path}.input: expected a JSON object`);
  },
  returns: "{ pageId, tool, result, truncated?, totalChars?, untrusted }",
});

/** Every operation, in the order help and docs list them. */
export const OPERATIONS: readonly OperationSpec[] = [
  navigate, back, forward, reload,
  snapshot, find, read, screenshot, observe, downloads, tabs,
  click, hover, focus, scrollIntoView, type, fill, fillForm, select, check, uncheck, press, scroll, drag, upload,
  waitFor, actionAndWait, dialog, credentialsFill,
  webmcpTools, webmcpCall,
];
