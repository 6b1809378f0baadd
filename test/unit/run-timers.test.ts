// A run's timers: bounded, cleared by either clear function, and silent once the run ends.
import { describe, expect, it } from "vitest";
import { MAX_TIMERS_PER_RUN, MIN_INTERVAL_MS, RunTimers } from "../../daemon/browser-worker/run-timers.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function timers() {
  let next = 1;
  const fired: number[] = [];
  const limits: string[] = [];
  return { fired, limits, timers: new RunTimers(() => next++, (id) => fired.push(id), (m) => limits.push(m)) };
}

describe("RunTimers", () => {
  it("fires a timeout once and an interval until cleared, no faster than the floor", async () => {
    const { fired, timers: t } = timers();
    const once = t.set("setTimeout", 0);
    const every = t.set("setInterval", 0);
    await sleep(MIN_INTERVAL_MS * 10);
    t.clear(every);
    const ticks = fired.filter((id) => id === every).length;
    await sleep(MIN_INTERVAL_MS * 3);
    expect(fired.filter((id) => id === once)).toEqual([once]);
    expect(ticks).toBeGreaterThanOrEqual(2);
    expect(ticks).toBeLessThanOrEqual(10); // the floor: a 0 ms interval ticks at most every 10 ms
    expect(fired.filter((id) => id === every)).toHaveLength(ticks);
  });

  it("refuses the timer past the bound with LIMIT_EXCEEDED and tells the run", () => {
    const { limits, timers: t } = timers();
    for (let i = 0; i < MAX_TIMERS_PER_RUN; i++) t.set(i % 2 ? "setInterval" : "setTimeout", 60_000);
    expect(() => t.set("setTimeout", 1)).toThrow(expect.objectContaining({ code: "LIMIT_EXCEEDED" }));
    expect(limits).toHaveLength(1);
    t.clear(1);
    expect(() => t.set("setTimeout", 60_000)).not.toThrow();
    t.end();
  });

  it("never fires after the run ended", async () => {
    const { fired, timers: t } = timers();
    t.set("setTimeout", 5);
    t.set("setInterval", MIN_INTERVAL_MS);
    t.end();
    await sleep(MIN_INTERVAL_MS * 4);
    expect(fired).toEqual([]);
  });
});
