// The crash matrix: three sessions each run a stream of execs (page loads,
// evaluations, screenshots, session state) through the real CLI while kill -9
// hits the daemon, the worker and Chromium at seeded random moments, each
// several times. Every exec ends with an envelope carrying a stable code
// within its budget plus a few seconds; the first exec of every session after
// each kill succeeds; transcripts hold every run whose envelope came back,
// in order, and nothing torn is ever read back.
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES, isErrorCode, type ErrorCode } from "../../shared/protocol/errors.js";
import { layoutFor, transcriptPath } from "../../shared/paths.js";
import { daemonPids, destroyHome, runCli, tempHome, type CliResult } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { childrenMatching, daemonProcessesOf, descendants, waitForExit, workersOf } from "../helpers/procs.js";
import { SeededRng } from "../helpers/seeded-rng.js";

const SEED = 0xc4a5_0009;
const SESSIONS = ["m0", "m1", "m2"];
const KILLS_PER_TARGET = 3;
const MIN_EXECS_PER_SESSION = 20;
const BUDGET_S = 10;
/** Past the budget: a daemon restart (and its lock take-over) plus process start-up on a loaded machine. */
const GRACE_MS = 12_000;

/** What a run cut short by a crash may end with: its pages were lost, its browser died, or its daemon did. */
const CRASH_CODES = ["SESSION_RESET", "BROWSER_DISCONNECTED", "DAEMON_UNAVAILABLE"];

type Target = "daemon" | "worker" | "chromium";

interface ExecRecord {
  session: string;
  index: number;
  startedAt: number;
  endedAt: number;
  result: CliResult;
}

interface Kill {
  target: Target;
  pid: number;
  at: number;
}

/** Each run lingers a little, so that kills land inside runs as well as between them. */
function snippet(server: TestServer, session: string, i: number): string {
  return `await new Promise((r) => setTimeout(r, ${150 + (i % 3) * 100})); ${work(server, session, i)}`;
}

function work(server: TestServer, session: string, i: number): string {
  switch (i % 4) {
    case 0:
      return `await page.goto(${JSON.stringify(`${server.url}/?session=${session}&i=${i}`)}); return page.title()`;
    case 1:
      return "return await page.evaluate(() => document.title + ' ' + location.pathname)";
    case 2:
      return "const shot = await screenshot(); return shot.bytes";
    default:
      return "state.n = (state.n ?? 0) + 1; return state.n";
  }
}

function findTarget(home: string, target: Target): number | undefined {
  const [daemon] = daemonPids(home).filter((pid) => daemonProcessesOf(home).includes(pid));
  if (daemon === undefined) return undefined;
  if (target === "daemon") return daemon;
  const [worker] = workersOf(daemon);
  if (worker === undefined || target === "worker") return worker;
  return childrenMatching(worker, /chrom/i)[0];
}

describe("the crash matrix", () => {
  let home: string;
  let server: TestServer;

  beforeAll(async () => {
    home = tempHome("bw-crash-matrix-");
    server = await startServer({ "/": "<title>matrix</title>" });
  });

  afterAll(async () => {
    await server?.close();
    await destroyHome(home);
  });

  it(`kill -9 of the daemon, the worker and Chromium (${KILLS_PER_TARGET} each) under three streams of execs`, async () => {
    const rng = new SeededRng(SEED);
    const records: ExecRecord[] = [];
    const kills: Kill[] = [];
    let killing = true;

    const stream = async (session: string) => {
      for (let i = 0; killing || i < MIN_EXECS_PER_SESSION; i++) {
        const startedAt = Date.now();
        const result = await runCli(["exec", "--session", session, "--timeout", String(BUDGET_S), "-c", snippet(server, session, i)], { home, timeoutMs: BUDGET_S * 1000 + GRACE_MS + 20_000 });
        records.push({ session, index: i, startedAt, endedAt: Date.now(), result });
      }
    };

    /** Waits until every session has finished an exec it started after `at`. */
    const settledAfter = async (at: number, ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until && !SESSIONS.every((s) => records.some((r) => r.session === s && r.startedAt > at))) {
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    const killer = async () => {
      const order: Target[] = [];
      for (let k = 0; k < KILLS_PER_TARGET; k++) order.push(...(["daemon", "worker", "chromium"] as Target[]));
      // A seeded shuffle: the order of targets differs, every target is hit as often.
      for (let i = order.length - 1; i > 0; i--) {
        const j = rng.int(0, i);
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      await settledAfter(0, 60_000);
      for (const target of order) {
        await new Promise((r) => setTimeout(r, rng.int(300, 2_500)));
        let pid: number | undefined;
        for (let tries = 0; tries < 100 && pid === undefined; tries++) {
          pid = findTarget(home, target);
          if (pid === undefined) await new Promise((r) => setTimeout(r, 100));
        }
        expect(pid, `no ${target} to kill`).toBeDefined();
        try {
          process.kill(pid!, "SIGKILL");
        } catch {
          continue; // it exited on its own meanwhile
        }
        const kill = { target, pid: pid!, at: Date.now() };
        kills.push(kill);
        await settledAfter(kill.at, 60_000);
      }
      killing = false;
    };

    const started = Date.now();
    await Promise.all([killer(), ...SESSIONS.map(stream)]);
    const elapsed = Date.now() - started;

    // 1. Every exec ended in time with an envelope and a stable code.
    const codes = new Map<string, number>();
    for (const r of records) {
      const where = `${r.session}#${r.index} (exit ${r.result.code})\nstdout: ${r.result.stdout.slice(0, 400)}\nstderr: ${r.result.stderr.slice(0, 800)}`;
      expect(r.result.json, where).toBeDefined();
      expect(r.endedAt - r.startedAt, where).toBeLessThan(BUDGET_S * 1000 + GRACE_MS);
      const code = r.result.json.ok ? "ok" : r.result.json.error.code;
      codes.set(code, (codes.get(code) ?? 0) + 1);
      if (!r.result.json.ok) {
        expect(isErrorCode(code), where).toBe(true);
        // These snippets cannot fail on their own: only a crash can stop them, and it is named as one.
        expect(CRASH_CODES, where).toContain(code);
      }
      expect(r.result.code, where).toBe(r.result.json.ok ? 0 : ERROR_CODES[code as ErrorCode].exit);
      expect(r.result.stderr, where).not.toMatch(/\n\s+at .+:\d+:\d+/);
    }

    // 2. After each kill, each session's first exec started later succeeded.
    for (const kill of kills) {
      for (const session of SESSIONS) {
        const next = records.filter((r) => r.session === session && r.startedAt > kill.at).sort((a, b) => a.startedAt - b.startedAt)[0];
        expect(next, `${session} after killing the ${kill.target}`).toBeDefined();
        expect(next!.result.json, `${session} after killing the ${kill.target} (pid ${kill.pid})\n${next!.result.stdout}\n${next!.result.stderr}`).toMatchObject({ ok: true });
      }
    }

    // 3. Transcripts: every returned run is there, sequence numbers only go up, nothing torn is read.
    let tornLines = 0;
    for (const session of SESSIONS) {
      const transcript = await runCli(["transcript", "--session", session, "--json"], { home });
      expect(transcript.code, transcript.stderr).toBe(0);
      const entries = transcript.stdout.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as { seq: number; runId: string });
      const seqs = entries.map((e) => e.seq);
      expect(seqs, session).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size, session).toBe(seqs.length);
      const recorded = new Set(entries.map((e) => e.runId));
      const returned = records.filter((r) => r.session === session && r.result.json?.runId && r.result.json.seq > 0);
      for (const r of returned) expect(recorded.has(r.result.json.runId), `${session}#${r.index} ${r.result.json.runId}`).toBe(true);
      // On disk, a line torn by a daemon killed mid-append is the only kind of bad line, one per daemon kill at most;
      // no reader ever returns it, and the next line starts on a line of its own.
      const raw = readFileSync(transcriptPath(layoutFor(home), session), "utf8").split("\n").filter(Boolean);
      const torn = raw.filter((line) => { try { JSON.parse(line); return false; } catch { return true; } });
      tornLines += torn.length;
      expect(torn.length, session).toBeLessThanOrEqual(kills.filter((k) => k.target === "daemon").length);
      expect(raw.length - torn.length, session).toBe(entries.length);
      // Runs the daemon finished but could not report (it was killed first) are the only extras.
      const lost = records.filter((r) => r.session === session && !(r.result.json?.seq > 0)).length;
      expect(entries.length - returned.length, session).toBeLessThanOrEqual(lost);
    }

    // 4. The artifact store and the vault still read, and close --all leaves nothing running.
    const artifacts = await runCli(["artifacts", "list", "--json"], { home });
    expect(artifacts.code, artifacts.stderr).toBe(0);
    const listing = artifacts.json as { caps: { globalCapBytes: number; sessionCapBytes: number }; totalBytes: number; reservedBytes: number; sessions: { bytes: number }[]; artifacts: { path: string }[] };
    expect(listing.artifacts.length).toBeGreaterThan(0);
    expect(listing.totalBytes).toBeLessThanOrEqual(listing.caps.globalCapBytes);
    for (const usage of listing.sessions) expect(usage.bytes).toBeLessThanOrEqual(listing.caps.sessionCapBytes);
    // The index and the files agree, and no reservation of a killed worker is still held.
    for (const entry of listing.artifacts) expect(existsSync(entry.path), entry.path).toBe(true);
    expect(listing.reservedBytes).toBe(0);
    const vault = await runCli(["vault", "list", "--json"], { home });
    expect(vault.code, vault.stderr).toBe(0);
    const daemons = daemonProcessesOf(home);
    const tree = daemons.flatMap((pid) => [pid, ...descendants(pid)]);
    expect((await runCli(["close", "--all"], { home })).code).toBe(0);
    expect(await waitForExit(tree, 12_000)).toEqual([]);

    const byTarget = kills.reduce<Record<string, number>>((acc, k) => ({ ...acc, [k.target]: (acc[k.target] ?? 0) + 1 }), {});
    const failures = records.filter((r) => !r.result.json.ok).map((r) => `${r.session}#${r.index} ${r.result.json.error.code}: ${r.result.json.error.message.slice(0, 160)}`);
    const slowest = Math.max(...records.map((r) => r.endedAt - r.startedAt));
    console.info(`crash matrix: ${records.length} execs in ${Math.round(elapsed / 1000)} s (slowest ${slowest} ms, budget ${BUDGET_S} s); kills ${JSON.stringify(byTarget)}; outcomes ${JSON.stringify(Object.fromEntries(codes))}; torn transcript lines on disk ${tornLines}\n${failures.join("\n")}`);
    expect(kills).toHaveLength(KILLS_PER_TARGET * 3);
  });
});
