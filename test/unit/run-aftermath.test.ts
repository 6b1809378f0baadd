import { describe, expect, it } from "vitest";
import { RunAftermath } from "../../daemon/browser-worker/run-aftermath.js";

const settledWithin = async (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe("a run's aftermath", () => {
  it("lets the next run start at once when there is none, or once it is over", async () => {
    const aftermath = new RunAftermath();
    expect(await settledWithin(aftermath.wait(Date.now() + 60_000, Date.now), 50)).toBe(true);
    let finish!: () => void;
    aftermath.set(new Promise<void>((resolve) => (finish = resolve)));
    const waiting = aftermath.wait(Date.now() + 60_000, Date.now);
    expect(await settledWithin(waiting, 50)).toBe(false);
    finish();
    expect(await settledWithin(waiting, 1_000)).toBe(true);
    // Over: the next wait does not even wait for a turn of the timers.
    expect(await settledWithin(aftermath.wait(Date.now() + 60_000, Date.now), 50)).toBe(true);
  });

  it("waits no longer than the deadline, and a failed aftermath is over too", async () => {
    const aftermath = new RunAftermath();
    aftermath.set(new Promise(() => {}));
    expect(await settledWithin(aftermath.wait(Date.now() + 30, Date.now), 2_000)).toBe(true);
    aftermath.set(Promise.reject(new Error("the realm did not confirm")));
    expect(await settledWithin(aftermath.wait(Date.now() + 60_000, Date.now), 1_000)).toBe(true);
  });

  it("waits for the latest aftermath, not one it replaced", async () => {
    const aftermath = new RunAftermath();
    let first!: () => void;
    aftermath.set(new Promise<void>((resolve) => (first = resolve)));
    aftermath.set(new Promise(() => {}));
    first();
    expect(await settledWithin(aftermath.wait(Date.now() + 60_000, Date.now), 100)).toBe(false);
  });
});
