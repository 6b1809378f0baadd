// The guard proxy test harness: the worker's proxy front joined directly to the
// daemon's side (decide, resolve, dial: approved-connect.ts) instead of over the
// worker's channels; a recording dialer that connects only to loopback literals
// and records every address it is asked for (so no packet can leave the machine
// even if the guard is broken; afterEach asserts that invariant), a fake policy
// and resolver, and a minimal client of both protocols.
import { randomBytes } from "node:crypto";
import { connect, createServer, isIP, Socket, type Server } from "node:net";
import { afterEach, beforeAll, beforeEach, expect } from "vitest";
import { APPROVED_CONNECT_DEFAULTS, connectApproved, type ApprovedConnectOptions } from "../../daemon/guard/approved-connect.js";
import type { CheckRecord, GuardDecision, GuardTarget } from "../../daemon/guard/guard-decision.js";
import { defaultResolve } from "../../daemon/guard/guard-service.js";
import { defaultDial, type DialFailure } from "../../daemon/guard/upstream-dial.js";
import { startGuardProxy, type Connect, type GuardProxyEvent, type GuardProxyOptions } from "../../daemon/browser-worker/guard/proxy/guard-proxy.js";
import { parseReply, SocksCommand } from "../../shared/guard/proxy/socks5.js";

export const LOOPBACK = new Set(["127.0.0.1", "::1"]);
export const METADATA = "169.254.169.254";

// ---- fixtures, all torn down after each test ----

export const cleanups: (() => Promise<void> | void)[] = [];
export let dialer: RecordingDialer;
export let ipv6Available = false;

/** Registers the per-file and per-test setup; call once at the top of a test file. */
export function useGuardProxyHarness(): void {
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
}

export interface RecordingDialer {
  dial: (address: string, port: number) => Socket;
  asked: string[];
  /** Loopback-range addresses answered with a synthetic ECONNREFUSED, without touching the network. */
  fakeRefuse: Set<string>;
  /** Addresses answered with a socket that never connects. */
  blackhole: Set<string>;
}

export function recordingDialer(): RecordingDialer {
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
export function fakePolicy() {
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

export function fakeResolver(table: Record<string, string[] | (() => string[])>) {
  const calls: string[] = [];
  const resolve = async (host: string): Promise<string[]> => {
    calls.push(host);
    const entry = table[host];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return typeof entry === "function" ? entry() : entry;
  };
  return { resolve, calls };
}

export async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port: 0 }, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** An echo server on a loopback address; every accepted socket is tracked so tests can see it close. */
export async function echoServer(host = "127.0.0.1"): Promise<{ port: number; sockets: Set<Socket> }> {
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

export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server, "127.0.0.1");
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const RESOLVER_TABLE: Record<string, string[]> = {
  "echo.test": ["127.0.0.1"],
  "v6.test": ["::1"],
  "rebind.test": ["127.0.0.1", METADATA],
  "blocked.test": ["127.0.0.1"],
  "fallback.test": ["127.0.0.3", "127.0.0.1"],
  "empty.test": [],
  "bogus.test": ["evil.example"],
  "slow.test": ["127.0.0.9"],
};

/** The proxy's events, and the daemon side's policy checks and failed dials in the same list. */
export type HarnessEvent =
  | GuardProxyEvent
  | ({ type: "check" } & CheckRecord)
  | { type: "dial-failed"; address: string; port: number; failure: DialFailure; reason: string };

type ConnectOverrides = Partial<Pick<ApprovedConnectOptions, "authorize" | "resolve" | "dial" | "checkTimeoutMs" | "connectTimeoutMs" | "maxResolvedAddresses">>;

/** The daemon's decide-and-dial as the proxy's `connect`, in this process: what guard.connect runs. */
export function localConnect(options: ConnectOverrides & { authorize: ApprovedConnectOptions["authorize"] }, events?: HarnessEvent[]): Connect {
  const full: ApprovedConnectOptions = {
    resolve: defaultResolve,
    dial: defaultDial,
    now: () => performance.now(),
    ...APPROVED_CONNECT_DEFAULTS,
    ...options,
    onCheck: (record) => events?.push({ type: "check", ...record }),
    onDialFailed: (address, port, failure, reason) => events?.push({ type: "dial-failed", address, port, failure, reason }),
  };
  return (host, port, signal) => connectApproved(host, port, full, signal);
}

export async function guard(overrides: Partial<Omit<GuardProxyOptions, "connect">> & ConnectOverrides = {}) {
  const policy = fakePolicy();
  const resolver = fakeResolver(RESOLVER_TABLE);
  const events: HarnessEvent[] = [];
  const { authorize, resolve, dial, checkTimeoutMs, connectTimeoutMs, maxResolvedAddresses, onEvent, ...front } = overrides;
  const connectOptions: ConnectOverrides & { authorize: ApprovedConnectOptions["authorize"] } = {
    authorize: authorize ?? policy.authorize,
    resolve: resolve ?? resolver.resolve,
    dial: dial ?? dialer.dial,
    ...(checkTimeoutMs === undefined ? {} : { checkTimeoutMs }),
    ...(connectTimeoutMs === undefined ? {} : { connectTimeoutMs }),
    ...(maxResolvedAddresses === undefined ? {} : { maxResolvedAddresses }),
  };
  const proxy = await startGuardProxy({
    connect: localConnect(connectOptions, events),
    onEvent: onEvent ?? ((event) => events.push(event)),
    ...front,
  });
  cleanups.push(() => proxy.close());
  return { proxy, policy, resolver, events };
}

// ---- a minimal client side of both protocols ----

export class Wire {
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

export async function open(port: number, host = "127.0.0.1"): Promise<Wire> {
  const socket = connect({ host, port });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return new Wire(socket);
}

/** A request whose address is sent as a domain name, the way Chromium sends even IP literals. */
export function domainRequest(host: string, port: number, command: number = SocksCommand.CONNECT): Buffer {
  const name = Buffer.from(host, "latin1");
  return Buffer.concat([Buffer.from([5, command, 0, 3, name.length]), name, Buffer.from([port >> 8, port & 0xff])]);
}

export async function socksConnect(proxyPort: number, request: Buffer): Promise<{ wire: Wire; reply: number | undefined }> {
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

export async function httpConnect(proxyPort: number, authority: string): Promise<{ wire: Wire; status: number; body: string }> {
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

export async function expectEcho(wire: Wire, payload = randomBytes(64)): Promise<void> {
  wire.socket.write(payload);
  const echoed = await wire.take(payload.length);
  // Buffer.equals, not toEqual: a deep diff of thousands of bytes per tunnel is slow.
  expect(echoed.equals(payload), "echoed bytes match").toBe(true);
}


/** Server-side effects of a close land a moment after the client sees it. */
export async function eventually(assertion: () => void, ms = 2_000): Promise<void> {
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

export const checksOf = (events: HarnessEvent[]) => events.filter((event) => event.type === "check");
