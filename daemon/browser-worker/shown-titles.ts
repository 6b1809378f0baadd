// The envelope's title of a page without running script in it, when the
// title cannot have changed. Reading `document.title` costs a round trip into
// the page's renderer after every run that may have changed it; the browser
// process keeps a copy of its own (the tab's title), which the Target domain
// answers from without reaching the renderer.
//
// That copy stands in for a read only when it says exactly what the last read
// said, for the same address, and what it said could not be the address: for
// a page without a title the copy is the page's address, formatted, so a
// title that could be that text is always read again. A renderer tells the
// browser of a new title before it answers the call that set it (the
// shown-titles e2e test holds it to that over a hundred runs), so a run that
// changed the title leaves a copy that no longer matches.
//
// One witness serves the whole worker: the copies asked for in the same turn
// of the event loop (envelopes of many sessions built together) are fetched
// with one `Target.getTargets` on a browser session, and a lone one with
// `Target.getTargetInfo` on the page's own session. `Target.getTargets`
// answers with every page of the browser, addresses included, and a page
// can make its address megabytes long (`history.pushState`): so one page's
// long address never rides on other sessions' envelopes, the batch is asked
// only while the browser's pages' addresses are short together, and a page
// whose own address is long is simply read. Both sessions are the worker's
// own and never reach a snippet; where the browser refuses one, pages are
// read as before.
import { domainToUnicode } from "node:url";
import type { Browser, CDPSession, Page } from "playwright-core";

interface Copy {
  title: string;
  url: string;
}

/** A page's own CDP session and its target id, made once. */
interface PageLink {
  session: CDPSession;
  targetId: string;
}

interface Waiter {
  page: Page;
  link: PageLink;
  resolve: (copy: Copy | undefined) => void;
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

/** A page whose address is longer is read, not witnessed: its copy would cost more to fetch than the read. */
export const WITNESS_URL_CHARS = 8 * 1024;
/** `Target.getTargets` is asked only while the addresses of all the browser's pages come to at most this. */
export const BATCH_URL_CHARS = 256 * 1024;

/** Whether one `Target.getTargets` may answer for these pages' browser: its pages' addresses are short together. */
export function batchable(urls: Iterable<string>, limit = BATCH_URL_CHARS): boolean {
  let chars = 0;
  for (const url of urls) if ((chars += url.length) > limit) return false;
  return true;
}

export class ShownTitles {
  private readonly links = new WeakMap<Page, Promise<PageLink | undefined>>();
  private readonly browserSessions = new WeakMap<Browser, Promise<CDPSession | undefined>>();
  private readonly reads = new WeakMap<Page, Copy>();
  private waiting: Waiter[] = [];

  /** `page`'s title: the last read of it while the browser's copy still says the same, else `read()` now. */
  async title(page: Page, read: () => Promise<string>): Promise<string> {
    if (page.url().length > WITNESS_URL_CHARS) {
      this.reads.delete(page);
      return read();
    }
    const copy = await this.copy(page);
    const last = this.reads.get(page);
    if (copy && last && copy.title === last.title && copy.url === last.url) return last.title;
    this.reads.delete(page);
    const title = await read();
    // Kept only when the copy, taken before the read began, already said the same.
    if (copy && title === copy.title && !mayBeAddress(title, copy.url)) this.reads.set(page, { title, url: copy.url });
    return title;
  }

  /** The browser's copy of `page`'s title and its address, asked with the others of this turn; undefined when it cannot be had. */
  private async copy(page: Page): Promise<Copy | undefined> {
    const link = await this.link(page);
    if (!link) return undefined;
    return new Promise((resolve) => {
      if (this.waiting.push({ page, link, resolve }) === 1) setImmediate(() => void this.ask());
    });
  }

  private async ask(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 1) {
      const [one] = batch as [Waiter];
      one.resolve(await this.targetInfo(one));
      return;
    }
    const byBrowser = new Map<Browser | null, Waiter[]>();
    for (const w of batch) {
      const browser = w.page.context().browser();
      const waiters = byBrowser.get(browser);
      if (waiters) waiters.push(w);
      else byBrowser.set(browser, [w]);
    }
    await Promise.all([...byBrowser].map(async ([browser, waiters]) => {
      const short = browser !== null && batchable(browser.contexts().flatMap((c) => c.pages().map((p) => p.url())));
      const targets = short ? await this.targets(browser) : undefined;
      await Promise.all(waiters.map(async (w) => {
        const info = targets?.get(w.link.targetId);
        w.resolve(info ?? (await this.targetInfo(w)));
      }));
    }));
  }

  /** Every page target's copy in `browser`, by target id; undefined when the browser refuses. */
  private async targets(browser: Browser): Promise<Map<string, Copy> | undefined> {
    let session = this.browserSessions.get(browser);
    if (!session) {
      session = browser.newBrowserCDPSession().catch(() => undefined);
      this.browserSessions.set(browser, session);
    }
    const s = await session;
    if (!s) return undefined;
    try {
      const { targetInfos } = await s.send("Target.getTargets", { filter: [{ type: "page" }] });
      return new Map(targetInfos.map((t) => [t.targetId, { title: t.title, url: t.url }]));
    } catch {
      this.browserSessions.delete(browser);
      return undefined;
    }
  }

  private async targetInfo(w: Waiter): Promise<Copy | undefined> {
    try {
      const { targetInfo } = await w.link.session.send("Target.getTargetInfo");
      return { title: targetInfo.title, url: targetInfo.url };
    } catch {
      // The page is closing, or its session went: read as before, with a new session next time.
      this.links.delete(w.page);
      return undefined;
    }
  }

  private link(page: Page): Promise<PageLink | undefined> {
    let link = this.links.get(page);
    if (!link) {
      link = (async () => {
        const session = await page.context().newCDPSession(page);
        const { targetInfo } = await session.send("Target.getTargetInfo");
        return { session, targetId: targetInfo.targetId };
      })().catch(() => undefined);
      this.links.set(page, link);
    }
    return link;
  }
}
