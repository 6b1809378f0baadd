// The daemon's guard for remote browsers, over real sockets on 127.0.0.1: an
// upstream HTTP server, and an injected `connect` that dials only that server's
// port on 127.0.0.1 and refuses everything else, recording every question, so
// no packet can leave the machine and an unauthenticated client is seen never
// to reach the policy.
import { request as httpRequest, createServer as createHttpServer, type IncomingMessage } from "node:http";
import { connect as netConnect, createServer, type Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RemoteGuard, type ConnectOutcome, type ProxyCredentials, type RemoteGuardOptions, type RemoteLease } from "../../daemon/guard/remote-guard.js";
import { BwError } from "../../shared/protocol/errors.js";
import type { Refusal } from "../../shared/protocol/methods/index.js";
import { cleanups, eventually, listen, open, type Wire } from "../helpers/guard-proxy-harness.js";

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage["headers"];
  body: string;
}

let upstream: { port: number; seen: Seen[]; sockets: Set<Socket> };
/** Ports the policy stand-in allows on 127.0.0.1, the upstream's among them. */
let allowedPorts: Set<number>;
let asked: { host: string; port: number }[];
let refusals: { lease: RemoteLease; url: string; refusal: Refusal; reason: string }[];
let logs: string[];

beforeEach(async () => {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.end(`upstream saw ${req.method} ${req.url} ${body}`);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const port = await listen(server, "127.0.0.1");
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  upstream = { port, seen, sockets };
  allowedPorts = new Set([port]);
  asked = [];
  refusals = [];
  logs = [];
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The policy stand-in: the upstream's port on 127.0.0.1 (or as allowed.test) is allowed, everything else denied. */
async function fakeConnect(host: string, port: number, signal: AbortSignal): Promise<ConnectOutcome> {
  asked.push({ host, port });
  if (!(host === "127.0.0.1" || host === "allowed.test") || !allowedPorts.has(port)) {
    return { kind: "refused", refusal: "denied", reason: `${host}:${port} is not allowed here`, checks: 1 };
  }
  const socket = netConnect({ host: "127.0.0.1", port, allowHalfOpen: true });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  if (signal.aborted) {
    socket.destroy();
    return { kind: "aborted", checks: 1 };
  }
  return { kind: "connected", socket, address: "127.0.0.1", checks: 1 };
}

async function startGuard(options: Partial<RemoteGuardOptions> = {}): Promise<{ guard: RemoteGuard; port: number }> {
  const guard = await RemoteGuard.start({
    listen: { host: "127.0.0.1", port: 0 },
    connect: fakeConnect,
    onRefused: (lease, url, refusal, reason) => refusals.push({ lease, url, refusal, reason }),
    log: (line) => logs.push(line),
    ...options,
  });
  cleanups.push(() => guard.close());
  return { guard, port: guard.listening.port };
}

const basic = (c: Pick<ProxyCredentials, "username" | "password">) => `Basic ${Buffer.from(`${c.username}:${c.password}`).toString("base64")}`;

/** One request head to the proxy; the status and head of its answer, and the wire for what follows. */
async function ask(port: number, head: string): Promise<{ wire: Wire; status: number; headText: string }> {
  const wire = await open(port);
  wire.socket.write(head);
  await wire.until(() => wire.data.includes("\r\n\r\n") || wire.closed, 5_000, "an answer");
  const end = wire.data.indexOf("\r\n\r\n");
  const headText = end < 0 ? "" : wire.data.toString("latin1", 0, end);
  wire.data = wire.data.subarray(end < 0 ? 0 : end + 4);
  return { wire, status: Number(/^HTTP\/1\.[01] (\d{3}) /.exec(headText)?.[1] ?? 0), headText };
}

const connectHead = (authority: string, authorization?: string) =>
  `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${authorization === undefined ? "" : `Proxy-Authorization: ${authorization}\r\n`}\r\n`;

/** A plain-http GET through the proxy as Node's client (and Chromium) sends it: absolute form. */
function proxiedGet(proxyPort: number, url: string, headers: Record<string, string>): Promise<{ status: number; body: string; headers: IncomingMessage["headers"] }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: proxyPort, method: "GET", path: url, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * An upstream that keeps every connection open whatever it is told, answers each
 * request head with a short 200, and records every byte it gets: the worst case
 * for a client that would reuse the connection.
 */
async function keepAliveUpstream(): Promise<{ port: number; received: () => string }> {
  let received = "";
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    });
  });
  const port = await listen(server, "127.0.0.1");
  allowedPorts.add(port);
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { port, received: () => received };
}

/** Send an origin-form request through an established tunnel and read the whole answer (the upstream closes after it). */
async function throughTunnel(wire: Wire, path: string): Promise<string> {
  wire.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  await wire.untilClosed();
  return wire.data.toString();
}

describe("the remote guard", () => {
  it("answers 407 with a Basic challenge to a CONNECT without credentials, and never asks the policy", async () => {
    const { guard, port } = await startGuard();
    const { wire, status, headText } = await ask(port, connectHead(`127.0.0.1:${upstream.port}`));
    expect(status).toBe(407);
    expect(headText).toContain('\r\nProxy-Authenticate: Basic realm="betterwright"');
    expect(headText).toContain("\r\nConnection: close");
    await wire.untilClosed();
    expect(asked).toEqual([]);
    expect(guard.stats()).toMatchObject({ unauthorized: 1, tunnels: 0, refused: 0 });
  });

  it("answers 407 to every credential that is not a live lease's, CONNECT or forwarded", async () => {
    const { guard, port } = await startGuard();
    const a = guard.lease("s", 1).credentials;
    const b = guard.lease("s", 1).credentials;
    const wrong = `${a.password.slice(0, -1)}${a.password.endsWith("0") ? "1" : "0"}`;
    const bad = [
      basic({ username: a.username, password: wrong }),
      basic({ username: b.username, password: a.password }),
      basic({ username: a.password, password: a.username }),
      `Bearer ${a.password}`,
      "Basic !!!!",
      `Basic ${Buffer.from(`${a.username}:${a.password}`).toString("base64")}\r\nProxy-Authorization: x`,
    ];
    for (const authorization of bad) {
      const tunnel = await ask(port, connectHead(`127.0.0.1:${upstream.port}`, authorization));
      expect(tunnel.status, authorization).toBe(407);
      const forward = await ask(port, `GET http://127.0.0.1:${upstream.port}/ HTTP/1.1\r\nProxy-Authorization: ${authorization}\r\n\r\n`);
      expect(forward.status, authorization).toBe(407);
    }
    // The right credentials twice are not one credential.
    const twice = await ask(port, `CONNECT 127.0.0.1:${upstream.port} HTTP/1.1\r\nProxy-Authorization: ${basic(a)}\r\nProxy-Authorization: ${basic(a)}\r\n\r\n`);
    expect(twice.status).toBe(407);
    expect(asked).toEqual([]);
    expect(upstream.seen).toEqual([]);
  });

  it("refuses a SOCKS5 greeting: no method is offered, and the policy is never asked", async () => {
    const { guard, port } = await startGuard();
    const wire = await open(port);
    wire.socket.write(Buffer.from([5, 1, 0]));
    expect(await wire.take(2)).toEqual(Buffer.from([5, 0xff]));
    await wire.untilClosed();
    expect(asked).toEqual([]);
    expect(guard.stats().unauthorized).toBe(1);
  });

  it("refuses a malformed or oversized request before credentials, and never asks the policy", async () => {
    const { port } = await startGuard({ maxHandshakeBytes: 256 });
    expect((await ask(port, `GET http://127.0.0.1:${upstream.port}/ HTTP/1.1\r\nX: ${"a".repeat(400)}\r\n\r\n`)).status).toBe(431);
    expect((await ask(port, "GET https://127.0.0.1/ HTTP/1.1\r\n\r\n")).status).toBe(400);
    const garbage = await open(port);
    garbage.socket.write(Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05]));
    await garbage.untilClosed();
    expect(asked).toEqual([]);
  });

  it("tunnels a CONNECT with a lease's credentials to an allowed target", async () => {
    const { guard, port } = await startGuard();
    const { credentials } = guard.lease("s", 1);
    expect(credentials.server).toBe(`http://127.0.0.1:${port}`);
    const { wire, status } = await ask(port, connectHead(`allowed.test:${upstream.port}`, basic(credentials)));
    expect(status).toBe(200);
    expect(await throughTunnel(wire, "/inside")).toContain("upstream saw GET /inside");
    expect(asked).toEqual([{ host: "allowed.test", port: upstream.port }]);
    expect(guard.stats()).toMatchObject({ tunnels: 1, refused: 0 });
  });

  it("answers 403 for a target the policy denies, and tells onRefused whose connection it was", async () => {
    const { guard, port } = await startGuard();
    const { lease, credentials } = guard.lease("s", 7);
    const { wire, status } = await ask(port, connectHead("127.0.0.1:9", basic(credentials)));
    expect(status).toBe(403);
    await wire.untilClosed();
    expect(wire.data.toString()).toContain("127.0.0.1:9 is not allowed here");
    expect(refusals).toEqual([{ lease, url: "http://127.0.0.1:9/", refusal: "denied", reason: "127.0.0.1:9 is not allowed here" }]);
    const forward = await ask(port, `GET http://blocked.test/x HTTP/1.1\r\nProxy-Authorization: ${basic(credentials)}\r\n\r\n`);
    expect(forward.status).toBe(403);
    expect(refusals[1]).toMatchObject({ lease, url: "http://blocked.test/", refusal: "denied" });
    expect(guard.stats()).toMatchObject({ refused: 2, tunnels: 0 });
    expect(upstream.seen).toEqual([]);
  });

  it("forwards a plain-http GET in absolute form, rewritten: origin form, no proxy credentials, Connection: close", async () => {
    const { guard, port } = await startGuard();
    const { credentials } = guard.lease("s", 1);
    const answer = await proxiedGet(port, `http://127.0.0.1:${upstream.port}/path?q=1`, {
      Host: "metadata.google.internal",
      "Proxy-Authorization": basic(credentials),
      "Proxy-Connection": "keep-alive",
      Connection: "keep-alive",
      "X-Kept": "yes",
    });
    expect(answer).toMatchObject({ status: 200, body: "upstream saw GET /path?q=1 " });
    expect(upstream.seen).toHaveLength(1);
    const { url, headers } = upstream.seen[0]!;
    expect(url).toBe("/path?q=1");
    expect(headers.host).toBe(`127.0.0.1:${upstream.port}`);
    expect(headers.connection).toBe("close");
    expect(headers["x-kept"]).toBe("yes");
    expect(headers["proxy-authorization"]).toBeUndefined();
    expect(headers["proxy-connection"]).toBeUndefined();
    expect(asked).toEqual([{ host: "127.0.0.1", port: upstream.port }]);
  });

  it("forwards a request's body, and nothing after it: a second request on the connection is never sent upstream", async () => {
    const { guard, port } = await startGuard();
    const { credentials } = guard.lease("s", 1);
    const auth = `Proxy-Authorization: ${basic(credentials)}\r\n`;
    const post = await ask(port, `POST http://127.0.0.1:${upstream.port}/up HTTP/1.1\r\n${auth}Content-Length: 5\r\n\r\nhello`);
    expect(post.status).toBe(200);
    await post.wire.untilClosed();
    expect(post.wire.data.toString()).toContain("upstream saw POST /up hello");

    // A pipelined request for another host, riding behind the first body, with the credentials in it.
    const keeper = await keepAliveUpstream();
    const second = `GET http://127.0.0.1:9/steal HTTP/1.1\r\n${auth}\r\n`;
    const piped = await open(port);
    piped.socket.write(`POST http://127.0.0.1:${keeper.port}/one HTTP/1.1\r\n${auth}Content-Length: 3\r\n\r\nabc${second}`);
    await piped.untilClosed();
    expect(keeper.received()).not.toContain("/steal");
    expect(keeper.received()).not.toContain(credentials.password);
    expect(asked.map((a) => a.port)).toEqual([upstream.port, keeper.port]);
  });

  it("closes a connection a keep-alive client reuses after its answer, even when the upstream keeps it open", async () => {
    const { guard, port } = await startGuard();
    const { credentials } = guard.lease("s", 1);
    const auth = `Proxy-Authorization: ${basic(credentials)}\r\n`;
    const keeper = await keepAliveUpstream();
    const wire = await open(port);
    wire.socket.write(`GET http://127.0.0.1:${keeper.port}/first HTTP/1.1\r\n${auth}Connection: keep-alive\r\n\r\n`);
    await wire.until(() => wire.data.toString().endsWith("\r\n\r\nok"), 5_000, "the first answer");
    wire.socket.write(`GET http://127.0.0.1:9/second HTTP/1.1\r\n${auth}\r\n`);
    await wire.untilClosed();
    expect(keeper.received()).toBe(`GET /first HTTP/1.1\r\nHost: 127.0.0.1:${keeper.port}\r\nConnection: close\r\n\r\n`);
    expect(asked).toEqual([{ host: "127.0.0.1", port: keeper.port }]);
  });

  it("stops a released lease's credentials at once and closes its tunnels", async () => {
    const { guard, port } = await startGuard();
    const { lease, credentials } = guard.lease("s", 1);
    const other = guard.lease("s", 1);
    const open1 = await ask(port, connectHead(`127.0.0.1:${upstream.port}`, basic(credentials)));
    const open2 = await ask(port, connectHead(`127.0.0.1:${upstream.port}`, basic(other.credentials)));
    expect([open1.status, open2.status]).toEqual([200, 200]);
    guard.release(lease.id);
    await open1.wire.untilClosed();
    expect(open2.wire.closed).toBe(false);
    expect((await ask(port, connectHead(`127.0.0.1:${upstream.port}`, basic(credentials)))).status).toBe(407);
    expect(await throughTunnel(open2.wire, "/still")).toContain("upstream saw GET /still");
    guard.release(lease.id);
    expect(guard.stats().leases).toBe(1);
  });

  it("refuses a connection whose lease is released while the policy decides, and closes what was dialled", async () => {
    let release: () => void = () => {};
    const decided = new Promise<void>((resolve) => (release = resolve));
    let dialled: Socket | undefined;
    let deciding: () => void = () => {};
    const asking = new Promise<void>((resolve) => (deciding = resolve));
    const { guard, port } = await startGuard({
      connect: async (host, p, signal) => {
        deciding();
        await decided;
        const outcome = await fakeConnect(host, p, signal);
        if (outcome.kind === "connected") dialled = outcome.socket;
        return outcome;
      },
    });
    const { lease, credentials } = guard.lease("s", 1);
    const wire = await open(port);
    wire.socket.write(connectHead(`127.0.0.1:${upstream.port}`, basic(credentials)));
    await asking;
    guard.release(lease.id);
    release();
    await wire.untilClosed();
    expect(wire.data.toString()).toMatch(/^HTTP\/1\.1 403 /);
    expect(dialled?.destroyed).toBe(true);
    expect(guard.stats().tunnels).toBe(0);
  });

  it("releases every lease of a worker generation, and no other", async () => {
    const { guard, port } = await startGuard();
    const a = guard.lease("s", 1).credentials;
    const b = guard.lease("t", 1).credentials;
    const c = guard.lease("s", 2).credentials;
    guard.releaseOwner(1);
    expect(guard.stats().leases).toBe(1);
    for (const gone of [a, b]) expect((await ask(port, connectHead(`127.0.0.1:${upstream.port}`, basic(gone)))).status).toBe(407);
    const kept = await ask(port, connectHead(`127.0.0.1:${upstream.port}`, basic(c)));
    expect(kept.status).toBe(200);
  });

  it("close() destroys every connection, stops listening and forgets every lease", async () => {
    const { guard, port } = await startGuard();
    const { credentials } = guard.lease("s", 1);
    const tunnel = await ask(port, connectHead(`127.0.0.1:${upstream.port}`, basic(credentials)));
    expect(tunnel.status).toBe(200);
    const halfway = await open(port);
    halfway.socket.write("CONNECT 127.0.0.1:1 HTTP/1.1\r\n");
    await eventually(() => expect(guard.stats().active).toBe(2), 10_000);
    await guard.close();
    await Promise.all([tunnel.wire.untilClosed(), halfway.untilClosed()]);
    await eventually(() => expect(upstream.sockets.size).toBe(0), 10_000);
    await expect(open(port)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    expect(guard.stats()).toMatchObject({ leases: 0, active: 0 });
    expect(() => guard.lease("s", 1)).toThrow(BwError);
    await guard.close();
  });

  it("never writes a credential to its log or to onRefused", async () => {
    const { guard, port } = await startGuard();
    const { credentials } = guard.lease("s", 1);
    await ask(port, connectHead("127.0.0.1:9", basic(credentials)));
    await ask(port, connectHead("127.0.0.1:9", basic({ ...credentials, password: "x" })));
    await guard.close();
    const said = JSON.stringify([logs, refusals]);
    expect(said).not.toContain(credentials.username);
    expect(said).not.toContain(credentials.password);
    expect(said).not.toContain(basic(credentials).slice(6));
  });

  it("holds at most maxLeases", async () => {
    const { guard } = await startGuard({ maxLeases: 2 });
    guard.lease("s", 1);
    guard.lease("s", 1);
    expect(() => guard.lease("s", 1)).toThrow(expect.objectContaining({ code: "LIMIT_EXCEEDED" }));
  });

  it("advertises the address it is told, and refuses a wildcard it cannot advertise", async () => {
    const { guard } = await startGuard({ advertise: "127.0.0.1:8877" });
    expect(guard.lease("s", 1).credentials.server).toBe("http://127.0.0.1:8877");
    expect(guard.advertised).toBe("127.0.0.1:8877");
    await expect(RemoteGuard.start({ listen: { host: "0.0.0.0", port: 0 }, connect: fakeConnect })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    for (const advertise of ["0.0.0.0:8877", "a.test", "a/b:80", "[::]:80"]) {
      await expect(RemoteGuard.start({ listen: { host: "127.0.0.1", port: 0 }, advertise, connect: fakeConnect })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    }
    await expect(RemoteGuard.start({ listen: { host: "127.0.0.1", port: 0 }, connect: fakeConnect, idleTimeoutMs: 2 ** 31 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});
