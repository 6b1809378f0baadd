// Snippets sent ahead into one session's queue (repl does, a library client
// may): they run in order, each envelope arrives in order, and with
// budgetFromStart each run's budget counts from its own start, not from when
// the daemon accepted it. Budgets here are seconds apart from what the
// snippets take, so nothing hangs on the machine's speed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright } from "../../client/index.js";
import { cleanEnv, destroyHome, runCli, tempHome } from "../helpers/cli.js";

const WAIT_MS = 3000;
const BUDGET_MS = 2500;

describe("snippets sent ahead into one session", () => {
  let home: string;
  beforeAll(() => {
    home = tempHome("bw-stream-");
  });
  afterAll(async () => {
    await destroyHome(home);
  });

  it("a run queued behind a long one keeps its whole budget with budgetFromStart, and loses the wait without it", async () => {
    // The daemon is started by the CLI (the library from source would look for it beside the source).
    expect((await runCli(["exec", "--session", "ahead", "-c", "return 0"], { home })).json).toMatchObject({ ok: true });
    const bw = new BetterWright({ home, env: cleanEnv(home) });
    try {
      const long = bw.run(`await new Promise((r) => setTimeout(r, ${WAIT_MS})); return "long"`, { session: "ahead" });
      const fromStart = bw.run("return 'queued'", { session: "ahead", timeoutMs: BUDGET_MS, budgetFromStart: true });
      const fromAcceptance = bw.run("return 'queued'", { session: "ahead", timeoutMs: BUDGET_MS });
      const [a, b, c] = await Promise.all([long, fromStart, fromAcceptance]);
      expect(a).toMatchObject({ ok: true, result: "long" });
      expect(b).toMatchObject({ ok: true, result: "queued" });
      expect(c).toMatchObject({ ok: false, error: { code: "SNIPPET_TIMEOUT" } });
      expect([a.seq, b.seq, c.seq]).toEqual([a.seq, a.seq + 1, a.seq + 2]);
    } finally {
      await bw.close();
    }
  });

  it("repl sends snippets ahead yet prints every envelope in order, each run with its own budget", async () => {
    // The first is answered before any other is sent; the next four go at once, and the last two of them
    // wait behind two runs of WAIT_MS / 2 each: longer in the queue than their budget, well inside it once started.
    const pause = `await new Promise((r) => setTimeout(r, ${WAIT_MS / 2})); return ++state.n`;
    const snippets = ["state.n = 0; return 0", pause, pause, "return ++state.n", "return ++state.n", "return ++state.n"];
    const repl = await runCli(["repl", "--session", "stream", "--timeout", String(BUDGET_MS / 1000)], { home, input: `${snippets.join("\n\n")}\n` });
    expect(repl.code, repl.stderr).toBe(0);
    const envelopes = repl.stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(envelopes.map((e) => e.ok)).toEqual(snippets.map(() => true));
    expect(envelopes.map((e) => e.result)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
