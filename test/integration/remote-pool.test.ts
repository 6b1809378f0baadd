// The worker's remote pool against two real Playwright browser servers on
// loopback: placement spreads sessions and keeps to each endpoint's cap, a
// server that goes away loses its sessions (told once) and is skipped while
// on backoff, and a CDP endpoint is refused without trustRemoteEgress. The
// daemon's part (dialling, headers, leases) is stood in for here.
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type BrowserServer } from "playwright-core";
import { findBrowser } from "../../shared/browser-discovery.js";
import { RemotePool } from "../../daemon/browser-worker/remote/remote-pool.js";
import type { WorkerRemoteInit } from "../../shared/protocol/methods/index.js";

function dialTo(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
  });
}

describe("placing sessions on remote browser servers", () => {
  const servers: BrowserServer[] = [];

  beforeAll(async () => {
    const { found } = findBrowser({ explicit: null, headless: true });
    if (!found) throw new Error("no Chromium (scripts/ensure-browser.sh installs one)");
    for (let i = 0; i < 2; i++) servers.push(await chromium.launchServer({ executablePath: found.path, headless: true, host: "127.0.0.1", port: 0 }));
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) await server.close().catch(() => {});
  });

  function pool(init: Partial<WorkerRemoteInit> & { endpoints: WorkerRemoteInit["endpoints"] }) {
    const lost: string[][] = [];
    const dials: number[] = [];
    const released: string[] = [];
    const made = new RemotePool({ trustRemoteEgress: false, ...init }, {
      dial: (id) => {
        dials.push(id);
        return dialTo(init.endpoints[id]!.url);
      },
      headers: async () => ({}),
      lease: async (session) => ({ leaseId: `lease-${session}`, server: "http://127.0.0.1:9", username: "u", password: "p" }),
      release: (id) => released.push(id),
      log: () => {},
      onLost: (sessions) => lost.push(sessions),
    });
    return { pool: made, lost, dials, released };
  }

  it("spreads sessions over the endpoints, least loaded first, within each one's cap", async () => {
    const { pool: p, released } = pool({ endpoints: servers.map((s, id) => ({ id, url: s.wsEndpoint(), kind: "playwright" as const, maxSessions: 2 })) });
    try {
      await Promise.all(["a", "b", "c", "d"].map((s) => p.browserFor(s)));
      const where = ["a", "b", "c", "d"].map((s) => p.placementOf(s)!.url);
      expect(where.filter((u) => u === servers[0]!.wsEndpoint())).toHaveLength(2);
      expect(where.filter((u) => u === servers[1]!.wsEndpoint())).toHaveLength(2);
      await expect(p.browserFor("e")).rejects.toMatchObject({ code: "BROWSER_UNAVAILABLE", message: expect.stringContaining("holds its 2 sessions") });
      // A context on the placed browser gets the session's proxy credentials.
      const wiring = p.wiring("a", async () => {});
      expect(await wiring.options()).toEqual({ proxy: { server: "http://127.0.0.1:9", username: "u", password: "p" } });
      p.release("a");
      expect(p.placementOf("a")).toBeUndefined();
      await new Promise((r) => setImmediate(r));
      expect(released).toEqual(["lease-a"]);
      await p.browserFor("e");
      const reports = await p.report(false);
      expect(reports.every((r) => r.state === "connected" && r.guarded && r.version)).toBe(true);
    } finally {
      await p.close();
    }
  }, 60_000);

  it("an endpoint that cannot be reached is skipped, and the call names why when none can take a session", async () => {
    const { pool: p } = pool({ endpoints: [{ id: 0, url: "ws://127.0.0.1:9/nothing", kind: "playwright", maxSessions: 5 }, { id: 1, url: servers[1]!.wsEndpoint(), kind: "playwright", maxSessions: 5 }] });
    try {
      await p.browserFor("x");
      expect(p.placementOf("x")!.url).toBe(servers[1]!.wsEndpoint());
      const [down] = await p.report(false);
      expect(down).toMatchObject({ state: "down", error: expect.stringContaining("ws://127.0.0.1:9/nothing") });
      expect(down!.retryInMs).toBeGreaterThan(0);
    } finally {
      await p.close();
    }
  }, 60_000);

  it("refuses a CDP endpoint without trustRemoteEgress, before dialling it", async () => {
    const { pool: p, dials } = pool({ endpoints: [{ id: 0, url: "cdp+http://127.0.0.1:9/", kind: "cdp", maxSessions: 5 }] });
    await expect(p.browserFor("c")).rejects.toMatchObject({ code: "GUARD_NOT_ENFORCED", message: expect.stringContaining("trustRemoteEgress") });
    expect(dials).toEqual([]);
    const [report] = await p.report(true);
    expect(report).toMatchObject({ guarded: false, state: "down" });
    await p.close();
  });

  it("asks a CDP endpoint's /json/version again on a new connection when the first gets no answer", async () => {
    const { found } = findBrowser({ explicit: null, headless: true });
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const cdpPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const cdp = await chromium.launch({ executablePath: found!.path, headless: true, args: [`--remote-debugging-port=${cdpPort}`] });
    // A connection that is accepted and never answered: the first dial lands there.
    const held: Socket[] = [];
    const blackHole = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", resolve));
    const url = `cdp+http://127.0.0.1:${cdpPort}/`;
    const logs: string[] = [];
    let dialled = 0;
    const p = new RemotePool({ trustRemoteEgress: true, endpoints: [{ id: 0, url, kind: "cdp", maxSessions: 2 }] }, {
      dial: () => (dialled++ === 0 ? dialTo(`http://127.0.0.1:${(blackHole.address() as AddressInfo).port}`) : dialTo(`http://127.0.0.1:${cdpPort}`)),
      headers: async () => ({}),
      lease: async (session) => ({ leaseId: `lease-${session}`, server: "http://127.0.0.1:9", username: "u", password: "p" }),
      release: () => {},
      log: (line) => logs.push(line),
      onLost: () => {},
    });
    try {
      const context = await p.browserFor("s");
      expect(context).toBeDefined();
      expect(logs.some((l) => l.includes("/json/version did not answer") && l.includes("asking again"))).toBe(true);
      expect(held.length).toBe(1);
    } finally {
      await p.close();
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => blackHole.close(resolve));
      await cdp.close();
    }
  }, 40_000);

  it("a server that goes away loses its sessions, which the host is told once", async () => {
    const { found } = findBrowser({ explicit: null, headless: true });
    const doomed = await chromium.launchServer({ executablePath: found!.path, headless: true, host: "127.0.0.1", port: 0 });
    const { pool: p, lost } = pool({ endpoints: [{ id: 0, url: doomed.wsEndpoint(), kind: "playwright", maxSessions: 5 }] });
    try {
      await p.browserFor("v1");
      await p.browserFor("v2");
      await doomed.close();
      await expect.poll(() => lost.length, { timeout: 20_000 }).toBe(1);
      expect(lost[0]!.sort()).toEqual(["v1", "v2"]);
      expect(p.placementOf("v1")).toBeUndefined();
      await expect(p.browserFor("v1")).rejects.toMatchObject({ code: "BROWSER_UNAVAILABLE" });
    } finally {
      await p.close();
    }
  }, 60_000);
});
