// The envelope's title of a page without running script in it, when the
// title cannot have changed. Reading `document.title` costs a round trip into
// the page's renderer after every run that may have changed it; the browser
// process keeps a copy of its own (the tab's title), which
// `Target.getTargetInfo` answers from without reaching the renderer.
//
// That copy stands in for a read only when it says exactly what the last read
// said, for the same address, and what it said could not be the address: for
// a page without a title the copy is the page's address, formatted, so a
// title that could be that text is always read again. A renderer tells the
// browser of a new title before it answers the call that set it (the
// shown-titles e2e test holds it to that over a hundred runs), so a run that
// changed the title leaves a copy that no longer matches.
//
// The CDP session is the worker's own, one per page, and never reaches a
// snippet; where the browser refuses one, pages are read as before.
import type { CDPSession, Page } from "playwright-core";
import { domainToUnicode } from "node:url";

interface Read {
  title: string;
  url: string;
}

/** Whether a browser's formatted address of `url` could read as `title` (then the copy proves nothing). */
export function mayBeAddress(title: string, url: string): boolean {
  if (title === "" || url.includes(title)) return true;
  try {
    if (decodeURI(url).includes(title)) return true;
    const host = new URL(url).hostname;
    return host !== "" && (title.includes(host) || title.includes(domainToUnicode(host)));
  } catch {
    return true;
  }
}

export class ShownTitles {
  private readonly sessions = new WeakMap<Page, Promise<CDPSession | undefined>>();
  private readonly reads = new WeakMap<Page, Read>();

  /** `page`'s title: the last read of it while the browser's copy still says the same, else `read()` now. */
  async title(page: Page, read: () => Promise<string>): Promise<string> {
    const shown = await this.shown(page);
    const last = this.reads.get(page);
    if (shown && last && shown.title === last.title && shown.url === last.url) return last.title;
    this.reads.delete(page);
    const title = await read();
    // Kept only when the copy, taken before the read began, already said the same.
    if (shown && title === shown.title && !mayBeAddress(title, shown.url)) this.reads.set(page, { title, url: shown.url });
    return title;
  }

  /** The browser's copy of `page`'s title and its address; undefined when it cannot be had. */
  private async shown(page: Page): Promise<Read | undefined> {
    let session = this.sessions.get(page);
    if (!session) {
      session = page.context().newCDPSession(page).catch(() => undefined);
      this.sessions.set(page, session);
    }
    const s = await session;
    if (!s) return undefined;
    try {
      const { targetInfo } = await s.send("Target.getTargetInfo");
      return { title: targetInfo.title, url: targetInfo.url };
    } catch {
      // The page is closing, or its session went: read as before, with a new session next time.
      this.sessions.delete(page);
      return undefined;
    }
  }
}
