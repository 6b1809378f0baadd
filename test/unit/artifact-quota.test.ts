// The quota core, table-driven: per-file, per-session and global caps,
// oldest-first eviction, protection of pinned and in-progress files, and the
// ledger's upkeep.
import { describe, expect, it } from "vitest";
import {
  artifactFileName, kindOfFile, liveLedger, planSpace, protectedRels, repin, usageBySession, withPins,
  type Ledger, type Reservation, type SpaceRequest, type StoredFile,
} from "../../daemon/artifacts/quota-core.js";
import { ARTIFACT_DEFAULTS, resolveConfig } from "../../shared/config.js";
import type { ArtifactCaps } from "../../shared/protocol/methods/artifacts.js";

const caps: ArtifactCaps = { screenshotCapBytes: 100, downloadCapBytes: 500, outputCapBytes: 50, sessionCapBytes: 1000, globalCapBytes: 2000 };

const file = (profile: string, session: string, name: string, bytes: number, createdAtMs: number): StoredFile =>
  ({ rel: `${profile}/${session}/${name}`, profile, session, bytes, createdAtMs });
const reservation = (profile: string, session: string, name: string, bytes: number, extra: Partial<Reservation> = {}): Reservation =>
  ({ id: `r-${name}`, profile, session, kind: "download", rel: `${profile}/${session}/${name}`, bytes, pid: 1, runId: "run", expiresAtMs: 10_000, ...extra });
const ask = (bytes: number, extra: Partial<SpaceRequest> = {}): SpaceRequest =>
  ({ profile: "a", session: "s", kind: "screenshot", fileBytes: bytes, addBytes: bytes, ...extra });

interface Case {
  name: string;
  files: StoredFile[];
  reservations?: Reservation[];
  protect?: string[];
  request: SpaceRequest;
  expect: { ok: true; evict: string[] } | { ok: false; cap: "file" | "session" | "global" };
}

const cases: Case[] = [
  { name: "room to spare: nothing evicted", files: [file("a", "s", "x", 100, 1)], request: ask(50), expect: { ok: true, evict: [] } },
  { name: "over the per-file cap for its kind", files: [], request: ask(101), expect: { ok: false, cap: "file" } },
  { name: "a download may be larger than a screenshot", files: [], request: ask(400, { kind: "download" }), expect: { ok: true, evict: [] } },
  { name: "spilled output has its own cap", files: [], request: ask(60, { kind: "output" }), expect: { ok: false, cap: "file" } },
  {
    name: "session cap: the session's oldest go first, until it fits",
    files: [file("a", "s", "new", 330, 30), file("a", "s", "old", 330, 10), file("a", "s", "mid", 330, 20), file("b", "s", "other", 100, 1)],
    request: ask(100),
    expect: { ok: true, evict: ["a/s/old"] },
  },
  {
    name: "session cap never evicts another session's files",
    files: [file("a", "s", "x", 950, 10), file("a", "t", "older", 50, 1)],
    protect: ["a/s/x"],
    request: ask(100),
    expect: { ok: false, cap: "session" },
  },
  {
    name: "global cap: the requesting profile's oldest go, never an older file of another profile",
    files: [file("b", "s", "b1", 900, 5), file("a", "t", "a1", 900, 7), file("a", "s", "a2", 150, 9)],
    request: ask(100),
    expect: { ok: true, evict: ["a/t/a1"] },
  },
  {
    name: "global cap: a profile holding too little to make room is refused, and another profile's files stay",
    files: [file("b", "s", "b1", 1950, 5), file("a", "t", "a1", 50, 7)],
    request: ask(100),
    expect: { ok: false, cap: "global" },
  },
  {
    name: "protected files are skipped, the next oldest goes",
    files: [file("b", "s", "b1", 900, 5), file("a", "t", "a1", 900, 7), file("a", "s", "a2", 150, 9)],
    protect: ["a/t/a1"],
    request: ask(100),
    expect: { ok: true, evict: ["a/s/a2"] },
  },
  {
    name: "everything protected: refused, nothing evicted",
    files: [file("b", "s", "b1", 1000, 5), file("a", "t", "a1", 950, 7)],
    protect: ["b/s/b1", "a/t/a1"],
    request: ask(100),
    expect: { ok: false, cap: "global" },
  },
  {
    name: "reservations count against both caps",
    files: [file("a", "s", "old", 100, 1)],
    reservations: [reservation("a", "s", "incoming", 850)],
    request: ask(100),
    expect: { ok: true, evict: ["a/s/old"] },
  },
  {
    name: "a file still being written is counted once, through its reservation",
    files: [file("a", "s", "incoming", 400, 1)],
    reservations: [reservation("a", "s", "incoming", 500)],
    request: ask(100),
    expect: { ok: true, evict: [] },
  },
  {
    name: "growing a reservation accounts only the growth",
    files: [file("a", "s", "old", 400, 1)],
    reservations: [reservation("a", "s", "dl", 500)],
    request: ask(600, { kind: "download", fileBytes: 500, addBytes: 100 }),
    expect: { ok: true, evict: [] },
  },
  {
    name: "ties in age break by path, so every daemon picks the same file",
    files: [file("a", "s", "b", 600, 5), file("a", "s", "a", 600, 5)],
    request: ask(100),
    expect: { ok: true, evict: ["a/s/a"] },
  },
];

describe("planSpace", () => {
  for (const c of cases) {
    it(c.name, () => {
      const reservations = c.reservations ?? [];
      const plan = planSpace({ files: c.files, reservations, protectedRels: new Set([...(c.protect ?? []), ...reservations.map((r) => r.rel)]), request: c.request, caps });
      if (c.expect.ok) {
        expect(plan).toEqual({ ok: true, evict: expect.any(Array) });
        if (plan.ok) expect(plan.evict.map((f) => f.rel)).toEqual(c.expect.evict);
      } else {
        expect(plan).toMatchObject({ ok: false, cap: c.expect.cap });
      }
    });
  }

  it("after eviction, files plus reservations plus the request fit both caps, and only the requesting profile lost files", () => {
    // Profile b holds little: profile a, the one asking, has enough of its own to make room.
    const files = Array.from({ length: 30 }, (_, i) => file(i % 5 ? "a" : "b", `s${i % 3}`, `f${i}`, 60 + i, i));
    const plan = planSpace({ files, reservations: [], protectedRels: new Set(), request: ask(100), caps });
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    const gone = new Set(plan.evict.map((f) => f.rel));
    const left = files.filter((f) => !gone.has(f.rel));
    expect(left.reduce((n, f) => n + f.bytes, 0) + 100).toBeLessThanOrEqual(caps.globalCapBytes);
    expect(left.filter((f) => f.profile === "a" && f.session === "s").reduce((n, f) => n + f.bytes, 0) + 100).toBeLessThanOrEqual(caps.sessionCapBytes);
    expect(plan.evict.every((f) => f.profile === "a")).toBe(true);
    // Oldest first: everything evicted is older than everything of the profile kept.
    const newestEvicted = Math.max(...plan.evict.map((f) => f.createdAtMs));
    expect(left.filter((f) => f.profile === "a").every((f) => f.createdAtMs > newestEvicted)).toBe(true);
  });
});

describe("the ledger", () => {
  const ledger: Ledger = {
    reservations: [reservation("a", "s", "live", 10), reservation("a", "s", "expired", 10, { expiresAtMs: 50 }), reservation("a", "s", "dead", 10, { pid: 2 })],
    pins: [{ rel: "a/s/recent", untilMs: 200 }, { rel: "a/s/old", untilMs: 90 }],
  };

  it("drops expired entries and the reservations of daemons that are gone", () => {
    const live = liveLedger(ledger, 100, (pid) => pid === 1);
    expect(live.reservations.map((r) => r.rel)).toEqual(["a/s/live"]);
    expect(live.pins.map((p) => p.rel)).toEqual(["a/s/recent"]);
  });

  it("protects pinned files until their time and files being written", () => {
    expect([...protectedRels(liveLedger(ledger, 100, () => true), 100)].sort()).toEqual(["a/s/dead", "a/s/live", "a/s/recent"]);
    expect(protectedRels({ reservations: [], pins: ledger.pins }, 250).size).toBe(0);
  });

  it("a commit pin keeps the later expiry; a returned result restarts the 60 s window", () => {
    const pinned = withPins({ reservations: [], pins: [{ rel: "x", untilMs: 500 }] }, ["x", "y"], 300);
    expect(pinned.pins).toEqual([{ rel: "x", untilMs: 500 }, { rel: "y", untilMs: 300 }]);
    expect(repin(pinned, ["x"], 400).pins).toContainEqual({ rel: "x", untilMs: 400 });
  });
});

describe("names and usage", () => {
  it("names a file by kind, time and randomness; a hint cannot leave the folder or hide the file", () => {
    const at = Date.UTC(2024, 0, 2, 3, 4, 5, 678);
    expect(artifactFileName("screenshot", at, "ab12", undefined, "png")).toBe("screenshot-20240102T030405678Z-ab12.png");
    expect(artifactFileName("download", at, "ab12", "../../etc/passwd")).toBe("download-20240102T030405678Z-ab12-etc_passwd");
    expect(artifactFileName("download", at, "ab12", ".hidden..pdf")).toBe("download-20240102T030405678Z-ab12-hidden.pdf");
    expect(artifactFileName("output", at, "ab12", "result", "txt")).toBe("output-20240102T030405678Z-ab12-result.txt");
    expect(kindOfFile("download-x")).toBe("download");
    expect(kindOfFile("notes.txt")).toBe("other");
  });

  it("sums usage per session", () => {
    expect(usageBySession([file("a", "s", "1", 5, 1), file("a", "s", "2", 7, 2), file("b", "s", "3", 1, 3)])).toEqual([
      { profile: "a", session: "s", bytes: 12, files: 2 },
      { profile: "b", session: "s", bytes: 1, files: 1 },
    ]);
  });
});

describe("cap settings", () => {
  it("defaults to 10 MiB screenshots, 50 MiB downloads, 100 MiB per session, 1 GiB in all", () => {
    const { settings, explicit } = resolveConfig({ env: {}, flags: { home: "/nonexistent-bw-home" } });
    expect(settings.artifacts).toEqual(ARTIFACT_DEFAULTS);
    expect(ARTIFACT_DEFAULTS).toMatchObject({ screenshotCapBytes: 10 * 2 ** 20, downloadCapBytes: 50 * 2 ** 20, sessionCapBytes: 100 * 2 ** 20, globalCapBytes: 2 ** 30 });
    expect(explicit.artifacts).toBeUndefined();
  });

  it("reads the environment, states the caps explicitly, and names a bad value's source", () => {
    const { settings, explicit } = resolveConfig({ env: { BETTERWRIGHT_ARTIFACT_GLOBAL_CAP_BYTES: "4096", BETTERWRIGHT_ARTIFACT_DOWNLOAD_CAP_BYTES: "1000" }, flags: { home: "/nonexistent-bw-home" } });
    expect(settings.artifacts).toMatchObject({ globalCapBytes: 4096, downloadCapBytes: 1000, sessionCapBytes: ARTIFACT_DEFAULTS.sessionCapBytes });
    expect(explicit.artifacts).toEqual(settings.artifacts);
    expect(() => resolveConfig({ env: { BETTERWRIGHT_ARTIFACT_SESSION_CAP_BYTES: "10MB" }, flags: { home: "/nonexistent-bw-home" } }))
      .toThrow(/BETTERWRIGHT_ARTIFACT_SESSION_CAP_BYTES/);
  });
});
