// Lanes: what one session's page calls may hold of the worker's main thread.
import { describe, expect, it } from "vitest";
import { LaneBudget, wireSize } from "../../daemon/browser-worker/lane-budget.js";
import { callKind, Lanes, RUNNING_PER_LANE, SLOT_HOLD_MS } from "../../daemon/browser-worker/lanes.js";
import { laneLimitsOf, LIMIT_DEFAULTS } from "../../shared/config-limits.js";

const limits = { maxCallArgBytes: 1_000, maxCallResultBytes: 1_000, maxSessionBytesInFlight: 2_500, maxSessionCallsInFlight: 40 };
const call = (args: unknown[] = []) => ({ ask: "call", target: "page", method: "title", args });

/** A call that finishes when told; `started` records the order calls started in. */
function gate(started: string[], name: string) {
  let open!: (value: unknown) => void;
  const done = new Promise((resolve) => (open = resolve));
  return { run: () => { started.push(name); return done; }, open: (value: unknown = null) => open(value) };
}

const codeOf = (promise: Promise<unknown>) => promise.then(() => "ok", (error: { code?: string }) => error.code);

describe("wireSize", () => {
  it("counts a long string in one step and stops past its bound", () => {
    expect(wireSize("x".repeat(5_000_000), 10)).toBeGreaterThan(5_000_000);
    expect(wireSize({ a: [1, "bc", null] }, 1e9)).toBeGreaterThan(10);
    const wide = Array.from({ length: 100_000 }, () => 1);
    expect(wireSize(wide, 100)).toBeGreaterThan(100);
  });
});

describe("LaneBudget", () => {
  it("refuses past each cap with LIMIT_EXCEEDED naming the limit, and gives back what a call released", () => {
    const budget = new LaneBudget(limits);
    expect(() => budget.admit(call(["x".repeat(2_000)]))).toThrow(expect.objectContaining({ code: "LIMIT_EXCEEDED", details: { limit: "maxCallArgBytes", value: 1_000 } }));
    const sizes = [budget.admit(call(["x".repeat(900)])), budget.admit(call(["x".repeat(900)]))];
    expect(() => budget.admit(call(["x".repeat(900)]))).toThrow(/maxSessionBytesInFlight/);
    budget.release(sizes[0]!);
    budget.admit(call(["x".repeat(900)]));
    const many = new LaneBudget(limits);
    for (let i = 0; i < 40; i++) many.admit(call());
    expect(() => many.admit(call())).toThrow(/maxSessionCallsInFlight/);
  });
});

describe("Lanes", () => {
  it("runs a session's calls a few at a time, in order, while another session's start at once", async () => {
    const lanes = new Lanes(limits);
    const started: string[] = [];
    const hog = Array.from({ length: 30 }, (_, i) => gate(started, `hog${i}`));
    const results = hog.map((g) => lanes.submit("hog", { message: call(), run: g.run }));
    expect(started).toHaveLength(RUNNING_PER_LANE);
    const other = gate(started, "other");
    const answer = lanes.submit("other", { message: call(), run: other.run });
    expect(started.at(-1)).toBe("other");
    other.open("fine");
    await expect(answer).resolves.toBe("fine");
    for (const g of hog) g.open();
    await Promise.all(results);
    expect(started.filter((n) => n.startsWith("hog"))).toEqual(hog.map((_, i) => `hog${i}`));
  });

  it("waits hold no slot, and screenshots run one at a time", async () => {
    const lanes = new Lanes(limits);
    const started: string[] = [];
    const waits = Array.from({ length: 20 }, (_, i) => gate(started, `wait${i}`));
    for (const w of waits) void lanes.submit("s", { message: { ask: "call", method: "waitForSelector", args: [] }, run: w.run });
    expect(started).toHaveLength(20);
    const shots = [gate(started, "shot1"), gate(started, "shot2")];
    const taken = shots.map((g) => lanes.submit("s", { message: { ask: "scope", name: "screenshot", args: [] }, run: g.run }));
    expect(started.at(-1)).toBe("shot1");
    shots[0]!.open();
    await taken[0];
    expect(started.at(-1)).toBe("shot2");
    shots[1]!.open();
    for (const w of waits) w.open();
    expect([callKind({ ask: "urlWait" }), callKind({ ask: "dialog" }), callKind({ ask: "call", method: "title" })]).toEqual(["waits", "waits", "call"]);
  });

  it("a call still running after SLOT_HOLD_MS gives its slot to the next (it waits on the page, not on this thread)", async () => {
    const lanes = new Lanes(limits);
    const started: string[] = [];
    const stuck = Array.from({ length: RUNNING_PER_LANE }, (_, i) => gate(started, `stuck${i}`));
    for (const g of stuck) void lanes.submit("s", { message: call(), run: g.run });
    const after = gate(started, "after");
    const answer = lanes.submit("s", { message: call(), run: after.run });
    expect(started).not.toContain("after");
    await new Promise((r) => setTimeout(r, SLOT_HOLD_MS * 3));
    expect(started).toContain("after");
    after.open("made");
    await expect(answer).resolves.toBe("made");
    for (const g of stuck) g.open();
  });

  it("refuses a result past maxCallResultBytes, and a call past the caps before it runs", async () => {
    const lanes = new Lanes(limits);
    expect(await codeOf(lanes.submit("s", { message: call(), run: async () => "y".repeat(5_000) }))).toBe("LIMIT_EXCEEDED");
    let ran = false;
    expect(() => lanes.submit("s", { message: call(["z".repeat(5_000)]), run: async () => { ran = true; } })).toThrow(/maxCallArgBytes/);
    expect(ran).toBe(false);
    expect(new Lanes().limits).toEqual(laneLimitsOf(LIMIT_DEFAULTS));
  });
});
