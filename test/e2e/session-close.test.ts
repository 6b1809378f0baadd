// Closing a session with a run in flight and one queued: the run in flight
// ends at once and the queued one never starts, both with SESSION_CLOSING and
// the one reason the close was made with, wherever the run was (the daemon's
// queue, the worker); the closed session is gone (never brought back by a run
// that was waiting for it), and the next exec of that name starts a fresh
// session. A daemon that stops closes what its drain left, saying why.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeReasons } from "../../shared/protocol/close-reason.js";
import { destroyHome, runCli, startCli, tempHome, waitForRunInFlight } from "../helpers/cli.js";

interface Listed {
  session: string;
  inFlight: number;
  queued: number;
  createdAt: string;
}

describe("close --session with runs in flight and queued", () => {
  let home: string;
  const listed = async (): Promise<Listed[]> => {
    const r = await runCli(["sessions", "--json"], { home });
    return (r.json?.daemons?.[0]?.sessions ?? []) as Listed[];
  };
  const oneQueued = async (session: string): Promise<void> => {
    const until = Date.now() + 10_000;
    while (!(await listed()).some((s) => s.session === session && s.queued === 1)) {
      if (Date.now() > until) throw new Error("the second run never showed as queued");
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(() => {
    home = tempHome("bw-close-");
  });

  afterAll(async () => {
    await destroyHome(home);
  });

  it("ends the run in flight and the queued one with SESSION_CLOSING, and never brings the session back", async () => {
    const setUp = await runCli(["exec", "--session", "q", "-c", "state.mark = 'old'; return 1"], { home });
    expect(setUp.json).toMatchObject({ ok: true, result: 1 });

    // Its wait outlasts anything a loaded machine adds to the steps below: only the close can end it early.
    const first = startCli(["exec", "--session", "q", "-c", "await new Promise((r) => setTimeout(r, 20000)); return 'first finished'"], { home });
    await waitForRunInFlight(home, "q");
    const second = startCli(["exec", "--session", "q", "-c", "return state.mark ?? 'fresh'"], { home });
    await oneQueued("q");

    const closedAt = Date.now();
    const closed = await runCli(["close", "--session", "q", "--json"], { home });
    expect(closed.json).toMatchObject({ ok: true, closed: true, session: "q" });
    const [one, two] = await Promise.all([first.result, second.result]);
    const settledMs = Date.now() - closedAt;
    const byClient = { ok: false, error: { code: "SESSION_CLOSING", message: closeReasons.byClient("q").message } };
    expect(one.json, one.stdout + one.stderr).toMatchObject(byClient);
    expect(two.json, two.stdout + two.stderr).toMatchObject(byClient);
    // Far inside the first run's 30 s budget (it used to run out) and its own 20 s wait.
    expect(settledMs).toBeLessThan(10_000);
    expect((await listed()).map((s) => s.session)).not.toContain("q");

    const fresh = await runCli(["exec", "--session", "q", "-c", "return state.mark ?? 'fresh'"], { home });
    expect(fresh.json).toMatchObject({ ok: true, result: "fresh" });
    const again = (await listed()).find((s) => s.session === "q");
    expect(again).toBeDefined();
    expect(Date.parse(again!.createdAt)).toBeGreaterThanOrEqual(closedAt);
  });

  it("ends what the stop's drain left, in flight and queued, saying the daemon is shutting down and why", async () => {
    const first = startCli(["exec", "--session", "s", "-c", "await new Promise((r) => setTimeout(r, 25000)); return 'first finished'"], { home });
    await waitForRunInFlight(home, "s");
    const second = startCli(["exec", "--session", "s", "-c", "return 'second ran'"], { home });
    await oneQueued("s");

    expect((await runCli(["close", "--all"], { home })).code).toBe(0);
    const [one, two] = await Promise.all([first.result, second.result]);
    const stopping = { ok: false, error: { code: "SESSION_CLOSING", message: closeReasons.daemonStopping("daemon.shutdown requested").message } };
    expect(one.json, one.stdout + one.stderr).toMatchObject(stopping);
    expect(two.json, two.stdout + two.stderr).toMatchObject(stopping);
  });
});
