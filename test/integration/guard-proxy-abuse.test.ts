// The guard proxy against hostile and broken clients, at scale, and through
// its lifecycle. The harness's dialer never leaves loopback.

import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { startGuardProxy } from "../../daemon/browser-worker/guard/proxy/guard-proxy.js";
import { encodeRequest, SocksCommand, SocksReply } from "../../shared/guard/proxy/socks5.js";
import { cleanups, localConnect, domainRequest, echoServer, eventually, expectEcho, fakePolicy, guard, httpConnect, open, socksConnect, useGuardProxyHarness } from "../helpers/guard-proxy-harness.js";

useGuardProxyHarness();

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
    ["an infinite timeout", { idleTimeoutMs: Number.POSITIVE_INFINITY }],
    ["a zero handshake bound", { maxHandshakeBytes: 0 }],
  ])("refuses to start with %s", async (_name, overrides) => {
    await expect(startGuardProxy({ connect: localConnect({ authorize: fakePolicy().authorize }), ...overrides })).rejects.toThrow(RangeError);
  });

  it("dials with net.connect by default (loopback literal only)", async () => {
    const echo = await echoServer();
    const policy = fakePolicy();
    const proxy = await startGuardProxy({ connect: localConnect({ authorize: policy.authorize }) });
    cleanups.push(() => proxy.close());
    const { wire, reply } = await socksConnect(proxy.port, encodeRequest(SocksCommand.CONNECT, "127.0.0.1", echo.port));
    expect(reply).toBe(SocksReply.SUCCEEDED);
    await expectEcho(wire);
  });
});
