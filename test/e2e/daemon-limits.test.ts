// The daemon's own bounds, set low through the environment: past the number of
// sessions, a new session's first exec is refused with LIMIT_EXCEEDED naming
// the limit and how to raise it, while the sessions it holds go on; past the
// number of runs waiting in one session's queue, the next exec is refused and
// the runs already accepted all finish in order.
import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, runCli, startCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

describe("sessions per daemon and queued runs per session", () => {
  let home: string;
  let server: TestServer;
  /** Responses of /hold, answered when the test says: a run waiting on one stays in flight however slow the machine. */
  const held: http.ServerResponse[] = [];
  const env = { BETTERWRIGHT_MAX_SESSIONS: "2", BETTERWRIGHT_MAX_QUEUED_EXECS: "2" };
  const exec = (session: string, code: string) => runCli(["exec", "--session", session, "-c", code], { home, env });
  const sessions = async (): Promise<{ session: string; queued: number }[]> => (await runCli(["sessions", "--json"], { home, env })).json?.daemons?.[0]?.sessions ?? [];
  const queuedIn = async (session: string): Promise<number> => (await sessions()).find((s) => s.session === session)?.queued ?? 0;

  beforeAll(async () => {
    home = tempHome("bw-limits-");
    server = await startServer({ "/hold": (_req, res) => { held.push(res); } });
  });

  afterAll(async () => {
    for (const res of held) res.end();
    await destroyHome(home);
    await server?.close();
  });

  it("refuses a session past the limit, naming it and how to raise it; the others are unaffected", async () => {
    expect((await exec("one", "state.n = 1; return 'one'")).json).toMatchObject({ ok: true, result: "one" });
    expect((await exec("two", "return 'two'")).json).toMatchObject({ ok: true, result: "two" });

    const third = await exec("three", "return 'three'");
    expect(third.code).toBe(1);
    expect(third.json).toMatchObject({ ok: false, error: { code: "LIMIT_EXCEEDED", retryable: false } });
    expect(third.json.error.message).toMatch(/2 sessions/);
    expect(third.json.error.message).toMatch(/maxSessions/);
    expect(third.json.error.message).toMatch(/BETTERWRIGHT_MAX_SESSIONS/);

    // The sessions it holds keep their state; the refused one was never made.
    expect((await exec("one", "return state.n")).json).toMatchObject({ ok: true, result: 1 });
    expect((await sessions()).map((s) => s.session).sort()).toEqual(["one", "two"]);

    // Closing one makes room.
    expect((await runCli(["close", "--session", "two"], { home, env })).code).toBe(0);
    expect((await exec("three", "return 'three'")).json).toMatchObject({ ok: true, result: "three" });
  });

  it("refuses a run past the queue limit of its session; the runs already accepted finish in order", async () => {
    // One running (held on a page the test answers) and two waiting in session one.
    const slow = (i: number) => i === 0 ? `await page.goto(${JSON.stringify(`${server.url}/hold`)}); return 0` : `return ${i}`;
    const accepted = [startCli(["exec", "--session", "one", "-c", slow(0)], { home, env })];
    for (const i of [1, 2]) {
      const before = await queuedIn("one");
      accepted.push(startCli(["exec", "--session", "one", "-c", slow(i)], { home, env }));
      for (let tries = 0; (await queuedIn("one")) <= before && tries < 100; tries++) await new Promise((r) => setTimeout(r, 50));
    }
    expect(await queuedIn("one")).toBe(2);

    const refused = await exec("one", "return 'too many'");
    expect(refused.json).toMatchObject({ ok: false, error: { code: "LIMIT_EXCEEDED", retryable: true } });
    expect(refused.json.error.message).toMatch(/maxQueuedExecs/);
    expect(refused.json.error.message).toMatch(/BETTERWRIGHT_MAX_QUEUED_EXECS/);

    // Another session is not held up by the full queue.
    expect((await exec("three", "return 'free'")).json).toMatchObject({ ok: true, result: "free" });

    for (const res of held.splice(0)) res.end("<title>released</title>");
    const results = await Promise.all(accepted.map((c) => c.result));
    expect(results.map((r) => r.json)).toEqual([0, 1, 2].map((i) => expect.objectContaining({ ok: true, result: i })));
    expect(results.map((r) => r.json.seq)).toEqual([...results.map((r) => r.json.seq)].sort((a, b) => a - b));
    // The refused run left no line in the transcript.
    const transcript = await runCli(["transcript", "--session", "one", "--json"], { home, env });
    expect(transcript.stdout).not.toContain("too many");
  });
});
