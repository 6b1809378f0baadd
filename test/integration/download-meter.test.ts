// The worker's one measure of its downloads, over real files in a temporary
// incoming folder: downloads are counted together, files nobody has announced
// count too, and a stop decided before anyone listens is kept for them.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DownloadEntry, DownloadMeter } from "../../daemon/browser-worker/snippet-services/download-meter.js";

const MiB = 1024 * 1024;

describe("the download meter", () => {
  let dir: string;
  const removers: (() => void)[] = [];
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "bw-meter-"));
  });
  afterEach(() => {
    for (const remove of removers.splice(0)) remove();
    rmSync(dir, { recursive: true, force: true });
  });
  const write = (name: string, bytes: number) => writeFileSync(path.join(dir, name), Buffer.alloc(bytes));
  const meter = () => new DownloadMeter({ dir, slackBytes: () => 2 * MiB, pollMs: 60_000 });

  it("stops the download furthest past its reservation once all of them together pass the slack", () => {
    const m = meter();
    const stops: string[] = [];
    const grown: string[] = [];
    const entries = ["a", "b", "c"].map((id) => {
      const entry = new DownloadEntry(id, `g-${id}`);
      entry.onStop((cause, bytes) => stops.push(`${id} ${cause} ${bytes}`));
      entry.onGrowing = () => grown.push(id);
      return entry;
    });
    write("g-a.crdownload", MiB);
    write("g-b.crdownload", MiB);
    entries[1]!.reserved = MiB;
    for (const entry of entries) removers.push(m.add(entry));
    expect(stops).toEqual([]);
    write("g-c.crdownload", 1.5 * MiB);
    m.measure();
    expect(stops).toEqual([`c unreserved ${1.5 * MiB}`]);
    // The stopped one still counts while its bytes are there: the other borrower stops too; the one within its reservation grows on.
    grown.length = 0;
    m.measure();
    expect(stops).toEqual([`c unreserved ${1.5 * MiB}`, `a unreserved ${MiB}`]);
    expect(grown).toEqual(["b"]);
    // Once its bytes are gone, nothing more stops.
    rmSync(path.join(dir, "g-c.crdownload"));
    m.measure();
    expect(stops).toHaveLength(2);
  });

  it("counts files no download has announced, and keeps a stop for a listener that comes later", () => {
    const m = meter();
    write("unannounced.crdownload", 2 * MiB);
    write("g-a.crdownload", 100);
    const entry = new DownloadEntry("a", "g-a");
    removers.push(m.add(entry));
    const stops: string[] = [];
    entry.onStop((cause) => stops.push(cause));
    expect(stops).toEqual(["unreserved"]);
  });

  it("does not stop a complete file, whose size is judged when it is committed", () => {
    const m = meter();
    write("g-a", 3 * MiB);
    const entry = new DownloadEntry("a", "g-a");
    const stops: string[] = [];
    entry.onStop((cause) => stops.push(cause));
    removers.push(m.add(entry));
    expect(stops).toEqual([]);
    expect(entry.bytes).toBe(3 * MiB);
  });
});
