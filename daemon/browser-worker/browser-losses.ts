// Counts the times a session's browser went away (its pages dropped), so that
// a run can tell that the browser died under it. A call can fail with a
// "closed" error before the close event lands, so a run may wait a moment for
// the news.
export class BrowserLosses {
  #count = 0;
  readonly #waiters: (() => void)[] = [];

  /** Where the count stands now: a run keeps it, and asks `since` later. */
  mark(): number {
    return this.#count;
  }

  /** The browser went away: every waiter hears it at once. */
  note(): void {
    this.#count++;
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Whether the browser went away since `mark`, waiting up to `waitMs` for the news. */
  async since(mark: number, waitMs: number): Promise<boolean> {
    if (this.#count !== mark) return true;
    if (waitMs <= 0) return false;
    await new Promise<void>((resolve) => {
      const wake = () => { clearTimeout(timer); resolve(); };
      const timer = setTimeout(() => {
        const i = this.#waiters.indexOf(wake);
        if (i !== -1) this.#waiters.splice(i, 1);
        resolve();
      }, waitMs);
      this.#waiters.push(wake);
    });
    return this.#count !== mark;
  }
}
