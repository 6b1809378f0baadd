// `state` lives through an idle realm's retirement, end to end (CLI → daemon
// → worker → Chromium): a realm holding plain data is retired and its next
// run finds the same `state` in a new realm; one holding anything else stays,
// and a snippet's traps, getters and prototype tricks never run while the
// worker looks, nor stop the worker. A realm lost later still resets `state`.
// Idle sessions hold no realm thread: seconds after their last runs, only the
// worker's one spare thread is left of their realms.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { daemonPids, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { workersOf } from "../helpers/procs.js";

interface Envelope {
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
  warnings: { code: string }[];
}

/** Resolves once `ready()` holds, looking every half second; fails after `limitMs` (a bound for a stuck test, not a measure). */
async function until(ready: () => boolean, limitMs: number): Promise<void> {
  const limit = Date.now() + limitMs;
  while (!ready()) {
    if (Date.now() > limit) throw new Error("the condition never held");
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe("state through a retired realm", () => {
  let home: string;
  const exec = async (session: string, code: string) => {
    const r = await runCli(["exec", "--session", session, "-c", code], { home });
    if (!r.json) throw new Error(`no envelope: ${r.stdout} ${r.stderr}`);
    return r.json as Envelope;
  };

  beforeAll(() => {
    home = tempHome("bw-state-carry-");
  });

  afterAll(async () => {
    await destroyHome(home);
  });

  it("carries plain data to the next realm; a realm holding anything else stays, and nothing of the snippets' runs while it is looked at", async () => {
    // A change to a built-in prototype goes with a retired realm: it tells a new realm from the old one.
    const mark = "Array.prototype.oldRealm = true;";
    const carried = await exec("keeper", `${mark} await page.setContent("<title>kept page</title>");
      const shared = { n: 1 }; shared.self = shared;
      state.kept = new Map([[1, shared]]); state.again = shared; state.when = new Date(0); state.odd = [NaN, -0, 2n, undefined, /x/g];
      return 1`);
    expect(carried).toMatchObject({ ok: true });
    const kept = [
      ["holder", "state.fn = () => 'still here'"],
      // A trap that never returns: had the worker run it, this realm would never answer again.
      ["proxy", "state.p = new Proxy({}, { ownKeys() { for (;;) {} }, getPrototypeOf() { for (;;) {} }, getOwnPropertyDescriptor() { for (;;) {} } })"],
      ["getter", "state.o = { get g() { for (;;) {} } }"],
    ];
    for (const [session, code] of kept) {
      expect(await exec(session!, `${mark} state.mark = ${JSON.stringify(session)}; ${code}; return 1`)).toMatchObject({ ok: true });
    }

    const [daemon] = daemonPids(home);
    const [worker] = workersOf(daemon!);
    const threads = () => readdirSync(`/proc/${worker}/task`);
    const before = threads();
    // keeper's realm goes once it has been idle for REALM_IDLE_MS (its thread ends, a spare one starts unbound); the
    // others stay for as long as their sessions.
    await until(() => before.some((tid) => !threads().includes(tid)), 180_000);

    const after = await exec("keeper", `const m = state.kept.get(1);
      return [[].oldRealm ?? "new realm", m.n, m.self === m, state.again === m, state.when instanceof Date && state.when.getTime(),
        Number.isNaN(state.odd[0]), Object.is(state.odd[1], -0), state.odd[2] === 2n, 3 in state.odd && state.odd[3] === undefined, state.odd[4].flags,
        await page.title()]`);
    expect(after).toEqual(expect.objectContaining({ ok: true, warnings: [], result: ["new realm", 1, true, true, 0, true, true, true, true, "g", "kept page"] }));

    for (const [session] of kept) {
      const r = await exec(session!, `return [[].oldRealm, state.mark, typeof state.fn === "function" ? state.fn() : null]`);
      expect(r).toMatchObject({ ok: true, warnings: [], result: [true, session, session === "holder" ? "still here" : null] });
    }
    // The worker never restarted: the same process answered throughout.
    expect(workersOf(daemonPids(home)[0]!)).toEqual([worker]);

    // A carried state lives in its new realm like any other: a realm lost after that takes it along, and says so.
    const looping = await runCli(["exec", "--session", "keeper", "--timeout", "3", "-c", "state.more = 1; while (true) {}"], { home });
    expect(looping.json).toMatchObject({ ok: false, error: { code: "SNIPPET_TIMEOUT" } });
    const reset = await exec("keeper", "return [Object.keys(state).length, await page.title()]");
    expect(reset).toMatchObject({ ok: true, result: [0, "kept page"], warnings: [{ code: "STATE_RESET" }] });
  }, 240_000);

  it("idle sessions give their realm threads back within seconds, one spare thread stays, and each comes back with its own state", async () => {
    const sessions = 8;
    // A lone page call starts a session's page but no realm.
    expect(await exec("first", "return page.title()")).toMatchObject({ ok: true });
    const [worker] = workersOf(daemonPids(home)[0]!);
    const threads = () => readdirSync(`/proc/${worker}/task`).length;
    const base = threads();
    const ran = await Promise.all(Array.from({ length: sessions }, (_, i) => exec(`idle-${i}`, `state.mine = { i: ${i}, tags: new Set(["s${i}"]) }; return 1`)));
    ran.forEach((r) => expect(r).toMatchObject({ ok: true }));
    // (less one: a realm of the test above may retire meanwhile)
    expect(threads()).toBeGreaterThanOrEqual(base + sessions - 1);
    // Idle for REALM_IDLE_MS (10 s), then retired: well before the 30 s they used to keep their threads.
    await until(() => threads() <= base + 1, 25_000);
    const back = await Promise.all(Array.from({ length: sessions }, (_, i) => exec(`idle-${i}`, "return [Object.keys(state), state.mine.i, [...state.mine.tags]]")));
    back.forEach((r, i) => expect(r).toMatchObject({ ok: true, result: [["mine"], i, [`s${i}`]], warnings: [] }));
  }, 90_000);

  it("a session kept busy with one-call snippets gives its realm thread back all the same", async () => {
    const sessions = 4;
    // A new daemon and worker, so that no realm of the tests above retires meanwhile.
    expect((await runCli(["close", "--all"], { home })).code).toBe(0);
    expect(await exec("first", "return page.title()")).toMatchObject({ ok: true });
    const [worker] = workersOf(daemonPids(home)[0]!);
    const threads = () => readdirSync(`/proc/${worker}/task`).length;
    const base = threads();
    const ran = await Promise.all(Array.from({ length: sessions }, (_, i) => exec(`busy-${i}`, `state.mine = ${i}; return 1`)));
    ran.forEach((r) => expect(r).toMatchObject({ ok: true }));
    expect(threads()).toBeGreaterThanOrEqual(base + sessions - 1);
    // One-call snippets (a title, an evaluate) run on the worker's main thread: the realms sit idle through them.
    let busy = true;
    const calls = Promise.all(Array.from({ length: sessions }, async (_, i) => {
      for (let n = 0; busy; n++) expect(await exec(`busy-${i}`, n % 2 ? "return page.title()" : "return page.evaluate(() => 1)")).toMatchObject({ ok: true });
    }));
    try {
      await until(() => threads() <= base + 1, 30_000);
    } finally {
      busy = false;
      await calls;
    }
    const back = await Promise.all(Array.from({ length: sessions }, (_, i) => exec(`busy-${i}`, "return state.mine")));
    back.forEach((r, i) => expect(r).toMatchObject({ ok: true, result: i, warnings: [] }));
  }, 90_000);
});
