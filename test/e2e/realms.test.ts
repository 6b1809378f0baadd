// A realm per session, end to end: what one session's snippet does to its own
// realm (loop, exhaust its heap, get cancelled, flood the console, hand odd
// values to the boundary) ends that realm at most. Every other session's runs
// in flight finish ok with no warning, and their pages, state and handlers
// stay as they were; the session itself keeps its pages and is told once
// that its state was reset.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { REALM_IDLE_MS } from "../../daemon/browser-worker/realm/session-realm.js";
import { daemonPids, destroyHome, runCli, startCli, tempHome, waitForRunInFlight } from "../helpers/cli.js";
import { workersOf } from "../helpers/procs.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { calmSetUp as bystanderSetUp } from "../helpers/bystander.js";

interface Envelope {
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
  warnings: { code: string }[];
  durationMs: number;
  pages: { url: string }[];
}

describe("one realm per session", () => {
  let home: string;
  let server: TestServer;
  const exec = async (session: string, code: string, extra: string[] = []) => {
    const r = await runCli(["exec", "--session", session, ...extra, "-c", code], { home });
    if (!r.json) throw new Error(`no envelope: ${r.stdout} ${r.stderr}`);
    return r.json as Envelope;
  };
  const codes = (e: Envelope) => e.warnings.map((w) => w.code);

  beforeAll(async () => {
    home = tempHome("bw-realms-");
    server = await startServer({
      "/calm": "<title>Calm</title><p id=t>calm text</p><script>setInterval(() => console.log('tick'), 50)</script>",
      "/other": "<title>Other</title><p>other</p>",
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server?.close();
  });

  /** Session "calm": a page, state and a console handler that must all outlive whatever the other session does. (test/helpers/bystander.ts) */
  const calmSetUp = () => bystanderSetUp(exec, server.url);
  const calmWorks = async () => {
    const r = await exec("calm", `let ticks = 0; page.on("console", () => { ticks++; });
      await new Promise((resolve) => setTimeout(resolve, 300));
      return [page.url(), await page.locator("#t").textContent(), state.mark, ticks > 0]`);
    expect(r).toMatchObject({ ok: true, result: [`${server.url}/calm`, "calm text", "kept", true], warnings: [] });
  };

  it("a CPU loop in one session: the other navigates, reads and handles events in parallel, ok and with no warning", async () => {
    await calmSetUp();
    const looping = exec("busy", `await page.goto(${JSON.stringify(`${server.url}/other`)}); state.before = 1; while (true) {}`, ["--timeout", "6"]);
    await new Promise((r) => setTimeout(r, 800));
    for (let i = 0; i < 3; i++) await calmWorks();
    const navigated = await exec("calm", `await page.goto(${JSON.stringify(`${server.url}/other`)}); const t = await page.title(); await page.goBack(); return [t, await page.title()]`);
    expect(navigated).toMatchObject({ ok: true, result: ["Other", "Calm"], warnings: [] });
    const busy = await looping;
    expect(busy).toMatchObject({ ok: false, error: { code: "SNIPPET_TIMEOUT" } });
    const after = await exec("busy", "return [state.before ?? null, page.url()]");
    expect(after).toMatchObject({ ok: true, result: [null, `${server.url}/other`] });
    expect(codes(after)).toEqual(["STATE_RESET"]);
    await calmWorks();
  });

  it("a heap bomb ends with LIMIT_EXCEEDED in its session only; the session keeps its page", async () => {
    await calmSetUp();
    const bomb = exec("bomb", `await page.goto(${JSON.stringify(`${server.url}/other`)}); const a = []; for (;;) a.push(new Array(1e6).fill(1));`, ["--timeout", "60"]);
    const calm = await exec("calm", "await new Promise((r) => setTimeout(r, 200)); return state.mark");
    expect(calm).toMatchObject({ ok: true, result: "kept", warnings: [] });
    const result = await bomb;
    expect(result).toMatchObject({ ok: false, error: { code: "LIMIT_EXCEEDED", message: expect.stringContaining("out of memory") } });
    const after = await exec("bomb", "return [page.url(), await page.title()]");
    expect(after).toMatchObject({ ok: true, result: [`${server.url}/other`, "Other"] });
    expect(codes(after)).toEqual(["STATE_RESET"]);
    await calmWorks();
  });

  it("cancelling a looping run ends it at once; the session keeps its page", async () => {
    await exec("spin", `await page.goto(${JSON.stringify(`${server.url}/other`)}); return 1`);
    const { child, result } = startCli(["exec", "--session", "spin", "-c", "while (true) {}"], { home });
    await waitForRunInFlight(home, "spin");
    const sent = Date.now();
    child.kill("SIGINT");
    const cancelled = await result;
    expect(cancelled.json).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    expect(Date.now() - sent).toBeLessThan(10_000);
    const after = await exec("spin", "return page.url()");
    expect(after).toMatchObject({ ok: true, result: `${server.url}/other` });
    expect(codes(after)).toEqual(["STATE_RESET"]);
  });

  it("a million console calls finish ok well inside the budget, capped in the envelope", async () => {
    const r = await exec("flood", "for (let i = 0; i < 1e6; i++) console.log('line', i); return 'logged'");
    expect(r).toMatchObject({ ok: true, result: "logged" });
    expect(r.durationMs).toBeLessThan(15_000);
  });

  it("a refusal raised inside a facade keeps its code", async () => {
    await exec("codes", `await page.setContent("<input type=file id=f>"); return 1`);
    const r = await exec("codes", "await page.setInputFiles('#f', '/etc/passwd')");
    expect(r).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
    const caught = await exec("codes", "try { await page.setInputFiles('#f', '/etc/passwd'); } catch (e) { e.code = 'FORGED'; throw e; }");
    expect(caught).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
    const forged = await exec("codes", "const e = new Error('mine'); e.code = 'INVALID_ARGUMENT'; throw e;");
    expect(forged).toMatchObject({ ok: false, error: { code: "SNIPPET_ERROR" } });
  });

  it("odd values at the boundary (getters, proxies, cycles, huge strings) fail cleanly and the session goes on", async () => {
    const r = await exec("odd", `
      const out = [];
      const tryIt = async (name, f) => { try { await f(); out.push(name + ": ok"); } catch (e) { out.push(name + ": " + e.name); } };
      const cyclic = {}; cyclic.self = cyclic;
      await tryIt("getter", () => page.evaluate((x) => x, { get v() { throw new Error("getter"); } }));
      await tryIt("proxy", () => page.evaluate((x) => x, new Proxy({}, { ownKeys() { throw new Error("trap"); } })));
      await tryIt("cycle", () => page.evaluate((x) => x, cyclic));
      await tryIt("huge", () => page.evaluate((x) => x.length, "x".repeat(20e6)));
      await tryIt("bigint", () => page.evaluate((x) => x, 1n));
      return out;`);
    expect(r.ok).toBe(true);
    expect((r.result as string[]).length).toBe(5);
    const next = await exec("odd", "return 2");
    expect(next).toMatchObject({ ok: true, result: 2, warnings: [] });
  });

  it("idle realms are retired: one that held nothing comes back empty, one that held plain-data state comes back with it", async () => {
    const [daemon] = daemonPids(home);
    const [worker] = workersOf(daemon!);
    const threads = () => readdirSync(`/proc/${worker}/task`).length;
    expect(await exec("keeper", "state.kept = new Map([[1, 'one']]); return 1")).toMatchObject({ ok: true });
    expect(await exec("light", "await page.setContent('<title>light</title>'); return 1")).toMatchObject({ ok: true });
    const before = threads();
    // Every realm above is now idle; those holding nothing but plain data go once the idle time has passed.
    await new Promise((r) => setTimeout(r, REALM_IDLE_MS + 4_000));
    expect(threads()).toBeLessThan(before);
    const light = await exec("light", "return [typeof state, Object.keys(state).length, await page.title()]");
    expect(light).toMatchObject({ ok: true, result: ["object", 0, "light"], warnings: [] });
    const keeper = await exec("keeper", "return state.kept.get(1)");
    expect(keeper).toMatchObject({ ok: true, result: "one", warnings: [] });
  }, 90_000);

  it("twenty sessions, each in its own realm, run at once", async () => {
    const runs = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      exec(`many-${i}`, `state.i = ${i}; await page.setContent("<title>t${i}</title>"); return [state.i, await page.title()]`)));
    runs.forEach((r, i) => expect(r).toMatchObject({ ok: true, result: [i, `t${i}`] }));
  });
});
