import { describe, expect, it } from "vitest";
import { formatAims, judge, parseAim } from "../../bench/aims.js";
import { summarize, type Row } from "../../bench/stats.js";

const row = (aim: string, median: number, ratio?: number): Row => ({ name: "r", sample: summarize([median]), aim, ...(ratio === undefined ? {} : { ratio }) });

describe("bench aims", () => {
  it.each([
    ["≤ 1.5×", { op: "≤", value: 1.5, unit: "×" }],
    ["≥ 0.7×", { op: "≥", value: 0.7, unit: "×" }],
    ["≤ 2048 MB", { op: "≤", value: 2048, unit: "MB" }],
    ["≤ 15 MiB", { op: "≤", value: 15, unit: "MB" }],
    ["≤ 2 ms", { op: "≤", value: 2, unit: "ms" }],
    ["≥ 80 %", { op: "≥", value: 80, unit: "%" }],
    ["0", { op: "=", value: 0, unit: "" }],
  ])("reads %s", (text, aim) => {
    expect(parseAim(text)).toEqual(aim);
  });

  it("reads no aim from text that is not one", () => {
    expect(parseAim("fast")).toBeUndefined();
    expect(parseAim("≤ agent-browser's")).toBeUndefined();
  });

  it("judges × aims on the ratio and every other aim on the figure", () => {
    expect(judge("s", row("≤ 1.5×", 99, 1.4))?.met).toBe(true);
    expect(judge("s", row("≤ 1.5×", 1, 1.6))?.met).toBe(false);
    expect(judge("s", row("≥ 0.7×", 1, 0.41))?.met).toBe(false);
    expect(judge("s", row("≤ 2048 MB", 2530))?.met).toBe(false);
    expect(judge("s", row("≥ 80 %", 95.3))?.met).toBe(true);
    expect(judge("s", row("0", 0))?.met).toBe(true);
    expect(judge("s", row("0", 2))?.met).toBe(false);
  });

  it("leaves undecided an aim it cannot read or a × aim with no ratio, and skips rows with none", () => {
    expect(judge("s", row("≤ 1.5×", 3))?.met).toBeUndefined();
    expect(judge("s", row("quick", 3))?.met).toBeUndefined();
    expect(judge("s", { name: "r", sample: summarize([1]) })).toBeUndefined();
  });

  it("closes a run with every aim, marked, and the count met", () => {
    const text = formatAims([judge("lib", row("≤ 1.5×", 2, 2.1))!, judge("scale", row("0", 0))!]);
    expect(text).toContain("| lib | r | 2.1 | ≤ 1.5× | ✗ |");
    expect(text).toContain("| scale | r | 0 | 0 | ✓ |");
    expect(text).toContain("1 of 2 aims met.");
  });
});

describe("aims against a peer", () => {
  it("judges the cold call and one session's memory against agent-browser, and each added session on our figure", async () => {
    const { peerVerdicts } = await import("../../bench/peers/peer-aims.js");
    const rows = [
      { name: "cold first call, no daemon: navigate + title (ms, median of 5)", better: "lower" as const, cells: { betterwright: { value: 300 }, "agent-browser": { value: 233 } } },
      { name: "memory, 1 session(s) open: PSS of all its processes (MiB)", better: "lower" as const, cells: { betterwright: { value: 327 }, "agent-browser": { value: 206 } } },
      { name: "memory, each session added (1 → 10, MiB)", better: "lower" as const, cells: { betterwright: { value: 14.2 }, "agent-browser": { error: "x" } } },
    ];
    const verdicts = peerVerdicts(rows, "betterwright");
    expect(verdicts.map((v) => [v.measured, v.met])).toEqual([[1.29, true], [1.59, false], [14.2, true]]);
  });
});
