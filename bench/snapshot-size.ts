// npm run build && node dist/bench/snapshot-size.js: the size of an agent
// snapshot of three fixed pages (full, --interactive, --diff after one
// change) next to Playwright's own ariaSnapshot({ mode: "ai" }) of the same
// page, in characters and UTF-8 bytes. Writes JSON to bench/results/.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { BetterWright } from "../client/index.js";
import { findBrowser } from "../shared/browser-discovery.js";
import { layoutFor } from "../shared/paths.js";
import { isProcessAlive } from "../shared/process-alive.js";
import { SNAPSHOT_PAGES, startSnapshotPages, type SnapshotPage } from "./snapshot-pages.js";

interface Size {
  chars: number;
  bytes: number;
}

const size = (text: string): Size => ({ chars: text.length, bytes: Buffer.byteLength(text) });

/** The whole capture of a snapshot, read part by part with its cursor. */
async function wholeSnapshot(bw: BetterWright, args: Record<string, unknown>): Promise<string> {
  const parts: string[] = [];
  let result = (await bw.op("snapshot", { ...args, maxChars: 8_000 }, { session: "size" })).result as { text: string; cursor?: string };
  parts.push(result.text);
  while (result.cursor) {
    result = (await bw.op("snapshot", { cursor: result.cursor, maxChars: 8_000 }, { session: "size" })).result as { text: string; cursor?: string };
    parts.push(result.text);
  }
  return parts.join("\n");
}

/** One small change per page: a field's value, a cell's status, a paragraph's end. */
const CHANGE: Record<SnapshotPage, string> = {
  form: "await page.fill('input[name=first]', 'Ada')",
  table: "await page.evaluate(() => { document.querySelectorAll('tbody tr')[150].children[2].textContent = 'cancelled' })",
  article: "await page.evaluate(() => { document.querySelectorAll('article p')[20].append(' (updated)') })",
};

const root = fileURLToPath(new URL("..", import.meta.url));
const browserPath = findBrowser({ explicit: null, headless: true }).found?.path;
if (!browserPath) throw new Error("no Chromium found; run `betterwright setup`");
const server = await startSnapshotPages();
const home = mkdtempSync(path.join(tmpdir(), "bw-snapshot-size-"));
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "" };
const bw = new BetterWright({ home, env });
const raw = await chromium.launch({ executablePath: browserPath, headless: true });
const results: Record<string, Record<string, Size | number>> = {};
try {
  for (const name of Object.keys(SNAPSHOT_PAGES) as SnapshotPage[]) {
    const url = `${server.url}/${name}`;
    const page = await raw.newPage();
    await page.goto(url);
    const playwright = size(await page.ariaSnapshot({ mode: "ai" }));
    await page.close();
    await bw.op("navigate", { url }, { session: "size" });
    const full = size(await wholeSnapshot(bw, {}));
    const interactive = size(await wholeSnapshot(bw, { interactive: true }));
    await bw.run(CHANGE[name], { session: "size" });
    const diff = size(await wholeSnapshot(bw, { diff: true }));
    results[name] = { playwright, full, interactive, diff, interactiveRatio: Math.round((interactive.bytes / playwright.bytes) * 1000) / 1000, fullRatio: Math.round((full.bytes / playwright.bytes) * 1000) / 1000 };
  }
} finally {
  await raw.close();
  const pid = (JSON.parse(readFileSync(layoutFor(home, "default").infoPath, "utf8")) as { pid: number }).pid;
  await bw.close({ stopDaemon: true });
  for (let i = 0; i < 100 && isProcessAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  await server.close();
  rmSync(home, { recursive: true, force: true });
}
process.stdout.write("| page | Playwright ai (bytes) | full | --interactive | --diff after one change | full / Playwright | interactive / Playwright |\n|---|---|---|---|---|---|---|\n");
for (const [name, r] of Object.entries(results)) {
  const b = (k: string) => (r[k] as Size).bytes;
  process.stdout.write(`| ${name} | ${b("playwright")} | ${b("full")} | ${b("interactive")} | ${b("diff")} | ${r.fullRatio} | ${r.interactiveRatio} |\n`);
}
const dir = path.join(root, "..", "bench", "results");
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `snapshot-size-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
writeFileSync(file, `${JSON.stringify({ node: process.versions.node, browser: browserPath, results }, null, 2)}\n`);
process.stdout.write(`\nJSON: ${file}\n`);
