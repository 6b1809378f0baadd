// The guard proxy over real loopback sockets. The injected dialer connects only to
// loopback literals and records every address it is asked for, so no packet can
// leave the machine even if the proxy is broken; afterEach asserts that invariant.

import { createHash, randomBytes } from "node:crypto";
import { connect, createServer, isIP, Socket, type Server } from "node:net";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startGuardProxy, type GuardDecision, type GuardProxy, type GuardProxyEvent, type GuardProxyOptions, type GuardTarget } from "../../daemon/worker/guard-proxy/guard-proxy.js";
import { encodeRequest, parseReply, SocksCommand, SocksReply } from "../../daemon/worker/guard-proxy/socks5.js";

const LOOPBACK = new Set(["127.0.0.1", "::1"]);
const METADATA = "169.254.169.254";

// ---- fixtures, all torn down after each test ----

const cleanups: (() => Promise<void> | void)[] = [];
let dialer: RecordingDialer;
let ipv6Available = false;

beforeAll(async () => {
  const probe = createServer();
  try {
    await listen(probe, "::1");
    ipv6Available = true;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  } catch {
    ipv6Available = false;
  }
});

beforeEach(() => {
  dialer = recordingDialer();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  expect(dialer.asked.filter((address) => !LOOPBACK.has(address) && !dialer.fakeRefuse.has(address) && !dialer.blackhole.has(address))).toEqual([]);
  expect(dialer.asked).not.toContain(METADATA);
});

interface RecordingDialer {
  dial: (address: string, port: number) => Socket;
  asked: string[];
  /** Loopback-range addresses answered with a synthetic ECONNREFUSED, without touching the network. */
  fakeRefuse: Set<string>;
  /** Addresses answered with a socket that never connects. */
  blackhole: Set<string>;
}

function recordingDialer(): RecordingDialer {
  const result: RecordingDialer = {
    asked: [],
    fakeRefuse: new Set(),
    blackhole: new Set(),
    dial: (address, port) => {
      result.asked.push(address);
      if (result.blackhole.has(address)) return new Socket();
      if (!LOOPBACK.has(address) || result.fakeRefuse.has(address)) {
        const socket = new Socket();
        process.nextTick(() => socket.destroy(Object.assign(new Error(`test dialer refuses ${address}`), { code: "ECONNREFUSED" })));
        return socket;
      }
      return connect({ host: address, port, allowHalfOpen: true });
    },
  };
  return result;
}

/** A stand-in for the daemon's policy: loopback allowed, metadata and named hosts denied. */
function fakePolicy() {
  const calls: GuardTarget[] = [];
  const denyHosts = new Set([METADATA, "blocked.test", "metadata.google.internal"]);
  const authorize = async (target: GuardTarget): Promise<GuardDecision> => {
    calls.push(target);
    if (target.host === "explode.test") throw new Error("policy RPC failed");
    if (target.host === "hang.test") return new Promise(() => {});
    if (target.host === "nonsense.test") return { nope: true } as unknown as GuardDecision;
    if (denyHosts.has(target.host)) return { allowed: false, reason: `${target.host} is blocked by policy` };
    if (isIP(target.host) !== 0 && !LOOPBACK.has(target.host) && !target.host.startsWith("127.")) {
      return { allowed: false, reason: "only loopback in tests" };
    }
    return { allowed: true, reason: "allowed" };
  };
  return { authorize, calls };
}

function fakeResolver(table: Record<string, string[] | (() => string[])>) {
  const calls: string[] = [];
  const resolve = async (host: string): Promise<string[]> => {
    calls.push(host);
    const entry = table[host];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return typeof entry === "function" ? entry() : entry;
  };
  return { resolve, calls };
}

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port: 0 }, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** An echo server on a loopback address; every accepted socket is tracked so tests can see it close. */
async function echoServer(host = "127.0.0.1"): Promise<{ port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    socket.pipe(socket);
  });
  const port = await listen(server, host);
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { port, sockets };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server, "127.0.0.1");
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const RESOLVER_TABLE: Record<string, string[]> = {
  "echo.test": ["127.0.0.1"],
  "v6.test": ["::1"],
  "rebind.test": ["127.0.0.1", METADATA],
  "blocked.test": ["127.0.0.1"],
  "fallback.test": ["127.0.0.3", "127.0.0.1"],
  "empty.test": [],
  "bogus.test": ["evil.example"],
  "slow.test": ["127.0.0.9"],
};

async function guard(overrides: Partial<GuardProxyOptions> = {}) {
  const policy = fakePolicy();
  const resolver = fakeResolver(RESOLVER_TABLE);
  const events: GuardProxyEvent[] = [];
  const proxy = await startGuardProxy({
    authorize: policy.authorize,
    resolve: resolver.resolve,
    dial: dialer.dial,
    onEvent: (event) => events.push(event),
    ...overrides,
  });
  cleanups.push(() => proxy.close());
  return { proxy, policy, resolver, events };
}

// ---- a minimal client side of both protocols ----

class Wire {
  data = Buffer.alloc(0);
  closed = false;
  private readonly waiters = new Set<() => void>();

  constructor(readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.data = Buffer.concat([this.data, chunk]);
      this.wake();
    });
    socket.on("close", () => {
      this.closed = true;
      this.wake();
    });
    socket.on("error", () => {});
    cleanups.push(() => void socket.destroy());
  }

  until(condition: () => boolean, ms = 5_000, what = "condition"): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!condition()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, ms);
      this.waiters.add(check);
      check();
    });
  }

  /** Remove and return the first n bytes once they arrive. */
  async take(n: number): Promise<Buffer> {
    await this.until(() => this.data.length >= n || this.closed, 5_000, `${n} bytes`);
    const out = this.data.subarray(0, n);
    this.data = this.data.subarray(n);
    return out;
  }

  untilClosed(ms = 5_000): Promise<void> {
    return this.until(() => this.closed, ms, "close");
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

async function open(port: number, host = "127.0.0.1"): Promise<Wire> {
  const socket = connect({ host, port });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return new Wire(socket);
}

/** A request whose address is sent as a domain name, the way Chromium sends even IP literals. */
function domainRequest(host: string, port: number, command: number = SocksCommand.CONNECT): Buffer {
  const name = Buffer.from(host, "latin1");
  return Buffer.concat([Buffer.from([5, command, 0, 3, name.length]), name, Buffer.from([port >> 8, port & 0xff])]);
}

async function socksConnect(proxyPort: number, request: Buffer): Promise<{ wire: Wire; reply: number | undefined }> {
  const wire = await open(proxyPort);
  wire.socket.write(Buffer.from([5, 1, 0]));
  expect(await wire.take(2)).toEqual(Buffer.from([5, 0]));
  wire.socket.write(request);
  await wire.until(() => parseReply(wire.data).kind !== "incomplete" || wire.closed, 5_000, "SOCKS reply");
  const parsed = parseReply(wire.data);
  if (parsed.kind !== "ok") return { wire, reply: undefined };
  wire.data = wire.data.subarray(parsed.consumed);
  return { wire, reply: parsed.reply };
}

async function httpConnect(proxyPort: number, authority: string): Promise<{ wire: Wire; status: number; body: string }> {
  const wire = await open(proxyPort);
  wire.socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  await wire.until(() => wire.data.includes("\r\n\r\n") || wire.closed, 5_000, "HTTP response");
  const end = wire.data.indexOf("\r\n\r\n");
  const headText = wire.data.toString("latin1", 0, end);
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(headText)?.[1]);
  wire.data = wire.data.subarray(end + 4);
  let body = "";
  if (status !== 200) {
    await wire.untilClosed();
    body = wire.data.toString();
  }
  return { wire, status, body };
}

async function expectEcho(wire: Wire, payload = randomBytes(64)): Promise<void> {
  wire.socket.write(payload);
  const echoed = await wire.take(payload.length);
  // Buffer.equals, not toEqual: a deep diff of thousands of bytes per tunnel is slow.
  expect(echoed.equals(payload), "echoed bytes match").toBe(true);
}


/** Server-side effects of a close land a moment after the client sees it. */
async function eventually(assertion: () => void, ms = 2_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

const checksOf = (events: GuardProxyEvent[]) => events.filter((event) => event.type === "check");

// ---- tests ----

describe("SOCKS5 tunnels", () => {
  it("connects to an IPv4 literal without resolving it", async () => {
    const echo = await echoServer();
    const { proxy, policy, resolver } = await guard();
    expect(proxy.url).toBe(`socks5://127.0.0.1:${proxy.port}`);
    const { wire, reply } = await socksConnect(proxy.port, encodeRequest(SocksCommand.CONNECT, "127.0.0.1", echo.port));
    expect(reply).toBe(SocksReply.SUCCEEDED);
    await expectEcho(wire);
    expect(policy.calls).toEqual([{ host: "127.0.0.1", port: echo.port }]);
    expect(resolver.calls).toEqual([]);
    expect(dialer.asked).toEqual(["127.0.0.1"]);
  });

  it("treats an IP literal sent as a domain name (as Chromium does) as a literal", async () => {
    const echo = await echoServer();
    const { proxy, resolver } = await guard();
    const { wire, reply } = await socksConnect(proxy.port, domainRequest("127.0.0.1", echo.port));
    expect(reply).toBe(SocksReply.SUCCEEDED);
    await expectEcho(wire);
    expect(resolver.calls).toEqual([]);
  });

  it("checks a hostname, then every address it resolves to, and dials only those literals", async () => {
    const echo = await echoServer();
    const { proxy, policy, resolver, events } = await guard();
    const { wire, reply } = await socksConnect(proxy.port, domainRequest("echo.test", echo.port));
    expect(reply).toBe(SocksReply.SUCCEEDED);
    await expectEcho(wire);
    expect(policy.calls).toEqual([
      { host: "echo.test", port: echo.port },
      { host: "127.0.0.1", port: echo.port, resolvedFrom: "echo.test" },
    ]);
    expect(resolver.calls).toEqual(["echo.test"]);
    expect(dialer.asked).toEqual(["127.0.0.1"]);
    expect(checksOf(events)).toHaveLength(2);
    expect(proxy.stats()).toMatchObject({ connections: 1, checks: 2, denied: 0, tunnels: 1 });
  });

  it("connects over IPv6 to ::1, by address and by name", async (context) => {
    if (!ipv6Available) context.skip();
    const echo = await echoServer("::1");
    const { proxy, policy } = await guard();
    const byAddress = await socksConnect(proxy.port, encodeRequest(SocksCommand.CONNECT, "::1", echo.port));
    expect(byAddress.reply).toBe(SocksReply.SUCCEEDED);
    await expectEcho(byAddress.wire);
    const byName = await socksConnect(proxy.port, domainRequest("v6.test", echo.port));
    expect(byName.reply).toBe(SocksReply.SUCCEEDED);
    await expectEcho(byName.wire);
    expect(policy.calls).toContainEqual({ host: "::1", port: echo.port, resolvedFrom: "v6.test" });
    expect(dialer.asked).toEqual(["::1", "::1"]);
  });

  it("tries resolved addresses in order and keeps the first that connects", async () => {
    const echo = await echoServer();
    dialer.fakeRefuse.add("127.0.0.3");
    const { proxy, events } = await guard();
    const { wire, reply } = await socksConnect(proxy.port, domainRequest("fallback.test", echo.port));
    expect(reply).toBe(SocksReply.SUCCEEDED);
    await expectEcho(wire);
    expect(dialer.asked).toEqual(["127.0.0.3", "127.0.0.1"]);
    expect(events).toContainEqual(expect.objectContaining({ type: "dial-failed", address: "127.0.0.3", failure: "refused" }));
  });

  it("forwards bytes pipelined after the request", async () => {
    const echo = await echoServer();
    const { proxy } = await guard();
    const wire = await open(proxy.port);
    const payload = Buffer.from("hello through the tunnel");
    wire.socket.write(Buffer.concat([Buffer.from([5, 1, 0]), domainRequest("echo.test", echo.port), payload]));
    expect(await wire.take(2)).toEqual(Buffer.from([5, 0]));
    expect((await wire.take(10))[1]).toBe(SocksReply.SUCCEEDED);
    expect(await wire.take(payload.length)).toEqual(payload);
  });

  it("carries a half-close sent together with the request", async () => {
    const echo = await echoServer();
    const { proxy } = await guard();
    const wire = await open(proxy.port);
    const payload = Buffer.from("request, payload and FIN in one go");
    wire.socket.end(Buffer.concat([Buffer.from([5, 1, 0]), domainRequest("echo.test", echo.port), payload]));
    await wire.untilClosed();
    expect(wire.data.subarray(0, 2)).toEqual(Buffer.from([5, 0]));
    expect(wire.data[3]).toBe(SocksReply.SUCCEEDED);
    expect(wire.data.subarray(12)).toEqual(payload);
  });

  it("carries a large transfer intact both ways", async () => {
    const echo = await echoServer();
    const { proxy } = await guard();
    const { wire } = await socksConnect(proxy.port, encodeRequest(SocksCommand.CONNECT, "127.0.0.1", echo.port));
    const payload = randomBytes(8 * 1024 * 1024);
    wire.socket.end(payload);
    await wire.untilClosed(20_000);
    expect(createHash("sha256").update(wire.data).digest("hex")).toBe(createHash("sha256").update(payload).digest("hex"));
  });

  it("tears the client side down when the upstream closes", async () => {
    const echo = await echoServer();
    const { proxy } = await guard();
    const { wire } = await socksConnect(proxy.port, encodeRequest(SocksCommand.CONNECT, "127.0.0.1", echo.port));
    await expectEcho(wire);
    for (const socket of echo.sockets) socket.destroy();
    await wire.untilClosed();
  });

  it("closes a tunnel that stays idle past idleTimeoutMs", async () => {
    const echo = await echoServer();
    const { proxy } = await guard({ idleTimeoutMs: 200 });
    const { wire } = await socksConnect(proxy.port, encodeRequest(SocksCommand.CONNECT, "127.0.0.1", echo.port));
    await expectEcho(wire);
    await wire.untilClosed(3_000);
    await eventually(() => expect(echo.sockets.size).toBe(0));
  });
});

describe("HTTP CONNECT tunnels", () => {
  it("connects by IPv4 literal and by name", async () => {
    const echo = await echoServer();
    const { proxy, policy } = await guard();
    const byAddress = await httpConnect(proxy.port, `127.0.0.1:${echo.port}`);
    expect(byAddress.status).toBe(200);
    await expectEcho(byAddress.wire);
    const byName = await httpConnect(proxy.port, `echo.test:${echo.port}`);
    expect(byName.status).toBe(200);
    await expectEcho(byName.wire);
    expect(policy.calls).toContainEqual({ host: "127.0.0.1", port: echo.port, resolvedFrom: "echo.test" });
    expect(dialer.asked).toEqual(["127.0.0.1", "127.0.0.1"]);
  });

  it("connects to a bracketed IPv6 literal", async (context) => {
    if (!ipv6Available) context.skip();
    const echo = await echoServer("::1");
    const { proxy, policy } = await guard();
    const { wire, status } = await httpConnect(proxy.port, `[::1]:${echo.port}`);
    expect(status).toBe(200);
    await expectEcho(wire);
    expect(policy.calls).toEqual([{ host: "::1", port: echo.port }]);
  });

  it("refuses other methods with 405", async () => {
    const { proxy } = await guard();
    const wire = await open(proxy.port);
    wire.socket.write("GET http://127.0.0.1/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await wire.untilClosed();
    expect(wire.data.toString()).toMatch(/^HTTP\/1\.1 405 /);
    expect(dialer.asked).toEqual([]);
  });
});

describe("denials and failures", () => {
  it("never dials a rebinding answer: one blocked address denies the whole connection", async () => {
    const echo = await echoServer();
    const { proxy, policy, events } = await guard();
    const socks = await socksConnect(proxy.port, domainRequest("rebind.test", echo.port));
    expect(socks.reply).toBe(SocksReply.NOT_ALLOWED_BY_RULESET);
    await socks.wire.untilClosed();
    const http = await httpConnect(proxy.port, `rebind.test:${echo.port}`);
    expect(http.status).toBe(403);
    expect(http.body).toContain(METADATA);
    expect(policy.calls).toContainEqual({ host: METADATA, port: echo.port, resolvedFrom: "rebind.test" });
    expect(dialer.asked).toEqual([]);
    expect(proxy.stats()).toMatchObject({ denied: 2, tunnels: 0 });
    expect(events).toContainEqual(expect.objectContaining({ type: "refused", refusal: "denied", host: "rebind.test" }));
  });

  it("re-resolves on every connection, so a later rebinding answer is checked too", async () => {
    const echo = await echoServer();
    const answers = [["127.0.0.1"], [METADATA]];
    const { proxy } = await guard({ resolve: fakeResolver({ "flip.test": () => answers.shift() ?? [] }).resolve });
    const first = await socksConnect(proxy.port, domainRequest("flip.test", echo.port));
    expect(first.reply).toBe(SocksReply.SUCCEEDED);
    await expectEcho(first.wire);
    const second = await socksConnect(proxy.port, domainRequest("flip.test", echo.port));
    expect(second.reply).toBe(SocksReply.NOT_ALLOWED_BY_RULESET);
    expect(dialer.asked).toEqual(["127.0.0.1"]);
  });

  it("denies a blocked name before resolving it", async () => {
    const { proxy, resolver } = await guard();
    const socks = await socksConnect(proxy.port, domainRequest("blocked.test", 443));
    expect(socks.reply).toBe(SocksReply.NOT_ALLOWED_BY_RULESET);
    const http = await httpConnect(proxy.port, "blocked.test:443");
    expect(http.status).toBe(403);
    expect(http.body).toContain("blocked.test is blocked by policy");
    expect(resolver.calls).toEqual([]);
    expect(dialer.asked).toEqual([]);
  });

  it("denies metadata literals in any address type", async () => {
    const { proxy } = await guard();
    expect((await socksConnect(proxy.port, encodeRequest(SocksCommand.CONNECT, METADATA, 80))).reply).toBe(SocksReply.NOT_ALLOWED_BY_RULESET);
    expect((await socksConnect(proxy.port, domainRequest(METADATA, 80))).reply).toBe(SocksReply.NOT_ALLOWED_BY_RULESET);
    expect((await socksConnect(proxy.port, encodeRequest(SocksCommand.CONNECT, "::ffff:169.254.169.254", 80))).reply).toBe(
      SocksReply.NOT_ALLOWED_BY_RULESET,
    );
    expect((await httpConnect(proxy.port, `${METADATA}:80`)).status).toBe(403);
    expect(dialer.asked).toEqual([]);
  });

  it.each([
    ["throws", "explode.test", {}],
    ["answers nonsense", "nonsense.test", {}],
    ["never answers", "hang.test", { checkTimeoutMs: 200 }],
  ])("denies when the policy check %s", async (_name, host, overrides) => {
    const { proxy, events } = await guard(overrides);
    expect((await socksConnect(proxy.port, domainRequest(host, 80))).reply).toBe(SocksReply.NOT_ALLOWED_BY_RULESET);
    expect((await httpConnect(proxy.port, `${host}:80`)).status).toBe(403);
    expect(checksOf(events).every((event) => event.type === "check" && event.error !== undefined)).toBe(true);
    expect(dialer.asked).toEqual([]);
  });

  it.each([
    ["does not resolve", "nowhere.test"],
    ["resolves to nothing", "empty.test"],
    ["resolves to a non-address", "bogus.test"],
  ])("answers host-unreachable when the name %s", async (_name, host) => {
    const { proxy } = await guard();
    expect((await socksConnect(proxy.port, domainRequest(host, 80))).reply).toBe(SocksReply.HOST_UNREACHABLE);
    expect((await httpConnect(proxy.port, `${host}:80`)).status).toBe(502);
    expect(dialer.asked).toEqual([]);
  });

  it("denies when resolution hangs past checkTimeoutMs", async () => {
    const { proxy } = await guard({ checkTimeoutMs: 200, resolve: () => new Promise<string[]>(() => {}) });
    expect((await socksConnect(proxy.port, domainRequest("echo.test", 80))).reply).toBe(SocksReply.HOST_UNREACHABLE);
  });

  it("answers connection-refused for a closed port", async () => {
    const port = await closedPort();
    const { proxy } = await guard();
    expect((await socksConnect(proxy.port, encodeRequest(SocksCommand.CONNECT, "127.0.0.1", port))).reply).toBe(SocksReply.CONNECTION_REFUSED);
    expect((await httpConnect(proxy.port, `echo.test:${port}`)).status).toBe(502);
  });

  it("answers a timeout when no address connects in time", async () => {
    dialer.blackhole.add("127.0.0.9");
    const { proxy } = await guard({ connectTimeoutMs: 200 });
    expect((await socksConnect(proxy.port, domainRequest("slow.test", 80))).reply).toBe(SocksReply.TTL_EXPIRED);
    expect((await httpConnect(proxy.port, "slow.test:80")).status).toBe(504);
  });

  it("refuses malformed target hosts without asking anyone", async () => {
    const { proxy, policy } = await guard();
    for (const host of ["bad host", "a\u0000b", "echo.test:80", "[::1"]) {
      expect((await socksConnect(proxy.port, domainRequest(host, 80))).reply).toBe(SocksReply.GENERAL_FAILURE);
    }
    expect(policy.calls).toEqual([]);
  });
});

describe("hostile and broken clients", () => {
  it("drops a client that stalls mid-handshake, in either protocol", async () => {
    const { proxy, events } = await guard({ handshakeTimeoutMs: 200 });
    const silent = await open(proxy.port);
    const socksPartial = await open(proxy.port);
    socksPartial.socket.write(Buffer.from([5, 1]));
    const socksNoRequest = await open(proxy.port);
    socksNoRequest.socket.write(Buffer.from([5, 1, 0, 5, 1, 0, 3, 9, 0x65]));
    const httpPartial = await open(proxy.port);
    httpPartial.socket.write("CONNECT echo.test:80 HTTP/1.1\r\nHost: ec");
    await Promise.all([silent, socksPartial, socksNoRequest, httpPartial].map((wire) => wire.untilClosed(3_000)));
    expect(events.filter((event) => event.type === "protocol-error" && event.reason.includes("handshake"))).toHaveLength(4);
    await eventually(() => expect(proxy.stats().active).toBe(0));
  });

  it("drops an oversize handshake", async () => {
    const { proxy, events } = await guard({ maxHandshakeBytes: 64 });
    const http = await open(proxy.port);
    http.socket.write(`CONNECT echo.test:80 HTTP/1.1\r\nX-Pad: ${"a".repeat(100)}`);
    await http.untilClosed();
    expect(http.data.toString()).toMatch(/^HTTP\/1\.1 431 /);
    // A 255-byte domain cannot fit in 64 bytes, so this request is still incomplete when dropped.
    const socks = await open(proxy.port);
    socks.socket.write(Buffer.concat([Buffer.from([5, 1, 0]), domainRequest("a".repeat(255), 80).subarray(0, 100)]));
    await socks.untilClosed();
    expect(socks.data).toEqual(Buffer.from([5, 0]));
    expect(events).toContainEqual(expect.objectContaining({ type: "protocol-error", protocol: "socks5", reason: "handshake exceeds 64 bytes" }));
  });

  it("answers a client that offers no acceptable method with 0xFF and closes", async () => {
    const { proxy } = await guard();
    const wire = await open(proxy.port);
    wire.socket.write(Buffer.from([5, 2, 1, 2]));
    await wire.untilClosed();
    expect(wire.data).toEqual(Buffer.from([5, 0xff]));
  });

  it.each([
    ["BIND", SocksCommand.BIND, SocksReply.COMMAND_NOT_SUPPORTED],
    ["UDP ASSOCIATE", SocksCommand.UDP_ASSOCIATE, SocksReply.COMMAND_NOT_SUPPORTED],
  ])("refuses %s with command-not-supported", async (_name, command, expected) => {
    const { proxy, policy } = await guard();
    const { wire, reply } = await socksConnect(proxy.port, domainRequest("echo.test", 80, command));
    expect(reply).toBe(expected);
    await wire.untilClosed();
    expect(policy.calls).toEqual([]);
  });

  it("refuses an unknown address type", async () => {
    const { proxy } = await guard();
    const { reply } = await socksConnect(proxy.port, Buffer.from([5, 1, 0, 9, 1, 2, 3, 4, 0, 80]));
    expect(reply).toBe(SocksReply.ADDRESS_TYPE_NOT_SUPPORTED);
  });

  it("survives garbage of every shape and keeps serving", async () => {
    const echo = await echoServer();
    const { proxy } = await guard({ handshakeTimeoutMs: 300 });
    const inputs: Buffer[] = [
      Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5]), // a TLS ClientHello sent to the proxy
      Buffer.from([4, 1, 0, 80, 127, 0, 0, 1, 0]), // SOCKS4
      Buffer.from([5, 0]),
      Buffer.from([5, 1, 0, 4, 1, 0]),
      Buffer.from("\r\n\r\n"),
      Buffer.from("CONNECT echo.test:99999 HTTP/1.1\r\n\r\n"),
    ];
    for (let i = 0; i < 60; i += 1) inputs.push(randomBytes(1 + (i % 40)));
    const wires = await Promise.all(inputs.map(() => open(proxy.port)));
    wires.forEach((wire, i) => wire.socket.end(inputs[i]));
    await Promise.all(wires.map((wire) => wire.untilClosed(3_000)));
    const { wire, reply } = await socksConnect(proxy.port, domainRequest("echo.test", echo.port));
    expect(reply).toBe(SocksReply.SUCCEEDED);
    await expectEcho(wire);
  });

  it("keeps working when the event hook throws", async () => {
    const echo = await echoServer();
    const { proxy } = await guard({
      onEvent: () => {
        throw new Error("logger is broken");
      },
    });
    const { wire, reply } = await socksConnect(proxy.port, domainRequest("echo.test", echo.port));
    expect(reply).toBe(SocksReply.SUCCEEDED);
    await expectEcho(wire);
  });
});

describe("scale and lifecycle", () => {
  it("serves many concurrent tunnels, each with its own bytes", async () => {
    const echo = await echoServer();
    const { proxy } = await guard();
    const count = 100;
    const tunnels = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        i % 2 === 0 ? socksConnect(proxy.port, domainRequest("echo.test", echo.port)) : httpConnect(proxy.port, `echo.test:${echo.port}`),
      ),
    );
    await Promise.all(tunnels.map(({ wire }) => expectEcho(wire, randomBytes(4096))));
    expect(proxy.stats()).toMatchObject({ connections: count, active: count, tunnels: count, checks: 2 * count, denied: 0 });
  });

  it("close() destroys every live connection, client and upstream, and stops listening", async () => {
    const echo = await echoServer();
    const { proxy } = await guard();
    const tunnels = await Promise.all([1, 2, 3].map(() => socksConnect(proxy.port, encodeRequest(SocksCommand.CONNECT, "127.0.0.1", echo.port))));
    await Promise.all(tunnels.map(({ wire }) => expectEcho(wire)));
    const midHandshake = await open(proxy.port);
    midHandshake.socket.write(Buffer.from([5, 1]));
    const waitingOnPolicy = await open(proxy.port);
    waitingOnPolicy.socket.write(Buffer.concat([Buffer.from([5, 1, 0]), domainRequest("hang.test", 80)]));
    await waitingOnPolicy.take(2);
    expect(echo.sockets.size).toBe(3);

    await proxy.close();
    await Promise.all([...tunnels.map(({ wire }) => wire), midHandshake, waitingOnPolicy].map((wire) => wire.untilClosed()));
    await eventually(() => expect(echo.sockets.size).toBe(0));
    await eventually(() => expect(proxy.stats().active).toBe(0));
    await proxy.close();
    await expect(open(proxy.port)).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it.each([
    ["a negative timeout", { handshakeTimeoutMs: -1 }],
    ["an infinite timeout", { connectTimeoutMs: Number.POSITIVE_INFINITY }],
    ["a zero handshake bound", { maxHandshakeBytes: 0 }],
  ])("refuses to start with %s", async (_name, overrides) => {
    await expect(startGuardProxy({ authorize: fakePolicy().authorize, ...overrides })).rejects.toThrow(RangeError);
  });

  it("dials with net.connect by default (loopback literal only)", async () => {
    const echo = await echoServer();
    const policy = fakePolicy();
    const proxy = await startGuardProxy({ authorize: policy.authorize });
    cleanups.push(() => proxy.close());
    const { wire, reply } = await socksConnect(proxy.port, encodeRequest(SocksCommand.CONNECT, "127.0.0.1", echo.port));
    expect(reply).toBe(SocksReply.SUCCEEDED);
    await expectEcho(wire);
  });
});
