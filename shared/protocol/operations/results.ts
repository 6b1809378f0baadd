// What each typed operation returns as the envelope's `result`. Fields may be
// added; none is ever removed or renamed.
import type { DownloadOutcome, PageInfo } from "../envelope.js";

export interface NavigateResult {
  url: string;
  title: string;
  /** The main document's HTTP status; null for about:blank, data: and same-document navigations. */
  status: number | null;
  /** The URL was a file the browser downloaded (listed in the envelope's `downloads`); the page stayed where it was. */
  download?: true;
}

export interface HistoryResult {
  url: string;
  title: string;
  /** false when there was no page to go back or forward to. */
  moved: boolean;
}

export interface SnapshotResult {
  pageId: string;
  url: string;
  /** The snapshot (or diff) text, at most maxChars, cut at a line end. */
  text: string;
  /** Characters of the whole capture; `text` is one part of it when `cursor` is set. */
  totalChars: number;
  /** Where `text` starts in the capture. */
  offset: number;
  /** Continues this capture (kept 30 s); absent on its last part. */
  cursor?: string;
  /** Element refs in the capture: the ones actions accept until the next snapshot. */
  refs: number;
  interactive: boolean;
  /** With `diff`: what changed since the page's previous snapshot. */
  diff?: { baseline: boolean; added: number; removed: number; unchanged: number; reason?: string };
}

export interface FindResult {
  pageId: string;
  /** Snapshot lines that match, each with its element's ref when it has one. */
  matches: string[];
  count: number;
  truncated: boolean;
}

export interface ActionResult {
  /** What was acted on: a ref with its role and name, or the locator. */
  target: string;
}

export interface SelectResult extends ActionResult {
  selected: string[];
}

export interface FillFormResult {
  filled: number;
}

export interface WaitResult {
  waitedMs: number;
}

/** Chromium's error page (chrome-error://chromewebdata/): where a navigation the network failed leaves the page. */
export function isErrorPageUrl(url: string): boolean {
  return url.startsWith("chrome-error:");
}

export interface ReadResult {
  url: string;
  title: string;
  text: string;
  totalChars: number;
  truncated: boolean;
}

export interface ScreenshotResult {
  path: string;
  bytes: number;
  width: number;
  height: number;
  type: "png" | "jpeg";
}

export interface TabsResult {
  active: string | null;
  pages: PageInfo[];
}

export interface ObserveEntry {
  /** Its place in the page's buffer: pass the last one seen as `since`. */
  id: number;
  at: string;
  /** console: the message type; errors: the error name; network: the HTTP method. */
  type: string;
  text?: string;
  url?: string;
  status?: number;
  resourceType?: string;
  failure?: string;
}

export interface ObserveResult {
  pageId: string;
  source: "console" | "errors" | "network" | "dialogs";
  entries: ObserveEntry[];
  /** Pass as `since` to read on from here. */
  nextCursor: number;
  /** Entries after `since` that the bounded buffer had already dropped. */
  dropped: number;
  /** More entries are waiting past `limit`. */
  more: boolean;
}

export interface DownloadsResult {
  /** Newest first, at most `limit`: as each run's envelope listed them. */
  downloads: DownloadOutcome[];
  /** Outcomes in the session's history that match `status` (it keeps the last 100). */
  total: number;
  /** More match than `limit` let through. */
  more: boolean;
}

export interface DialogArmResult {
  pageId: string;
  /** How the page's next dialog will be answered. */
  armed: "accept" | "dismiss";
}

export interface ActionAndWaitResult {
  event: "navigation" | "response" | "popup" | "dialog";
  /** What was clicked or pressed. */
  target: string;
  /** navigation: where the page went; response: its URL (without secrets); popup: its first URL. */
  url?: string;
  /** response: its HTTP status. */
  status?: number;
  /** navigation: the page's title once its DOM was ready. */
  title?: string;
  /** popup: the new page's id (it is not made active: `tabs select`). */
  pageId?: string;
  /** dialog: alert, confirm, prompt or beforeunload, and what it said. */
  type?: string;
  message?: string;
}
