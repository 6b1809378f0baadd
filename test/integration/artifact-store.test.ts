// The artifact store on a real file system: reservations, commits and
// evictions under the cross-process lock, two daemons' stores racing for the
// global cap, and the paths a snippet may name (artifactPath, setInputFiles).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ArtifactStore } from "../../daemon/artifacts/artifact-store.js";
import { checkFileArguments, refuseFileArguments, resolveInside, safeArtifactPath } from "../../daemon/browser-worker/snippet-services/artifact-paths.js";
import type { ArtifactCaps } from "../../shared/protocol/methods/artifacts.js";

const caps: ArtifactCaps = { screenshotCapBytes: 4000, downloadCapBytes: 8000, outputCapBytes: 4000, sessionCapBytes: 12_000, globalCapBytes: 20_000 };

function seed(root: string, rel: string, bytes: number, ageSeconds: number): string {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, Buffer.alloc(bytes, 1));
  const t = Date.now() / 1000 - ageSeconds;
  utimesSync(file, t, t);
  return file;
}

/** What the store holds: files, plus reservations (a file being written counts through its reservation). */
function committedAndReserved(root: string): number {
  const store = new ArtifactStore({ root, caps, pid: process.pid, log: () => {}, isAlive: () => true });
  const { reservations } = store.readLedger();
  const reserved = new Set(reservations.map((r) => r.rel));
  return store.scan().filter((f) => !reserved.has(f.rel)).reduce((n, f) => n + f.bytes, 0) + reservations.reduce((n, r) => n + r.bytes, 0);
}

describe("the artifact store", () => {
  const home = mkdtempSync(path.join(tmpdir(), "bw-store-"));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it("reserves, writes, commits; evicts the oldest first and never a pinned file", async () => {
    const root = path.join(home, "a1");
    const oldest = seed(root, "p1/s/oldest.bin", 3000, 300);
    const older = seed(root, "p2/s/older.bin", 3000, 200);
    const log: string[] = [];
    const store = new ArtifactStore({ root, caps: { ...caps, globalCapBytes: 8000 }, pid: process.pid, log: (l) => log.push(l) });
    const r = await store.reserve({ profile: "p1", session: "s", runId: "run1", kind: "screenshot", bytes: 2500, extension: "png" });
    expect(path.dirname(r.path)).toBe(path.join(root, "p1", "s"));
    expect(r.evicted.map((e) => e.path)).toEqual([oldest]);
    expect(existsSync(oldest)).toBe(false);
    writeFileSync(r.path, Buffer.alloc(2500, 2));
    const committed = await store.commit({ reservationId: r.reservationId, pinMs: 60_000 });
    expect(committed).toMatchObject({ path: r.path, bytes: 2500 });
    expect(statSync(path.join(root, ".quota-ledger.json")).mode & 0o777).toBe(0o600);
    expect(readdirSync(root)).not.toContain(".quota.lock");

    // Only `older` may go now; the pinned screenshot stays even though the next request cannot fit without it.
    await expect(store.reserve({ profile: "p2", session: "s", runId: "run2", kind: "download", bytes: 6000 })).rejects.toMatchObject({ code: "QUOTA_EXCEEDED" });
    expect(existsSync(older)).toBe(true);
    const fits = await store.reserve({ profile: "p2", session: "s", runId: "run2", kind: "download", bytes: 5000 });
    expect(fits.evicted.map((e) => e.path)).toEqual([older]);
    expect(existsSync(r.path)).toBe(true);
    await store.commit({ reservationId: fits.reservationId, discard: true });
    expect(store.readLedger().reservations).toEqual([]);
    expect(log.some((l) => l.includes("evicted artifact p1/s/oldest.bin"))).toBe(true);
  });

  it("refuses a file past its per-file cap at commit, and forgets reservations of a dead daemon", async () => {
    const root = path.join(home, "a2");
    const store = new ArtifactStore({ root, caps, pid: process.pid, log: () => {} });
    const r = await store.reserve({ profile: "p", session: "s", runId: "run", kind: "screenshot", bytes: 100 });
    writeFileSync(r.path, Buffer.alloc(caps.screenshotCapBytes + 1));
    await expect(store.commit({ reservationId: r.reservationId })).rejects.toMatchObject({ code: "QUOTA_EXCEEDED" });
    expect(existsSync(r.path)).toBe(false);

    const ghost = new ArtifactStore({ root, caps, pid: 2 ** 22 + 12345, log: () => {} });
    await ghost.reserve({ profile: "p", session: "s", runId: "run", kind: "download", bytes: 7000 });
    expect(store.readLedger().reservations).toEqual([]);
  });

  it("two daemons' stores writing at once keep files plus reservations under the global cap", async () => {
    const root = path.join(home, "a3");
    for (let i = 0; i < 6; i++) seed(root, `p${i % 2}/old/f${i}.bin`, 3000, 1000 - i);
    const a = new ArtifactStore({ root, caps, pid: process.pid, log: () => {} });
    const b = new ArtifactStore({ root, caps, pid: process.ppid, log: () => {} });
    let peak = 0;
    const write = async (store: ArtifactStore, profile: string, i: number) => {
      const r = await store.reserve({ profile, session: "new", runId: `r${i}`, kind: "screenshot", bytes: 2800 });
      peak = Math.max(peak, committedAndReserved(root));
      writeFileSync(r.path, Buffer.alloc(2800, 3));
      peak = Math.max(peak, committedAndReserved(root));
      await store.commit({ reservationId: r.reservationId, pinMs: 60_000 });
      peak = Math.max(peak, committedAndReserved(root));
    };
    await Promise.all([0, 1, 2].flatMap((i) => [write(a, "p0", i), write(b, "p1", i)]));
    expect(peak).toBeLessThanOrEqual(caps.globalCapBytes);
    const left = a.scan();
    expect(left.filter((f) => f.session === "new")).toHaveLength(6);
    // Each profile made room among its own files, oldest first: the one survivor is the newest of its profile.
    const survivors = left.filter((f) => f.session === "old").map((f) => path.basename(f.rel));
    expect(survivors).toHaveLength(1);
    expect(["f4.bin", "f5.bin"]).toContain(survivors[0]);
  });
});

describe("the artifact store among a worker's writes", () => {
  const home = mkdtempSync(path.join(tmpdir(), "bw-store-worker-"));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it("counts and evicts dot-files a worker wrote in its session folder", async () => {
    const root = path.join(home, "dots");
    const hidden = seed(root, "p/s/.hidden-bulk", 7000, 100);
    const store = new ArtifactStore({ root, caps, pid: process.pid, log: () => {} });
    expect(store.scan().map((f) => f.rel)).toContain("p/s/.hidden-bulk");
    // 7000 hidden bytes + 6000 more would pass the session's 12000: the dot-file goes, as any other file would.
    const r = await store.reserve({ profile: "p", session: "s", runId: "run", kind: "download", bytes: 6000 });
    expect(r.evicted.map((e) => e.path)).toEqual([hidden]);
    expect(existsSync(hidden)).toBe(false);
  });

  it("never follows a session folder swapped for a link: not to count, not to evict, not to write spilled output", async () => {
    const root = path.join(home, "swap");
    const elsewhere = path.join(home, "users-files");
    const precious = seed(elsewhere, "s/precious.bin", 3000, 500);
    seed(root, "p/s/own.bin", 100, 400);
    const store = new ArtifactStore({ root, caps: { ...caps, globalCapBytes: 4000 }, pid: process.pid, log: () => {} });
    expect(store.scan().map((f) => f.rel)).toEqual(["p/s/own.bin"]);
    // The worker swaps its session folder for a link to a folder of the user's holding a file of the same age.
    rmSync(path.join(root, "p", "s"), { recursive: true });
    symlinkSync(path.join(elsewhere, "s"), path.join(root, "p", "s"));
    expect(store.scan()).toEqual([]);
    await store.prune({ profile: "p" });
    expect(existsSync(precious)).toBe(true);
    await expect(store.writeNew({ profile: "p", session: "s", runId: "run", kind: "output", name: "result", extension: "txt" }, "spilled", 60_000)).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    expect(readdirSync(path.join(elsewhere, "s"))).toEqual(["precious.bin"]);
  });
});

describe("paths a snippet may name", () => {
  const root = mkdtempSync(path.join(tmpdir(), "bw-paths-"));
  const artifacts = path.join(root, "artifacts", "default");
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("artifactPath gives a path inside the session's folder and refuses traversal", () => {
    expect(safeArtifactPath(artifacts, "s1", "report.pdf")).toBe(path.join(artifacts, "s1", "report.pdf"));
    for (const bad of ["../x", "a/b", "..", ".hidden", "x\0y", "", "a".repeat(200), 5, "trailing."]) {
      expect(() => safeArtifactPath(artifacts, "s1", bad)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
  });

  it("file arguments must resolve, symlinks followed, to files inside the folder", () => {
    const dir = path.join(artifacts, "s2");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "ok.txt"), "ok");
    symlinkSync("/etc/passwd", path.join(dir, "escape.txt"));
    symlinkSync(path.join(dir, "ok.txt"), path.join(dir, "inside.txt"));
    expect(resolveInside(dir, "ok.txt")).toBe(path.join(dir, "ok.txt"));
    expect(resolveInside(dir, path.join(dir, "inside.txt"))).toBe(path.join(dir, "ok.txt"));
    for (const bad of ["/etc/passwd", "escape.txt", "../s2/../../../etc/passwd", "missing.txt", ".", { name: "x", buffer: "" }]) {
      expect(() => resolveInside(dir, bad)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
    expect(checkFileArguments(() => dir, "page", "setInputFiles", ["#f", ["ok.txt"], {}])).toEqual(["#f", [path.join(dir, "ok.txt")], {}]);
  });

  it("file arguments never reach the store's dot-named metadata, however they are spelled", () => {
    const dir = path.join(artifacts, "s3");
    mkdirSync(path.join(dir, ".sub"), { recursive: true });
    writeFileSync(path.join(dir, ".downloads.jsonl"), "{}\n");
    writeFileSync(path.join(dir, ".sub", "f.txt"), "f");
    symlinkSync(path.join(dir, ".downloads.jsonl"), path.join(dir, "history.txt"));
    for (const bad of [".downloads.jsonl", "../s3/.downloads.jsonl", path.join(dir, ".downloads.jsonl"), "history.txt", ".sub/f.txt"]) {
      expect(() => resolveInside(dir, bad), bad).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT", message: expect.stringContaining("metadata") }));
    }
    expect(() => safeArtifactPath(artifacts, "s3", ".downloads.jsonl")).toThrow(expect.objectContaining({ message: expect.stringContaining("metadata") }));
    expect(() => checkFileArguments(() => dir, "locator", "setInputFiles", ["/etc/passwd"])).toThrow(/outside/);
    expect(checkFileArguments(() => dir, "page", "click", ["/etc/passwd"])).toEqual(["/etc/passwd"]);
    expect(() => refuseFileArguments("frame", "setInputFiles", ["#f", "x"])).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });
});

