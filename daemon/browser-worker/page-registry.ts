// One session's pages (one active) and the ids its snippets know them and
// their frames by. Playwright objects never leave the worker's realm: the
// sandbox names a page as "p1" and a frame as "f3", and this registry turns
// the name back into the object, refusing names of other sessions' pages.
import type { Frame, Page } from "playwright-core";
import { closingError, type CloseReason } from "../../shared/protocol/close-reason.js";
import { BwError } from "../../shared/protocol/errors.js";
import type { PageInfo } from "../../shared/protocol/envelope.js";
import { clipAtWord } from "./ops/clip-text.js";
import { fromShallowStack } from "./playwright.js";
import type { ShownTitles } from "./shown-titles.js";

export const MAX_PAGES_PER_SESSION = 20;
const TITLE_WAIT_MS = 500;
/** A page's address in an envelope: a page can make its own megabytes long (`history.pushState`), which no envelope carries. */
export const MAX_INFO_URL_CHARS = 64 * 1024;
const LIMIT_MESSAGE = `a session holds at most ${MAX_PAGES_PER_SESSION} pages; close one with closePage()`;

export class PageRegistry {
  private readonly pages = new Map<string, Page>();
  private activeId: string | undefined;
  private nextPageNumber = 1;
  private nextFrameNumber = 1;
  /** Why closeAll() was called: the session is going away. */
  private closedBy: CloseReason | undefined;
  private readonly frameIds = new WeakMap<Frame, string>();
  private readonly frames = new Map<string, { pageId: string; frame: Frame }>();

  constructor(
    private readonly session: string,
    private readonly newPage: () => Promise<Page>,
    /** Wires a new page's events (console, dialogs…) to the session. */
    private readonly onNewPage: (pageId: string, page: Page) => void,
    /** A popup past the page bound was closed; the message says why. */
    private readonly onPopupRefused: (message: string) => void,
    /** The worker's witness of pages' titles (shown-titles.ts), asked before a title is read for an envelope. */
    private readonly shownTitles: ShownTitles,
  ) {}

  get size(): number {
    return this.pages.size;
  }

  has(pageId: string): boolean {
    return this.pages.has(pageId);
  }

  includes(page: Page): boolean {
    for (const p of this.pages.values()) if (p === page) return true;
    return false;
  }

  get(pageId: unknown): Page {
    const page = this.pages.get(String(pageId));
    if (!page) throw new BwError("INVALID_ARGUMENT", `no page ${String(pageId)} in session ${this.session}`);
    return page;
  }

  active(): string {
    if (this.activeId === undefined || !this.pages.has(this.activeId)) {
      const first = this.pages.keys().next();
      if (first.done) throw new BwError("INVALID_ARGUMENT", "this session has no open page: call openPage()");
      this.activeId = first.value;
    }
    return this.activeId;
  }

  /** The active page, or null when the session has none. */
  activeOrNull(): string | null {
    return this.pages.size === 0 ? null : this.active();
  }

  use(pageId: unknown): string {
    const id = String(pageId);
    this.get(id);
    this.activeId = id;
    return id;
  }

  async ensure(): Promise<void> {
    if (this.pages.size === 0) this.activeId = await this.open();
  }

  async open(): Promise<string> {
    if (this.pages.size >= MAX_PAGES_PER_SESSION) throw new BwError("LIMIT_EXCEEDED", LIMIT_MESSAGE);
    const page = await this.newPage();
    // The session closed while the page was being made: it must not outlive it.
    if (this.closedBy) {
      await page.close().catch(() => {});
      throw closingError(this.closedBy);
    }
    return this.adopt(page);
  }

  /**
   * A page one of ours opened (target=_blank, window.open) is ours too: it is
   * listed, can be used and is closed with the session, instead of living on
   * unseen in the shared context. Past the bound it is closed at once.
   */
  private adoptPopup(popup: Page): void {
    if (this.closedBy) {
      void popup.close().catch(() => {});
      return;
    }
    if (this.pages.size >= MAX_PAGES_PER_SESSION) {
      void popup.close().catch(() => {});
      this.onPopupRefused(`a popup was closed: ${LIMIT_MESSAGE}`);
      return;
    }
    this.adopt(popup);
  }

  private adopt(page: Page): string {
    const id = `p${this.nextPageNumber++}`;
    this.pages.set(id, page);
    page.on("close", () => {
      this.pages.delete(id);
      if (this.activeId === id) this.activeId = undefined;
      for (const [frameId, entry] of this.frames) if (entry.pageId === id) this.frames.delete(frameId);
    });
    page.on("framedetached", (frame) => {
      const frameId = this.frameIds.get(frame);
      if (frameId) this.frames.delete(frameId);
    });
    page.on("popup", (popup) => this.adoptPopup(popup));
    this.onNewPage(id, page);
    return id;
  }

  /** The id snippets know `frame` by, assigned on first sight. */
  frameId(pageId: string, frame: Frame): string {
    let id = this.frameIds.get(frame);
    if (!id) {
      id = `f${this.nextFrameNumber++}`;
      this.frameIds.set(frame, id);
    }
    if (!frame.isDetached()) this.frames.set(id, { pageId, frame });
    return id;
  }

  frame(pageId: unknown, frameId: unknown): Frame {
    const entry = this.frames.get(String(frameId));
    if (!entry || entry.pageId !== String(pageId) || entry.frame.isDetached()) {
      throw new BwError("INVALID_ARGUMENT", `frame ${String(frameId)} is gone (detached or navigated away) or not on page ${String(pageId)}`);
    }
    return entry.frame;
  }

  infos(): PageInfo[] {
    const infos: PageInfo[] = [];
    for (const [pageId, page] of this.pages) infos.push({ pageId, url: clipAtWord(page.url(), MAX_INFO_URL_CHARS, "url"), title: "", active: pageId === this.activeId });
    return infos;
  }

  /** Every page with its title, read now unless `known` has one that still stands (see page-titles.ts). */
  async infosWithTitles(
    known: (pageId: string) => string | undefined = () => undefined,
    /** Wraps each read (the session remembers what it read, for the next envelope). */
    reading: (pageId: string, read: () => Promise<string>) => Promise<string> = (_pageId, read) => read(),
  ): Promise<PageInfo[]> {
    const infos = this.infos();
    const unread: PageInfo[] = [];
    for (const info of infos) {
      const title = known(info.pageId);
      if (title === undefined) unread.push(info);
      else info.title = title;
    }
    if (unread.length === 0) return infos;
    // A page stuck in a navigation must not hold the envelope back.
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<string>((r) => { timer = setTimeout(() => r(""), TITLE_WAIT_MS).unref(); });
    await Promise.all(unread.map(async (info) => {
      const page = this.pages.get(info.pageId);
      if (!page) return;
      const read = () => this.shownTitles.title(page, () => fromShallowStack(() => page.title()));
      info.title = await Promise.race([reading(info.pageId, read).catch(() => ""), bound]);
    }));
    clearTimeout(timer);
    return infos;
  }

  /** Forget pages without closing them (the browser they lived in is gone). */
  drop(): boolean {
    const had = this.pages.size > 0;
    this.pages.clear();
    this.frames.clear();
    this.activeId = undefined;
    return had;
  }

  async closeAll(reason: CloseReason): Promise<void> {
    // A popup opened while the session's pages close would otherwise outlive it.
    this.closedBy ??= reason;
    await Promise.all([...this.pages.values()].map((p) => p.close().catch(() => {})));
    this.drop();
  }
}
