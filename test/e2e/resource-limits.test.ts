// Resource limits: a home on a full file system and on a read-only one give
// errors a user understands and corrupt nothing; a snippet that returns
// 100 MB, opens 200 pages or logs a million lines is bounded and its session
// goes on. The small file systems are mounts (test/helpers/small-fs.ts: a
// tmpfs as root, fuse2fs otherwise); where none can be made those suites skip and say why.
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_RESULT_BYTES } from "../../shared/protocol/framing.js";
import { transcriptPath, layoutFor } from "../../shared/paths.js";
import { MAX_CONSOLE_ENTRIES, MAX_CONSOLE_TEXT, MAX_PAGES_PER_SESSION } from "../../daemon/browser-worker/session.js";
import { daemonPids, destroyHome, runCli, tempHome, withCanary, type CliResult } from "../helpers/cli.js";
import { alive, daemonProcessesOf, waitForExit } from "../helpers/procs.js";
import { fillUp, free, mountSmallFs, remount, smallFsUnavailable, unmountSmallFs } from "../helpers/small-fs.js";
import { describeNeeding } from "../helpers/needs.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const STACK_FRAME = /\n\s+at .+:\d+:\d+/;

function warningCodes(result: CliResult): string[] {
  return (result.json?.warnings ?? []).map((w: { code: string }) => w.code);
}

/** Every line of the transcript parses: nothing torn was kept. */
function transcriptLines(home: string, session = "default"): { runId: string; seq: number }[] {
  const file = transcriptPath(layoutFor(home), session);
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
  return lines.map((line) => JSON.parse(line) as { runId: string; seq: number });
}

function litter(home: string): string[] {
  return readdirSync(home).filter((name) => name.endsWith(".tmp") || /^daemon.*\.(sock|json)$/.test(name));
}

const noSmallFs = smallFsUnavailable();

describeNeeding(noSmallFs, "a home on a full file system", () => {
  let mount: string;
  let home: string;
  let server: TestServer;

  beforeAll(async () => {
    mount = mountSmallFs(64, "bw-full-");
    home = path.join(mount, "home");
    mkdirSync(home, { mode: 0o700 });
    withCanary(home);
    server = await startServer({ "/": "<title>ok</title><p>fine</p>" });
  });

  afterAll(async () => {
    await server?.close();
    await destroyHome(home);
    unmountSmallFs(mount);
  });

  const exec = (code: string, extra: string[] = []) => runCli(["exec", ...extra, "-c", code], { home });

  it("keeps serving once the disk fills: results still arrive, what could not be written is named, nothing is torn", async () => {
    const first = await exec(`await page.goto(${JSON.stringify(server.url)}); return page.title()`);
    expect(first.json, first.stderr).toMatchObject({ ok: true, result: "ok" });
    const [pid] = daemonPids(home) as [number];
    const filler = fillUp(mount);

    // The transcript's last page may still hold a few lines; write until the disk says no.
    const runs: CliResult[] = [];
    for (let i = 0; i < 20 && !runs.some((r) => warningCodes(r).includes("TRANSCRIPT_NOT_SAVED")); i++) {
      runs.push(await exec(`return ${JSON.stringify(`run ${i} `)} + "z".repeat(1500)`));
    }
    for (const run of runs) {
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.json.result).toMatch(/^run \d+ z+$/);
    }
    const refused = runs.find((r) => warningCodes(r).includes("TRANSCRIPT_NOT_SAVED"))!;
    expect(refused, "the transcript never filled up").toBeDefined();
    expect(refused.json.warnings.find((w: { code: string }) => w.code === "TRANSCRIPT_NOT_SAVED").message).toMatch(/no space left on the device \(ENOSPC\)/);

    // A screenshot has nowhere to go: the snippet fails with the reason in plain words, and the refusal keeps its code.
    const shot = await exec("await screenshot(); return 'shot'");
    expect(shot.code, shot.stdout + shot.stderr).toBe(3);
    expect(shot.json.ok).toBe(false);
    expect(shot.json.error.code).toBe("STORAGE_UNAVAILABLE");
    expect(shot.json.error.message).toMatch(/no space left on the device/);
    expect(shot.stdout + shot.stderr).not.toMatch(STACK_FRAME);

    // A long result cannot be spilled: its preview still arrives, and the envelope says the rest was not saved.
    const long = await exec("return 'y'.repeat(50000)");
    expect(long.json).toMatchObject({ ok: true, truncated: true });
    expect(warningCodes(long)).toContain("OUTPUT_NOT_SAVED");

    // Every line on disk parses, and it holds exactly the runs that were not told otherwise.
    const recorded = new Set(transcriptLines(home).map((e) => e.runId));
    for (const run of [...runs, shot, long]) {
      expect(recorded.has(run.json.runId), `run ${run.json.seq}`).toBe(!warningCodes(run).includes("TRANSCRIPT_NOT_SAVED"));
    }
    expect(alive(pid)).toBe(true);

    // Space again: everything works, on the same daemon.
    free(filler);
    const after = await exec("await screenshot(); return page.title()");
    expect(after.json, after.stdout).toMatchObject({ ok: true, result: "ok", warnings: [] });
    expect(after.json.artifacts).toHaveLength(1);
    expect(transcriptLines(home).map((e) => e.runId)).toContain(after.json.runId);
    expect(daemonPids(home)).toEqual([pid]);
  });

  it("a daemon that cannot start on a full disk says so (exit 3) and leaves no socket, info or temp file behind", async () => {
    const fresh = path.join(mount, "fresh");
    mkdirSync(fresh, { mode: 0o700 });
    await runCli(["close", "--all"], { home });
    const filler = fillUp(mount, ".filler2");
    try {
      const result = await runCli(["exec", "-c", "return 1"], { home: fresh });
      expect(result.code, result.stdout + result.stderr).toBe(3);
      expect(result.json.error.code).toBe("DAEMON_UNAVAILABLE");
      // The first file it writes: daemon.json on a tmpfs, its log where making a file takes a block (ext2).
      expect(result.json.error.message).toMatch(/cannot start: cannot write .*daemon\.(json|log): no space left on the device \(ENOSPC\)/);
      expect(result.stderr).not.toMatch(STACK_FRAME);
      expect(await waitForExit(daemonProcessesOf(fresh), 5_000)).toEqual([]);
      expect(litter(fresh)).toEqual([]);
    } finally {
      free(filler);
    }
    // With room again, the same home starts.
    const ok = await runCli(["exec", "-c", "return 'started'"], { home: fresh });
    expect(ok.json, ok.stdout + ok.stderr).toMatchObject({ ok: true, result: "started" });
    await destroyHome(fresh);
  });
});

describeNeeding(noSmallFs, "a home on a read-only file system", () => {
  let mount: string;
  let home: string;

  beforeAll(() => {
    mount = mountSmallFs(64, "bw-ro-");
    home = path.join(mount, "home");
    mkdirSync(home, { mode: 0o700 });
    withCanary(home);
  });

  afterAll(async () => {
    try { if (mount) remount(mount, "rw"); } catch { /* already */ }
    await destroyHome(home);
    unmountSmallFs(mount);
  });

  it("refuses to start a daemon in plain words (exit 3), still reads what is there, and works again once writable", async () => {
    const first = await runCli(["exec", "-c", "return 'before'"], { home });
    expect(first.json).toMatchObject({ ok: true, result: "before" });
    const [pid] = daemonPids(home) as [number];
    expect((await runCli(["close", "--all"], { home })).code).toBe(0);
    expect(await waitForExit([pid], 12_000)).toEqual([]);
    const before = readFileSync(transcriptPath(layoutFor(home), "default"), "utf8");

    remount(mount, "ro");
    const refused = await runCli(["exec", "-c", "return 'during'"], { home });
    expect(refused.code, refused.stdout + refused.stderr).toBe(3);
    expect(refused.json.error.code).toBe("DAEMON_UNAVAILABLE");
    expect(refused.json.error.message).toMatch(/read-only \(EROFS\)/);
    expect(refused.stderr).not.toMatch(STACK_FRAME);

    // Reading needs no writes.
    const transcript = await runCli(["transcript", "--json"], { home });
    expect(transcript.code, transcript.stderr).toBe(0);
    expect(transcript.stdout).toContain(first.json.runId);
    const sessions = await runCli(["sessions"], { home });
    expect(sessions.code, sessions.stderr).toBe(0);
    const doctor = await runCli(["doctor", "--json"], { home });
    expect(doctor.code).toBe(3);
    expect(JSON.stringify(doctor.json)).toMatch(/not writable/);
    expect(daemonProcessesOf(home)).toEqual([]);

    remount(mount, "rw");
    expect(readFileSync(transcriptPath(layoutFor(home), "default"), "utf8")).toBe(before);
    const again = await runCli(["exec", "-c", "return 'after'"], { home });
    expect(again.json, again.stdout + again.stderr).toMatchObject({ ok: true, result: "after" });
    expect(transcriptLines(home).map((e) => e.runId)).toEqual([first.json.runId, again.json.runId]);
  });
});

describe("snippets that push the bounds", () => {
  let home: string;
  let server: TestServer;

  beforeAll(async () => {
    home = tempHome("bw-bounds-");
    server = await startServer({ "/": "<title>bounds</title>" });
  });

  afterAll(async () => {
    await server?.close();
    await destroyHome(home);
  });

  const exec = (code: string, timeout = 60) => runCli(["exec", "--session", "big", "--timeout", String(timeout), "-c", code], { home });

  it("a 100 MB result is cut to a preview in the worker; the session and its worker go on", async () => {
    const warm = await exec(`await page.goto(${JSON.stringify(server.url)}); return 1`);
    expect(warm.json.ok).toBe(true);
    const big = await exec("return 'x'.repeat(100 * 1000 * 1000)");
    expect(big.code, big.stderr).toBe(0);
    expect(big.json).toMatchObject({ ok: true, truncated: true });
    expect(big.json.result).toBeUndefined();
    expect(big.json.preview.length).toBeLessThanOrEqual(2001);
    expect(big.json.preview.startsWith('"xxx')).toBe(true);
    const warning = big.json.warnings.find((w: { code: string }) => w.code === "OUTPUT_NOT_SAVED");
    expect(warning.message).toContain(String(MAX_RESULT_BYTES));
    expect(big.stdout.length).toBeLessThan(20_000);

    // Same worker (no SESSION_RESET), same page.
    const next = await exec("return page.title()");
    expect(next.json).toMatchObject({ ok: true, result: "bounds", warnings: [] });
  });

  it("opening 200 pages stops at the documented bound with LIMIT_EXCEEDED; closing pages makes room again", async () => {
    const flood = await exec("for (let i = 0; i < 200; i++) await openPage(); return 'unreachable'");
    expect(flood.code).toBe(1);
    expect(flood.json.error.code).toBe("LIMIT_EXCEEDED");
    expect(flood.json.error.message).toContain(String(MAX_PAGES_PER_SESSION));
    expect(flood.json.pages).toHaveLength(MAX_PAGES_PER_SESSION);

    const tidy = await exec("const all = pages(); for (const p of all.slice(1)) await closePage(p.pageId); usePage(all[0].pageId); const p = await openPage(); return pages().length");
    expect(tidy.json, tidy.stdout).toMatchObject({ ok: true, result: 2 });
  });

  it("a million console lines, and one line of 10 MB, are captured up to their bounds", async () => {
    const snippetSide = await exec("for (let i = 0; i < 1e6; i++) console.log('line', i); return 'logged'");
    expect(snippetSide.json).toMatchObject({ ok: true, result: "logged" });
    expect(snippetSide.json.console).toHaveLength(MAX_CONSOLE_ENTRIES);
    expect(snippetSide.json.console[0].text).toBe("line 0");

    const wide = await exec("console.log('w'.repeat(10e6)); return 'wide'");
    expect(wide.json).toMatchObject({ ok: true, result: "wide" });
    expect(wide.json.console[0].text.length).toBeLessThanOrEqual(MAX_CONSOLE_TEXT + 1);

    // The page's own console goes through the browser's protocol one message at a time: 20,000 is plenty to show the cap.
    const pageSide = await exec("await page.evaluate(() => { for (let i = 0; i < 20000; i++) console.log('page', i) }); return 'page logged'", 90);
    expect(pageSide.json).toMatchObject({ ok: true, result: "page logged" });
    expect(pageSide.json.console.length).toBeLessThanOrEqual(MAX_CONSOLE_ENTRIES);

    const after = await exec("return 'still here'");
    expect(after.json).toMatchObject({ ok: true, result: "still here", console: [] });
  });
});
