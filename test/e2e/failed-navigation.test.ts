// A navigation the network failed leaves Chromium's error page, committed
// some milliseconds after the call has failed; with raw Playwright a goto made
// at once is "interrupted by another navigation to chrome-error://". Every
// failed navigation here waits for its error page, so the next one goes
// through: in one snippet, run after run, and through typed operations.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright, NetworkPolicy } from "../../dist/client/index.js";
import { cleanEnv, destroyHome, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const PAIRS = 6;

describe("a navigation after a failed one", () => {
  let server: TestServer;
  let home: string;
  let bw: BetterWright;
  let blocked: string;
  let dead: string;

  beforeAll(async () => {
    server = await startServer({ "/": "<title>allowed</title>fine", "/next": "<title>next</title>fine" });
    home = tempHome("bw-failed-nav-");
    // The stock policy refuses `localhost` at the proxy; loopback by address stays allowed.
    bw = new BetterWright({ home, env: cleanEnv(home, { BETTERWRIGHT_BLOCK_HOSTS: "localhost" }) });
    blocked = `http://localhost:${server.port}/`;
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    dead = `http://127.0.0.1:${(probe.address() as net.AddressInfo).port}/`;
    await new Promise((resolve) => probe.close(resolve));
  });

  afterAll(async () => {
    await bw.close();
    await destroyHome(home);
    await server.close();
  });

  it("goes through at once in the same snippet, after a refused one and after a dead server", async () => {
    const code = `
      const out = [];
      for (let i = 0; i < ${PAIRS}; i++) {
        try { await page.goto(i % 2 ? args.dead : args.blocked); out.push("loaded"); } catch (e) { out.push(i % 2 ? "failed" : e.code); }
        await page.goto(args.allowed);
        out.push(page.url());
      }
      return out;`;
    const r = await bw.run(code, { session: "snippet", args: { blocked, dead, allowed: `${server.url}/` } });
    expect(r, JSON.stringify(r.error)).toMatchObject({ ok: true });
    expect(r.result).toEqual(Array.from({ length: PAIRS }, (_, i) => [i % 2 ? "failed" : "BLOCKED_URL", `${server.url}/`]).flat());
  });

  it("goes through in the next run, and in the next typed operation", async () => {
    for (let i = 0; i < PAIRS; i++) {
      const refused = await bw.run(`await page.goto(${JSON.stringify(blocked)})`, { session: "runs" });
      expect(refused).toMatchObject({ ok: false, error: { code: "BLOCKED_URL" } });
      const next = await bw.run(`await page.goto(${JSON.stringify(`${server.url}/next`)}); return page.title()`, { session: "runs" });
      expect(next, JSON.stringify(next.error)).toMatchObject({ ok: true, result: "next" });

      const opRefused = await bw.op("navigate", { url: blocked }, { session: "ops" });
      expect(opRefused).toMatchObject({ ok: false, error: { code: "BLOCKED_URL" } });
      const opNext = await bw.op("navigate", { url: `${server.url}/next` }, { session: "ops" });
      expect(opNext, JSON.stringify(opNext.error)).toMatchObject({ ok: true, result: { title: "next" } });
    }
  });

  it("waits for the error page of a navigation routing refused (a custom hook, in-process host)", async () => {
    const policy = new NetworkPolicy({ custom: (url) => (new URL(url).pathname === "/files" ? { allowed: false, reason: "no files here" } : null) });
    const local = new BetterWright({ home, profile: "hooked", env: cleanEnv(home), policy });
    try {
      for (let i = 0; i < PAIRS; i++) {
        const refused = await local.run(`await page.goto(${JSON.stringify(`${server.url}/files`)})`, { session: "h" });
        expect(refused).toMatchObject({ ok: false, error: { code: "BLOCKED_URL" }, blocked: [expect.objectContaining({ layer: "route" })] });
        const next = await local.run(`await page.goto(${JSON.stringify(`${server.url}/next`)}); return page.title()`, { session: "h" });
        expect(next, JSON.stringify(next.error)).toMatchObject({ ok: true, result: "next" });
      }
    } finally {
      await local.close();
    }
  });
});
