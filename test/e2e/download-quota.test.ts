// Twenty downloads at once in one approved run. Under small caps (1 MB per
// file, 3 MB per session, 5 MB for the store) the artifact folder, downloads
// in progress included, is sampled while they run: it never holds more than
// the global cap plus the documented slack, and what is kept fits the caps.
// Under the default caps, twenty small files at full speed are all kept.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { downloadSlackBytes } from "../../daemon/browser-worker/snippet-services/download-budget.js";
import { layoutFor } from "../../shared/paths.js";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const MB = 1_000_000;
const FILE_CAP = 1 * MB;
const SESSION_CAP = 3 * MB;
const GLOBAL_CAP = 5 * MB;
const SLACK = downloadSlackBytes(FILE_CAP);
const DOWNLOADS = 20;
// Chromium opens at most 6 connections to one host and port: the files come from 4 servers.
const FILE_SERVERS = 4;
const CHUNK = 64 * 1024;

/** Every byte under `dir`, dot-named folders (downloads in progress) included. */
function bytesUnder(dir: string): number {
  let total = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const full = path.join(dir, name);
    try {
      const st = statSync(full);
      total += st.isDirectory() ? bytesUnder(full) : st.size;
    } catch {
      // removed while we looked
    }
  }
  return total;
}

const servers: TestServer[] = [];
const homes: string[] = [];

afterAll(async () => {
  for (const home of homes) await destroyHome(home);
  for (const server of servers) await server.close();
});

/**
 * The twenty files, `bytesOf(i)` each, from FILE_SERVERS servers. No answer
 * starts until all twenty requests are in, so every download runs at once;
 * `chunkEveryMs` paces each at CHUNK bytes per tick (0: as fast as it is read).
 */
async function fileUrls(bytesOf: (i: number) => number, chunkEveryMs: number): Promise<string[]> {
  const waiting: (() => void)[] = [];
  const release = (): void => void waiting.splice(0).forEach((go) => go());
  const file = (i: number) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
    waiting.push(() => {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-disposition": `attachment; filename="f${i}.bin"` });
      const bytes = bytesOf(i);
      if (chunkEveryMs === 0) return void res.end(Buffer.alloc(bytes, 7));
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= bytes || res.destroyed) {
          clearInterval(timer);
          if (!res.destroyed) res.end();
          return;
        }
        const n = Math.min(CHUNK, bytes - sent);
        sent += n;
        res.write(Buffer.alloc(n, 7));
      }, chunkEveryMs);
    });
    if (waiting.length === DOWNLOADS) release();
    else setTimeout(release, 5_000);
  };
  const started: TestServer[] = [];
  for (let s = 0; s < FILE_SERVERS; s++) {
    const routes: Record<string, ReturnType<typeof file>> = {};
    for (let i = s; i < DOWNLOADS; i += FILE_SERVERS) routes[`/f${i}`] = file(i);
    started.push(await startServer(routes));
  }
  servers.push(...started);
  return Array.from({ length: DOWNLOADS }, (_, i) => `${started[i % FILE_SERVERS]!.url}/f${i}`);
}

interface Outcome { name: string; status: string; reason?: string; bytes: number; path?: string }

/** One approved run that starts every download at once (each in a frame of its own) and waits for all of them. */
async function downloadAll(home: string, urls: string[], env: NodeJS.ProcessEnv = {}) {
  const page = await startServer({ "/": "<title>many files</title>" });
  servers.push(page);
  const r = await runCli(["exec", "--session", "many", "--approve-downloads", "--timeout", "60", "-c", `
    await page.goto(${JSON.stringify(page.url)});
    await page.evaluate((urls) => { for (const url of urls) document.body.append(Object.assign(document.createElement("iframe"), { src: url })); }, ${JSON.stringify(urls)});
    const outcomes = [];
    for (let i = 0; i < ${DOWNLOADS}; i++) outcomes.push(await waitForDownload({ timeout: 40000 }));
    return outcomes.map((o) => ({ name: o.suggestedFilename, status: o.status, reason: o.reason, bytes: o.bytes, path: o.path }));`], { home, env });
  expect(r.json, r.stderr).toMatchObject({ ok: true });
  return r.json.result as Outcome[];
}

describe("twenty downloads at once", () => {
  it(`keep the store within the global cap plus ${SLACK} bytes while they run, under small caps`, async () => {
    const home = tempHome("bw-dlquota-");
    homes.push(home);
    const root = layoutFor(home, "default").artifactsRoot;
    // A long-used store (5,000 small files of another profile) makes every reservation take a few
    // milliseconds while the quota service looks at it: downloads then run ahead of their reservations.
    for (let s = 0; s < 50; s++) {
      const dir = path.join(root, "other", `s${s}`);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      for (let f = 0; f < 100; f++) writeFileSync(path.join(dir, `seed-${f}.bin`), "x");
    }
    const smallFiles = 2;
    // Two files that fit; eighteen of 8 MB, each at 64 KiB per 50 ms (about 26 MB/s for all twenty).
    const urls = await fileUrls((i) => (i < smallFiles ? 200_000 : 8 * MB), 50);
    let peak = 0;
    const timer = setInterval(() => { peak = Math.max(peak, bytesUnder(root)); }, 5);
    let outcomes: Outcome[];
    try {
      outcomes = await downloadAll(home, urls, {
        BETTERWRIGHT_ARTIFACT_DOWNLOAD_CAP_BYTES: String(FILE_CAP),
        BETTERWRIGHT_ARTIFACT_SESSION_CAP_BYTES: String(SESSION_CAP),
        BETTERWRIGHT_ARTIFACT_GLOBAL_CAP_BYTES: String(GLOBAL_CAP),
      });
    } finally {
      clearInterval(timer);
    }
    expect(peak, `peak ${peak} bytes`).toBeLessThanOrEqual(GLOBAL_CAP + SLACK);
    expect(outcomes).toHaveLength(DOWNLOADS);
    for (const o of outcomes.filter((x) => Number(/\d+/.exec(x.name)?.[0]) >= smallFiles)) {
      expect(o).toMatchObject({ status: "rejected", reason: "QUOTA_EXCEEDED" });
    }
    for (const o of outcomes.filter((x) => x.status === "accepted")) expect(statSync(o.path!).size).toBe(200_000);
    // Afterwards: nothing left in progress, and what the session keeps is within its cap.
    const incoming = path.join(root, "default", ".incoming");
    expect(existsSync(incoming) ? readdirSync(incoming).flatMap((pid) => readdirSync(path.join(incoming, pid))) : []).toEqual([]);
    expect(bytesUnder(path.join(root, "default", "many"))).toBeLessThanOrEqual(SESSION_CAP + 100_000);
  });

  it("keep every small file under the default caps, at full speed", async () => {
    const home = tempHome("bw-dlmany-");
    homes.push(home);
    const outcomes = await downloadAll(home, await fileUrls(() => 300_000, 0));
    expect(outcomes.map((o) => [o.status, o.bytes])).toEqual(Array.from({ length: DOWNLOADS }, () => ["accepted", 300_000]));
  });
});
