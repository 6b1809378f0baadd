// The worker's guard against real Chromium and the daemon's real guard service,
// joined by a direct `ask` (the routing layer's guard.check) and `connect` (the
// proxy's guard.connect) instead of the worker's channels. The daemon's dialer
// connects only to loopback literals and records every address it is asked
// for, so nothing can leave the machine even if the guard is broken.
import http from "node:http";
import { connect, isIP, Socket, type AddressInfo } from "node:net";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GuardService } from "../../daemon/guard/guard-service.js";
import { BrowserGuard, type GuardAskFn } from "../../daemon/browser-worker/guard/browser-guard.js";
import type { Connect } from "../../daemon/browser-worker/guard/proxy/guard-proxy.js";
import { encodeRequest, parseReply, SocksCommand, SocksReply } from "../../shared/guard/proxy/socks5.js";
import { findBrowser } from "../../shared/browser-discovery.js";
import type { BlockedRequest } from "../../shared/protocol/envelope.js";
import { decisionCacheKey, GUARD_CACHE_MAX_TTL_MS, type RequestDetails } from "../../shared/guard/questions/index.js";
import { NetworkPolicy } from "../../shared/guard/policy/index.js";

const METADATA = "169.254.169.254";
const IMAGES = 40;
const GIF = Buffer.from("R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==", "base64");

interface Ask { url: string; details: RequestDetails }

function recordingDialer() {
  const asked: string[] = [];
  const dial = (address: string, port: number): Socket => {
    asked.push(address);
    if (address !== "127.0.0.1" && address !== "::1") {
      const socket = new Socket();
      process.nextTick(() => socket.destroy(Object.assign(new Error(`test dialer refuses ${address}`), { code: "ECONNREFUSED" })));
      return socket;
    }
    return connect({ host: address, port, allowHalfOpen: true });
  };
  return { asked, dial };
}

/** A guard wired to a GuardService (the daemon's side) with every ask, denial and dial recorded and a clock the test moves. */
function guardFor(policy: ConstructorParameters<typeof GuardService>[0], options: { resolve?: (host: string) => Promise<string[]>; fail?: boolean; routeRequests?: boolean } = {}) {
  const asks: Ask[] = [];
  const denials: string[] = [];
  let time = 1_000_000;
  const dialer = recordingDialer();
  const service = new GuardService(policy, { dial: dialer.dial, log: (line) => denials.push(line), ...(options.resolve ? { resolve: options.resolve } : {}) });
  const ask: GuardAskFn = async (url, details) => {
    asks.push({ url, details });
    if (options.fail) throw new Error("guard RPC failed");
    return service.check(url, details);
  };
  const connect: Connect = async (host, port) => {
    if (options.fail) throw new Error("guard RPC failed");
    return service.connect(host, port);
  };
  const guard = new BrowserGuard({ ask, connect, now: () => time, routeRequests: options.routeRequests ?? false });
  return { guard, service, asks, denials, dialer, advance: (ms: number) => void (time += ms) };
}

let server: http.Server;
let port: number;
let origin: string;
const served: string[] = [];
const open: { guard: BrowserGuard; browser?: Browser }[] = [];

async function launch(guard: BrowserGuard, blocked: BlockedRequest[] = []): Promise<BrowserContext> {
  const { found, problem } = findBrowser({ explicit: null, headless: true });
  if (!found) throw new Error(`no Chromium for the guard test: ${problem}`);
  const browser = await chromium.launch({ executablePath: found.path, headless: true, args: ["--disable-quic"], ...(await guard.launchOptions()) });
  open.push({ guard, browser });
  const context = await browser.newContext();
  await guard.attach(context, (entry) => blocked.push({ ...entry, count: 1 }));
  return context;
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    served.push(req.url ?? "");
    if (req.url?.startsWith("/img/")) return void res.writeHead(200, { "content-type": "image/gif" }).end(GIF);
    const images = Array.from({ length: IMAGES }, (_, i) => `<img src="/img/${i}.gif"><img src="http://localhost:${port}/img/l${i}.gif">`).join("");
    res.writeHead(200, { "content-type": "text/html" }).end(`<title>many</title>${images}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});

afterEach(async () => {
  for (const { guard, browser } of open.splice(0)) {
    await browser?.close().catch(() => {});
    await guard.close();
  }
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function subresourceAsksByKey(asks: readonly Ask[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { url, details } of asks) {
    const key = decisionCacheKey(url, details);
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

describe("the worker's guard in front of real Chromium", () => {
  it("with routing, asks a stock policy at most once per host in 5 s for subresources, but every navigation, and again after expiry", async () => {
    const { guard, asks, dialer, advance } = guardFor({ allowLoopback: true, allowPrivateNetwork: true, allowHosts: [], blockHosts: [] }, { routeRequests: true });
    const page = await (await launch(guard)).newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth === 1));
    const documents = () => asks.filter((a) => a.details.resourceType === "document").length;
    expect(documents()).toBe(1);
    const first = subresourceAsksByKey(asks);
    // Both hosts (127.0.0.1 and localhost, and the address localhost resolved to) were asked, once each.
    expect(first.get(`http:${"//"}127.0.0.1:${port}`)).toBe(1);
    expect(first.get(`http:${"//"}localhost:${port}`)).toBe(1);
    expect([...first.values()].every((n) => n === 1)).toBe(true);
    expect(asks.length).toBeLessThan(10);
    expect(dialer.asked.every((address) => address === "127.0.0.1" || address === "::1")).toBe(true);

    await page.reload();
    await page.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth === 1));
    expect(documents()).toBe(2);
    expect([...subresourceAsksByKey(asks).values()].every((n) => n === 1)).toBe(true);

    advance(GUARD_CACHE_MAX_TTL_MS);
    await page.reload();
    await page.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth === 1));
    expect(subresourceAsksByKey(asks).get(`http:${"//"}localhost:${port}`)).toBe(2);
  });

  it("asks a policy with a custom hook about every request", async () => {
    const hooked: string[] = [];
    const policy = new NetworkPolicy({ custom: (url) => { hooked.push(url); return null; } });
    const { guard } = guardFor((policy), { routeRequests: true });
    const page = await (await launch(guard)).newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth === 1));
    // Every image reached the hook through the routing layer: nothing was cached.
    expect(hooked.filter((url) => url.includes("/img/")).length).toBeGreaterThanOrEqual(IMAGES * 2);
  });

  it("without routing (a stock policy), the daemon decides every connection the proxy asks for; nothing else is asked", async () => {
    const { guard, service, asks, dialer } = guardFor({ allowLoopback: true, allowPrivateNetwork: true, allowHosts: [], blockHosts: [] });
    const page = await (await launch(guard)).newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth === 1));
    expect(asks).toEqual([]);
    // Chromium keeps its proxy connections: a handful of connections for 81 requests, each asked about by name (and localhost by address too).
    const { connects, checks } = service.counts;
    expect(connects).toBeGreaterThanOrEqual(2);
    expect(connects).toBeLessThan(20);
    expect(checks).toBeGreaterThanOrEqual(connects);
    expect(dialer.asked.length).toBe(connects);
    expect(dialer.asked.every((address) => address === "127.0.0.1" || address === "::1")).toBe(true);
  });

  it("without routing, a failed guard RPC refuses the navigation at the proxy and dials nothing", async () => {
    const { guard, dialer } = guardFor({ allowLoopback: true, allowPrivateNetwork: true, allowHosts: [], blockHosts: [] }, { fail: true });
    const blocked: BlockedRequest[] = [];
    const page = await (await launch(guard, blocked)).newPage();
    const before = served.length;
    await expect(page.goto(`${origin}/`)).rejects.toThrow(/ERR_SOCKS_CONNECTION_FAILED/);
    expect(blocked[0]).toMatchObject({ layer: "proxy" });
    expect(blocked[0]!.reason).toMatch(/guard check failed/);
    expect(served.length).toBe(before);
    expect(dialer.asked).toEqual([]);
  });

  it("denies everything when the guard RPC fails, and dials nothing", async () => {
    const { guard, dialer } = guardFor({ allowLoopback: true, allowPrivateNetwork: true, allowHosts: [], blockHosts: [] }, { fail: true, routeRequests: true });
    const blocked: BlockedRequest[] = [];
    const page = await (await launch(guard, blocked)).newPage();
    const before = served.length;
    await expect(page.goto(`${origin}/`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
    expect(blocked[0]).toMatchObject({ layer: "route", isNavigation: true });
    expect(blocked[0]!.reason).toMatch(/guard check failed/);
    expect(served.length).toBe(before);
    expect(dialer.asked).toEqual([]);
  });

  it("sends Playwright's own API requests through the proxy, so the policy refuses them too", async () => {
    const { guard, denials, dialer } = guardFor({ allowLoopback: false, allowPrivateNetwork: false, allowHosts: [], blockHosts: [] });
    const context = await launch(guard);
    const before = served.length;
    await expect(context.request.get(`${origin}/api`)).rejects.toThrow(/NotAllowed|rejected/i);
    expect(denials.some((line) => line.includes(`denied ${origin}/ (proxy)`))).toBe(true);
    expect(served.length).toBe(before);
    expect(dialer.asked).toEqual([]);
  });
});

describe("DNS rebinding through the guard and the real policy", () => {
  async function socksConnect(proxyPort: number, host: string, targetPort: number): Promise<number> {
    const socket = connect({ host: "127.0.0.1", port: proxyPort });
    let buffered = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => (buffered = Buffer.concat([buffered, chunk])));
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(Buffer.from([5, 1, 0]));
    socket.write(encodeRequest(SocksCommand.CONNECT, host, targetPort));
    const until = Date.now() + 5_000;
    for (;;) {
      if (buffered.length > 2) {
        const reply = parseReply(buffered.subarray(2));
        if (reply.kind === "ok") {
          socket.destroy();
          return reply.reply;
        }
      }
      if (Date.now() > until) throw new Error("no SOCKS reply");
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it("connects while the name resolves to an allowed address and never to the metadata address it rebinds to", async () => {
    const answers = [["127.0.0.1"], [METADATA], ["127.0.0.1", METADATA], ["::ffff:169.254.169.254"]];
    let call = 0;
    const resolve = async (host: string): Promise<string[]> => {
      if (host !== "rebind.test") throw new Error(`unexpected lookup of ${host}`);
      return answers[Math.min(call++, answers.length - 1)]!;
    };
    const { guard, dialer } = guardFor({ allowLoopback: true, allowPrivateNetwork: true, allowHosts: ["rebind.test"], blockHosts: [] }, { resolve });
    const proxy = await guard.proxy();
    open.push({ guard });
    expect(await socksConnect(proxy.port, "rebind.test", port)).toBe(SocksReply.SUCCEEDED);
    for (let i = 1; i < answers.length; i++) {
      expect(await socksConnect(proxy.port, "rebind.test", port)).toBe(SocksReply.NOT_ALLOWED_BY_RULESET);
    }
    expect(call).toBe(answers.length);
    expect(dialer.asked).toEqual(["127.0.0.1"]);
    expect(dialer.asked.some((a) => isIP(a) !== 0 && a.includes("169.254"))).toBe(false);
  });
});
