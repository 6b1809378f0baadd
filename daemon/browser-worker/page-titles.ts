// When an earlier read of a page's title may stand in for the envelope's read
// at the end of a run (one browser round trip saved): the run's own
// page.title(), or the read made for the previous envelope when runs follow
// each other closely (a repl stream). It may only when nothing could have
// changed the title since the read began: no other browser call of the session
// started, ended or is still in flight, no typed operation ran but one that
// only reads (snapshot, find, read: theirs tell the title on the way), no page
// of the session navigated or raised a dialog, and the read ended at most
// TITLE_REUSE_MS before the envelope.

/** How old an earlier title read may be and still stand in for the envelope's. */
export const TITLE_REUSE_MS = 50;

interface Seen {
  title: string;
  epoch: number;
  at: number;
}

export class TitleReuse {
  /** Bumped by anything that may change a title: a browser call starting or ending, a navigation. */
  private epoch = 0;
  /** Browser calls in flight that may change a page. */
  private acting = 0;
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * A page navigated, raised a dialog or closed (or a typed operation ran, or the browser went): every read
   * kept so far stops standing, and is dropped (the map holds only reads that may still stand).
   */
  changed(): void {
    this.epoch++;
    this.seen.clear();
  }

  /** Runs a browser call that may change a page (anything but page.title()). */
  async act<T>(action: () => Promise<T>): Promise<T> {
    this.changed();
    this.acting++;
    try {
      return await action();
    } finally {
      this.acting--;
      this.changed();
    }
  }

  /**
   * Runs a read of `pageId`'s title (a page.title() of the snippet's or the envelope's, or a read that tells the
   * title with other things, `titleOf` picking it out), remembering the title when nothing else happened meanwhile.
   */
  async read<T>(pageId: string, read: () => Promise<T>, titleOf: (value: T) => unknown = (value) => value): Promise<T> {
    const epoch = this.epoch;
    const quiet = this.acting === 0;
    const value = await read();
    const title = titleOf(value);
    if (quiet && this.acting === 0 && this.epoch === epoch && typeof title === "string") {
      this.seen.set(pageId, { title, epoch, at: this.now() });
    }
    return value;
  }

  /** The title last read for `pageId`, if it still stands; undefined means read it again. */
  fresh(pageId: string): string | undefined {
    const seen = this.seen.get(pageId);
    if (!seen || seen.epoch !== this.epoch || this.acting > 0 || this.now() - seen.at > TITLE_REUSE_MS) return undefined;
    return seen.title;
  }
}
