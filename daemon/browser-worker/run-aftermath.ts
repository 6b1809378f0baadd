// What a session's next run waits for before it starts: the last run's
// aftermath (its realm confirming the end, the browser calls it started), and
// nothing once that is over, so that a run after a finished one starts
// without a wait or a timer.

export class RunAftermath {
  private pending: Promise<void> | undefined;

  /** The next run waits for `aftermath`, instead of what it waited for before. */
  set(aftermath: Promise<unknown>): void {
    const pending: Promise<void> = aftermath.then(
      () => { if (this.pending === pending) this.pending = undefined; },
      () => { if (this.pending === pending) this.pending = undefined; },
    );
    this.pending = pending;
  }

  /** Resolves when the aftermath is over or at `deadline` (`now()`'s clock), whichever comes first. */
  async wait(deadline: number, now: () => number): Promise<void> {
    if (!this.pending) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.pending, new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - now()))))]);
    clearTimeout(timer);
  }
}
