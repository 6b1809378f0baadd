// The guard proxy over real loopback sockets: tunnels through both protocols,
// denials and failures. The harness's dialer never leaves loopback.

import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { encodeRequest, SocksCommand, SocksReply } from "../../shared/guard/proxy/socks5.js";
import { METADATA, checksOf, closedPort, dialer, domainRequest, echoServer, eventually, expectEcho, fakeResolver, guard, httpConnect, ipv6Available, open, socksConnect, useGuardProxyHarness } from "../helpers/guard-proxy-harness.js";

useGuardProxyHarness();

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

