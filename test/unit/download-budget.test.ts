// What the downloads in progress may hold, counted together: which to stop,
// how the reservations grow, how a measure reads the incoming folder.
import { describe, expect, it } from "vitest";
import {
  downloadSlackBytes, downloadsToStop, INITIAL_DOWNLOAD_RESERVE_BYTES, measureDownloads, MIN_DOWNLOAD_SLACK_BYTES, reservationTarget, UNANNOUNCED,
  type DownloadGauge, type DownloadState,
} from "../../daemon/browser-worker/snippet-services/download-budget.js";

const MiB = 1024 * 1024;
const gauge = (id: string, bytes: number, reservedBytes: number, extra: Partial<DownloadGauge> = {}): DownloadGauge => ({
  id, bytes, reservedBytes, fileCapBytes: 10 * MiB, stoppable: true, ...extra,
});

describe("downloadsToStop", () => {
  const slack = 2 * MiB;
  it.each([
    ["nothing past its reservation", [gauge("a", MiB, MiB), gauge("b", 0, MiB)], []],
    ["past the per-file cap, whatever the slack", [gauge("a", 11 * MiB, 20 * MiB)], [{ id: "a", cause: "file-cap" }]],
    ["borrowing within the slack, all of them together", [gauge("a", MiB, 0), gauge("b", MiB, 0), gauge("c", 2 * MiB, 2 * MiB)], []],
    [
      "past the slack together: the furthest past their reservation first, until the rest fit",
      [gauge("a", MiB, 0), gauge("b", 2 * MiB, MiB), gauge("c", 3 * MiB, 0), gauge("d", 5 * MiB, 5 * MiB)],
      [{ id: "c", cause: "unreserved" }],
    ],
    [
      "twenty borrowers of 300 KiB: enough of them stop that at most the slack is borrowed",
      Array.from({ length: 20 }, (_, i) => gauge(`d${String(i).padStart(2, "0")}`, 300 * 1024, 0)),
      Array.from({ length: 14 }, (_, i) => ({ id: `d${String(i).padStart(2, "0")}`, cause: "unreserved" })),
    ],
    [
      "bytes nobody can stop still count: the borrowers stop, a download within its reservation does not",
      [gauge(UNANNOUNCED, 3 * MiB, 0, { stoppable: false }), gauge("a", 100, 0), gauge("b", MiB, 2 * MiB), gauge("c", 5 * MiB, 0, { stoppable: false, fileCapBytes: MiB })],
      [{ id: "a", cause: "unreserved" }],
    ],
  ] as const)("%s", (_name, gauges, expected) => {
    expect(downloadsToStop(gauges as readonly DownloadGauge[], slack)).toEqual(expected);
  });
});

describe("reservationTarget", () => {
  it.each([
    ["a new download reserves the floor", 0, 0, 50 * MiB, INITIAL_DOWNLOAD_RESERVE_BYTES],
    ["a floor never passes the per-file cap", 0, 0, 1_000_000, 1_000_000],
    ["far enough ahead", 400 * 1024, MiB, 50 * MiB, undefined],
    ["past half of it: twice the file", 600 * 1024, MiB, 50 * MiB, 2 * MiB],
    ["a burst: twice what the file holds now", 7 * MiB, MiB, 50 * MiB, 14 * MiB],
    ["never past the cap", 30 * MiB, 32 * MiB, 50 * MiB, 50 * MiB],
    ["at the cap already", 49 * MiB, 50 * MiB, 50 * MiB, undefined],
  ] as const)("%s", (_name, bytes, reserved, cap, expected) => {
    expect(reservationTarget(bytes, reserved, cap)).toBe(expected);
  });
});

describe("downloadSlackBytes", () => {
  it("is one per-file cap, never less than the minimum, and unbounded until the cap is known", () => {
    expect(downloadSlackBytes(1_000_000)).toBe(MIN_DOWNLOAD_SLACK_BYTES);
    expect(downloadSlackBytes(50 * MiB)).toBe(50 * MiB);
    expect(downloadSlackBytes(undefined)).toBe(Infinity);
  });
});

describe("measureDownloads", () => {
  const state = (id: string, fileName: string | undefined, extra: Partial<DownloadState> = {}): DownloadState => ({
    id, fileName, finalBytes: undefined, reservedBytes: 0, fileCapBytes: undefined, stopping: false, ...extra,
  });

  it("sizes each download from the listing, marks what cannot be stopped, and counts what nobody claims", () => {
    const listing = new Map([["g1.crdownload", 100], ["g2", 200], ["g3.crdownload", 300], ["g9.crdownload", 50], ["g8", 7]]);
    const gauges = measureDownloads(listing, [
      state("writing", "g1"),
      state("complete", "g2"),
      state("stopping", "g3", { stopping: true }),
      state("moved", "g4", { finalBytes: 400, reservedBytes: 512 }),
      state("unnamed", undefined),
    ]);
    expect(gauges).toEqual([
      { id: "writing", bytes: 100, reservedBytes: 0, fileCapBytes: undefined, stoppable: true },
      { id: "complete", bytes: 200, reservedBytes: 0, fileCapBytes: undefined, stoppable: false },
      { id: "stopping", bytes: 300, reservedBytes: 0, fileCapBytes: undefined, stoppable: false },
      { id: "moved", bytes: 400, reservedBytes: 512, fileCapBytes: undefined, stoppable: false },
      { id: "unnamed", bytes: 0, reservedBytes: 0, fileCapBytes: undefined, stoppable: true },
      { id: UNANNOUNCED, bytes: 57, reservedBytes: 0, fileCapBytes: undefined, stoppable: false },
    ]);
  });

  it("adds no gauge when every file is claimed", () => {
    expect(measureDownloads(new Map([["g1.crdownload", 1]]), [state("a", "g1")])).toHaveLength(1);
  });
});
