// When a run's own page.title() may stand in for the envelope's read of that
// page's title at the end of the run (one browser round trip saved). It may
// only when nothing could have changed the title since the read began: no
// other browser call of the session started, ended or is still in flight, no
// page of the session navigated or raised a dialog, and the read ended at
// most TITLE_REUSE_MS before the envelope. Nothing carries over between runs.

/** How old a run's own title read may be and still stand in for the envelope's. */
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

  /** A page navigated, raised a dialog or closed. */
  changed(): void {
    this.epoch++;
  }

  /** Runs a browser call that may change a page (anything but page.title()). */
  async act<T>(action: () => Promise<T>): Promise<T> {
    this.epoch++;
    this.acting++;
    try {
      return await action();
    } finally {
      this.acting--;
      this.epoch++;
    }
  }

  /** Runs the snippet's page.title() on `pageId`, remembering its answer when nothing else happened meanwhile. */
  async read<T>(pageId: string, title: () => Promise<T>): Promise<T> {
    const epoch = this.epoch;
    const quiet = this.acting === 0;
    const value = await title();
    if (quiet && this.acting === 0 && this.epoch === epoch && typeof value === "string") {
      this.seen.set(pageId, { title: value, epoch, at: this.now() });
    }
    return value;
  }

  /** The title the run read for `pageId`, if it still stands; undefined means read it again. */
  fresh(pageId: string): string | undefined {
    const seen = this.seen.get(pageId);
    if (!seen || seen.epoch !== this.epoch || this.acting > 0 || this.now() - seen.at > TITLE_REUSE_MS) return undefined;
    return seen.title;
  }

  /** Forgets what was read (at the start and end of every run). */
  forget(): void {
    this.seen.clear();
  }
}
