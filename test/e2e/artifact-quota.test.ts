// The global cap is shared by every profile's daemon. With small caps set
// through the environment, two profiles' daemons take screenshots at the same
// time over a store already holding older files: the total on disk never
// passes the cap, the oldest files go first, and no file a result returned
// is deleted (when nothing else can go, the write is refused instead).
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layoutFor } from "../../shared/paths.js";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";

const GLOBAL_CAP = 1_000_000;
const SEED_BYTES = 100_000;
const SEEDS = 8;
const PROFILES = ["pa", "pb"];

/** A 200×200 page of noise: its PNG (about 120 KB) barely compresses. */
const NOISE_PAGE = `await page.setViewportSize({ width: 200, height: 200 });
await page.setContent('<body style="margin:0"><canvas id=c width=200 height=200></canvas><script>const x = document.getElementById("c").getContext("2d"); const d = x.createImageData(200, 200); for (let i = 0; i < d.data.length; i++) d.data[i] = i % 4 === 3 ? 255 : (Math.random() * 256) | 0; x.putImageData(d, 0, 0);</script>');`;

describe("quotas shared by every profile's daemon", () => {
  let home: string;
  let root: string;
  const env = { BETTERWRIGHT_ARTIFACT_GLOBAL_CAP_BYTES: String(GLOBAL_CAP), BETTERWRIGHT_ARTIFACT_SCREENSHOT_CAP_BYTES: "200000" };
  const exec = (profile: string, code: string) => runCli(["--profile", profile, "exec", "--session", "shots", "-c", code], { home, env });

  function diskTotal(): number {
    let total = 0;
    for (const profile of readdirSync(root)) {
      if (profile.startsWith(".")) continue;
      for (const session of readdirSync(path.join(root, profile))) {
        if (session.startsWith(".")) continue;
        for (const name of readdirSync(path.join(root, profile, session))) {
          if (name.startsWith(".")) continue;
          try { total += statSync(path.join(root, profile, session, name)).size; } catch { /* evicted meanwhile */ }
        }
      }
    }
    return total;
  }

  /** Runs `body` while sampling the disk total every 10 ms; returns its result and the largest total seen. */
  async function watched<T>(body: () => Promise<T>): Promise<{ value: T; peak: number }> {
    let peak = diskTotal();
    const timer = setInterval(() => { peak = Math.max(peak, diskTotal()); }, 10);
    try {
      const value = await body();
      return { value, peak: Math.max(peak, diskTotal()) };
    } finally {
      clearInterval(timer);
    }
  }

  const seedPath = (i: number) => path.join(root, PROFILES[i % 2]!, "old", `seed-${i}.bin`);

  beforeAll(() => {
    home = tempHome();
    root = layoutFor(home, "pa").artifactsRoot;
    // Older files of both profiles, seed-0 the oldest; no result ever referred to them.
    for (let i = 0; i < SEEDS; i++) {
      mkdirSync(path.dirname(seedPath(i)), { recursive: true, mode: 0o700 });
      writeFileSync(seedPath(i), Buffer.alloc(SEED_BYTES, i));
      const t = Date.now() / 1000 - 3600 + i * 60;
      utimesSync(seedPath(i), t, t);
    }
  });

  afterAll(async () => {
    await destroyHome(home);
  });

  it("keeps the total under the cap, evicts oldest first and keeps every file a result returned", async () => {
    const first = await watched(() => Promise.all(PROFILES.map((p) => exec(p, `${NOISE_PAGE} return [await screenshot(), await screenshot()];`))));
    for (const r of first.value) expect(r.json, r.stderr).toMatchObject({ ok: true });
    expect(first.peak).toBeLessThanOrEqual(GLOBAL_CAP);
    const returned = first.value.flatMap((r) => r.json.result.map((s: { path: string }) => s.path));
    expect(returned).toHaveLength(4);
    for (const p of returned) expect(existsSync(p)).toBe(true);

    // Oldest first, and each profile's writes make room among its own files only: within a profile, every seed
    // still there is newer than every seed evicted; and each eviction was reported.
    const gone = Array.from({ length: SEEDS }, (_, i) => i).filter((i) => !existsSync(seedPath(i)));
    const kept = Array.from({ length: SEEDS }, (_, i) => i).filter((i) => existsSync(seedPath(i)));
    expect(gone.length).toBeGreaterThan(0);
    for (const profile of [0, 1]) {
      const [goneHere, keptHere] = [gone, kept].map((list) => list.filter((i) => i % 2 === profile));
      if (goneHere.length && keptHere.length) expect(Math.max(...goneHere)).toBeLessThan(Math.min(...keptHere));
    }
    const warned = first.value.flatMap((r) => r.json.warnings).filter((w: { code: string }) => w.code === "ARTIFACT_EVICTED");
    expect(warned.map((w: { message: string }) => /seed-(\d+)\.bin/.exec(w.message)?.[1]).map(Number).sort()).toEqual(gone);

    // Again, asking for more than can be freed: the seeds go, then writes are refused; nothing returned is deleted.
    const second = await watched(() => Promise.all(PROFILES.map((p) => exec(p, `
      const out = [];
      for (let i = 0; i < 5; i++) {
        try { out.push({ path: (await screenshot()).path }); } catch (e) { out.push({ code: e.code }); }
      }
      return out;`))));
    expect(second.peak).toBeLessThanOrEqual(GLOBAL_CAP);
    const outcomes = second.value.flatMap((r) => r.json.result as { path?: string; code?: string }[]);
    expect(outcomes.some((o) => o.code === "QUOTA_EXCEEDED")).toBe(true);
    expect(outcomes.every((o) => o.path !== undefined || o.code === "QUOTA_EXCEEDED")).toBe(true);
    for (const p of [...returned, ...outcomes.flatMap((o) => (o.path ? [o.path] : []))]) expect(existsSync(p)).toBe(true);
    expect(Array.from({ length: SEEDS }, (_, i) => i).filter((i) => existsSync(seedPath(i)))).toEqual([]);

    // Both daemons report the same store and the caps set through the environment.
    const listing = await runCli(["--profile", "pb", "artifacts", "--all", "--json"], { home, env });
    expect(listing.json.caps).toMatchObject({ globalCapBytes: GLOBAL_CAP, screenshotCapBytes: 200_000 });
    expect(listing.json.totalBytes).toBe(diskTotal());
    expect(listing.json.artifacts.every((a: { protected: boolean }) => a.protected)).toBe(true);
  });
});
