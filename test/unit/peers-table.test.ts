import { describe, expect, it } from "vitest";
import { formatPeersTable, ratiosToBest, type PeerRow } from "../../bench/peers/table.js";
import { parseStat, pointsInto } from "../../bench/peers/reap.js";

describe("the peers table", () => {
  it("puts each figure beside how many times the row's best it is, whichever way the row counts", () => {
    const lower: PeerRow = { name: "warm (ms)", better: "lower", cells: { a: { value: 90 }, b: { value: 4.5 }, c: { value: 1350 } } };
    const higher: PeerRow = { name: "calls/s", better: "higher", cells: { a: { value: 20 }, b: { value: 40 }, c: { error: "boom" } } };
    expect(ratiosToBest(lower)).toEqual({ a: 20, b: 1, c: 300 });
    expect(ratiosToBest(higher)).toEqual({ a: 2, b: 1 });
    const table = formatPeersTable([{ name: "a", version: "1.0" }, { name: "b" }, { name: "c" }], [lower, higher]);
    expect(table.split("\n")).toEqual([
      "| measurement | a 1.0 | b | c |",
      "|---|---|---|---|",
      "| warm (ms) | 90.0 (20.0×) | 4.50 (1.00×) | 1350 (300.0×) |",
      "| calls/s | 20.0 (2.00×) | 40.0 (1.00×) | failed: boom |",
      "",
    ]);
  });

  it("keeps the column of a tool that could not be measured, with the reason on one line and no pipe", () => {
    const row: PeerRow = { name: "warm (ms)", better: "lower", cells: { a: { value: 90 } } };
    const table = formatPeersTable([{ name: "a", note: "run directly" }, { name: "b", problem: "npm install failed: a | b\nnext line" }], [row]);
    expect(table).toContain("| measured | yes | no: npm install failed: a / b next line |");
    expect(table).toContain("| warm (ms) | 90.0 (1.00×) | — |");
    expect(table.endsWith("\n- a: run directly\n")).toBe(true);
  });
});

describe("finding a tool's processes", () => {
  it("reads state, parent and start time from /proc/<pid>/stat, whatever the command name holds", () => {
    const text = "4242 (agent (browser) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 3 0 987654 1000 10\n";
    expect(parseStat(text)).toEqual({ state: "S", ppid: 1, startTicks: "987654" });
  });

  it("counts a process as the tool's when its command line or working folder lies under the tool's folder", () => {
    const dirs = ["/tmp/bw-peers-x/agent-browser"];
    expect(pointsInto("/tmp/bw-peers-x/agent-browser/npm/node_modules/agent-browser/bin/agent-browser-linux-x64", "/", dirs)).toBe(true);
    expect(pointsInto("/usr/lib/chromium/chromium-headless-shell", "/tmp/bw-peers-x/agent-browser/ws", dirs)).toBe(true);
    expect(pointsInto("/usr/lib/chromium/chromium-headless-shell", "/tmp/bw-peers-x/agent-browser", dirs)).toBe(true);
    expect(pointsInto("/usr/lib/chromium/chromium-headless-shell", "/tmp/bw-peers-x/agent-browser-2", dirs)).toBe(false);
    expect(pointsInto("node other.js", "/work", dirs)).toBe(false);
  });
});
