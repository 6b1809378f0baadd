import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_HEADER_BYTES, encodeConnectResponse, PROXY_REALM } from "../../shared/guard/proxy/http-connect.js";
import { parseAbsoluteHttpUrl, parseBasicCredentials, parseProxyRequest, type ProxyRequest } from "../../shared/guard/proxy/http-proxy-request.js";

const head = (text: string): Buffer => Buffer.from(text, "latin1");
const FORWARD = { maxHeaderBytes: DEFAULT_MAX_HEADER_BYTES, forward: true };
const parse = (text: string, options = FORWARD): ProxyRequest => parseProxyRequest(head(text), options);

/** The forwarded head as text, or a failure naming what came back instead. */
function forwarded(text: string): { head: string; request: Extract<ProxyRequest, { kind: "forward" }> } {
  const request = parse(text);
  if (request.kind !== "forward") throw new Error(`expected a forward, got ${JSON.stringify(request)}`);
  return { head: request.head.toString("latin1"), request };
}

const headerLines = (text: string): string[] => text.split("\r\n\r\n")[0]!.split("\r\n").slice(1);

describe("parseProxyRequest: CONNECT", () => {
  it("parses a CONNECT with its Proxy-Authorization, every copy of it", () => {
    const input = head("CONNECT a.test:443 HTTP/1.1\r\nHost: a.test:443\r\nProxy-Authorization: Basic eDp5\r\nproxy-authorization: Basic b3RoZXI6eQ==\r\n\r\nTLS");
    expect(parseProxyRequest(input, FORWARD)).toEqual({
      kind: "tunnel",
      consumed: input.length - 3,
      host: "a.test",
      port: 443,
      authorization: ["Basic eDp5", "Basic b3RoZXI6eQ=="],
    });
  });

  it("has no authorization when none is sent", () => {
    expect(parse("CONNECT [::1]:8080 HTTP/1.1\r\n\r\n")).toMatchObject({ kind: "tunnel", host: "::1", port: 8080, authorization: [] });
  });

  it("refuses everything but CONNECT with 405 where forwarding is off, as the worker's proxy does", () => {
    const off = { maxHeaderBytes: DEFAULT_MAX_HEADER_BYTES, forward: false };
    expect(parse("GET http://a.test/ HTTP/1.1\r\n\r\n", off)).toMatchObject({ kind: "error", status: 405 });
    expect(parse("POST http://a.test/ HTTP/1.1\r\nContent-Length: 1\r\n\r\n", off)).toMatchObject({ kind: "error", status: 405 });
  });
});

describe("parseProxyRequest: a plain-http request in absolute form", () => {
  it("rewrites Chromium's request to origin form, Host from the URL, proxy headers dropped, Connection: close", () => {
    const { head: text, request } = forwarded(
      "GET http://a.test:8080/p/q?x=1&y=%20 HTTP/1.1\r\nHost: a.test:8080\r\nProxy-Connection: keep-alive\r\nProxy-Authorization: Basic eDp5\r\n" +
        "Upgrade-Insecure-Requests: 1\r\nUser-Agent: Mozilla/5.0\r\nAccept: */*\r\nAccept-Encoding: gzip, deflate\r\nCookie: a=b\r\n\r\n",
    );
    expect(request).toMatchObject({ host: "a.test", port: 8080, authorization: ["Basic eDp5"], bodyBytes: 0 });
    expect(text).toBe(
      "GET /p/q?x=1&y=%20 HTTP/1.1\r\nHost: a.test:8080\r\nUpgrade-Insecure-Requests: 1\r\nUser-Agent: Mozilla/5.0\r\nAccept: */*\r\n" +
        "Accept-Encoding: gzip, deflate\r\nCookie: a=b\r\nConnection: close\r\n\r\n",
    );
  });

  it("sets Host from the URL when the client sends none, or another one", () => {
    expect(forwarded("GET http://a.test/ HTTP/1.1\r\n\r\n").head).toBe("GET / HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n");
    const lying = forwarded("GET http://a.test/ HTTP/1.1\r\nHost: metadata.google.internal\r\n\r\n");
    expect(lying.request).toMatchObject({ host: "a.test", port: 80 });
    expect(headerLines(lying.head)).toEqual(["Host: a.test", "Connection: close"]);
  });

  it("drops every hop-by-hop header and those the Connection header names, but never the body's framing", () => {
    const { head: text, request } = forwarded(
      "POST http://a.test/ HTTP/1.1\r\nConnection: keep-alive, X-Secret, Content-Length, Host\r\nKeep-Alive: timeout=5\r\nTE: trailers\r\nTrailer: X\r\n" +
        "Upgrade: websocket\r\nX-Secret: 1\r\nContent-Length: 3\r\n\r\nabc",
    );
    expect(request.bodyBytes).toBe(3);
    expect(headerLines(text)).toEqual(["Host: a.test", "Content-Length: 3", "Connection: close"]);
  });

  it("keeps the version, the method and a request body's length; the body stays with the caller", () => {
    const input = "PUT http://10.0.0.1:81/up HTTP/1.0\r\nContent-Length: 5\r\n\r\nhello";
    const { head: text, request } = forwarded(input);
    expect(text.split("\r\n")[0]).toBe("PUT /up HTTP/1.0");
    expect(request).toMatchObject({ host: "10.0.0.1", port: 81, bodyBytes: 5, consumed: input.length - 5 });
  });

  it.each([
    ["http://a.test", { host: "a.test", port: 80, hostHeader: "a.test", path: "/" }],
    ["http://a.test?q", { host: "a.test", port: 80, hostHeader: "a.test", path: "/?q" }],
    ["HTTP://A.Test:80//x", { host: "A.Test", port: 80, hostHeader: "A.Test:80", path: "//x" }],
    ["http://[::1]:8080/", { host: "::1", port: 8080, hostHeader: "[::1]:8080", path: "/" }],
    ["http://[::ffff:127.0.0.1]/", { host: "::ffff:127.0.0.1", port: 80, hostHeader: "[::ffff:127.0.0.1]", path: "/" }],
    ["http://127.0.0.1:65535/%0d%0aX:%20y", { host: "127.0.0.1", port: 65535, hostHeader: "127.0.0.1:65535", path: "/%0d%0aX:%20y" }],
  ])("reads %s", (url, expected) => {
    expect(parseAbsoluteHttpUrl(url)).toEqual(expected);
  });

  it("keeps percent-encoded CR/LF encoded: no header line is added", () => {
    const { head: text } = forwarded("GET http://a.test/%0d%0aSet-Cookie:%20x HTTP/1.1\r\n\r\n");
    expect(headerLines(text)).toEqual(["Host: a.test", "Connection: close"]);
  });
});

describe("parseProxyRequest: attacks on forwarding", () => {
  it.each([
    ["a second Host", "GET http://a.test/ HTTP/1.1\r\nHost: a.test\r\nHost: b.test\r\n\r\n", 400],
    ["a second Host in another case", "GET http://a.test/ HTTP/1.1\r\nHost: a.test\r\nhOST: a.test\r\n\r\n", 400],
    ["Transfer-Encoding: chunked", "POST http://a.test/ HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501],
    ["Transfer-Encoding with Content-Length", "POST http://a.test/ HTTP/1.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n", 501],
    ["an obfuscated Transfer-Encoding", "POST http://a.test/ HTTP/1.1\r\nTransfer-Encoding: xchunked\r\n\r\n", 501],
    ["a Transfer-Encoding in odd case", "POST http://a.test/ HTTP/1.1\r\ntransfer-ENCODING: identity\r\n\r\n", 501],
    ["a blank before the colon", "POST http://a.test/ HTTP/1.1\r\nTransfer-Encoding : chunked\r\n\r\n", 400],
    ["a folded header line", "POST http://a.test/ HTTP/1.1\r\nX: a\r\n Transfer-Encoding: chunked\r\n\r\n", 400],
    ["a bare LF inside a header", "GET http://a.test/ HTTP/1.1\r\nX: a\nHost: b.test\r\n\r\n", 400],
    ["a bare CR inside a header", "GET http://a.test/ HTTP/1.1\r\nX: a\rHost: b.test\r\n\r\n", 400],
    ["two Content-Lengths", "POST http://a.test/ HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n", 400],
    ["a Content-Length list", "POST http://a.test/ HTTP/1.1\r\nContent-Length: 3, 3\r\n\r\n", 400],
    ["a signed Content-Length", "POST http://a.test/ HTTP/1.1\r\nContent-Length: +3\r\n\r\n", 400],
    ["a negative Content-Length", "POST http://a.test/ HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400],
    ["a hex Content-Length", "POST http://a.test/ HTTP/1.1\r\nContent-Length: 0x10\r\n\r\n", 400],
    ["a huge Content-Length", "POST http://a.test/ HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", 400],
    ["CR/LF inside the URL", "GET http://a.test/\rX: y HTTP/1.1\r\n\r\n", 400],
    ["a NUL inside the URL", "GET http://a.test/\x00 HTTP/1.1\r\n\r\n", 400],
    ["a blank inside the URL", "GET http://a.test/ x HTTP/1.1\r\n\r\n", 400],
    ["userinfo in the URL", "GET http://user:pass@a.test/ HTTP/1.1\r\n\r\n", 400],
    ["userinfo hiding the host", "GET http://a.test@169.254.169.254/ HTTP/1.1\r\n\r\n", 400],
    ["an https URL", "GET https://a.test/ HTTP/1.1\r\n\r\n", 400],
    ["a ws URL", "GET ws://a.test/ HTTP/1.1\r\n\r\n", 400],
    ["a file URL", "GET file:///etc/passwd HTTP/1.1\r\n\r\n", 400],
    ["a ftp URL", "GET ftp://a.test/ HTTP/1.1\r\n\r\n", 400],
    ["a scheme-relative URL", "GET //a.test/ HTTP/1.1\r\n\r\n", 400],
    ["origin form", "GET / HTTP/1.1\r\nHost: a.test\r\n\r\n", 400],
    ["asterisk form", "OPTIONS * HTTP/1.1\r\nHost: a.test\r\n\r\n", 400],
    ["a fragment", "GET http://a.test/#x HTTP/1.1\r\n\r\n", 400],
    ["an empty host", "GET http:///x HTTP/1.1\r\n\r\n", 400],
    ["an escaped host", "GET http://a%2etest/ HTTP/1.1\r\n\r\n", 400],
    ["a backslash host", "GET http://a.test\\@b.test/ HTTP/1.1\r\n\r\n", 400],
    ["a zone id", "GET http://[fe80::1%25eth0]/ HTTP/1.1\r\n\r\n", 400],
    ["a name in brackets", "GET http://[a.test]/ HTTP/1.1\r\n\r\n", 400],
    ["an unbracketed IPv6", "GET http://::1/ HTTP/1.1\r\n\r\n", 400],
    ["an empty port", "GET http://a.test:/ HTTP/1.1\r\n\r\n", 400],
    ["port 0", "GET http://a.test:0/ HTTP/1.1\r\n\r\n", 400],
    ["port 65536", "GET http://a.test:65536/ HTTP/1.1\r\n\r\n", 400],
    ["a signed port", "GET http://a.test:+80/ HTTP/1.1\r\n\r\n", 400],
    ["HTTP/2.0", "GET http://a.test/ HTTP/2.0\r\n\r\n", 400],
  ])("refuses %s", (_name, text, status) => {
    expect(parse(text)).toMatchObject({ kind: "error", status });
  });

  it("refuses a head over the bound with 431, before its end is seen", () => {
    const big = `GET http://a.test/ HTTP/1.1\r\nX-Pad: ${"a".repeat(300)}\r\n\r\n`;
    const small = { maxHeaderBytes: 128, forward: true };
    expect(parse(big, small)).toMatchObject({ kind: "error", status: 431 });
    expect(parse(big.slice(0, 200), small)).toMatchObject({ kind: "error", status: 431 });
  });

  it("is incomplete for every strict prefix of a forwarded request", () => {
    const full = head("POST http://a.test/ HTTP/1.1\r\nContent-Length: 2\r\n\r\n");
    for (let i = 0; i < full.length; i += 1) expect(parseProxyRequest(full.subarray(0, i), FORWARD).kind, `prefix ${i}`).toBe("incomplete");
  });

  it("never throws on random bytes after a method", () => {
    for (let i = 0; i < 2_000; i += 1) {
      const input = Buffer.concat([head(i % 2 === 0 ? "GET http://" : "GET "), randomBytes(i % 90), head("\r\n\r\n")]);
      expect(() => parseProxyRequest(input, { maxHeaderBytes: 96, forward: true })).not.toThrow();
    }
  });
});

describe("parseBasicCredentials", () => {
  const basic = (text: string) => `Basic ${Buffer.from(text).toString("base64")}`;

  it.each([
    [basic("user:pass"), { username: "user", password: "pass" }],
    [basic("user:pa:ss"), { username: "user", password: "pa:ss" }],
    [basic(":"), { username: "", password: "" }],
    [`basic ${Buffer.from("u:p").toString("base64")}`, { username: "u", password: "p" }],
  ])("reads %s", (value, expected) => {
    expect(parseBasicCredentials(value)).toEqual(expected);
  });

  it.each([
    ["nothing", undefined],
    ["another scheme", `Bearer ${Buffer.from("u:p").toString("base64")}`],
    ["no colon", basic("userpass")],
    ["bad base64", "Basic dXNlcjpwYXNz!"],
    ["unpadded base64", "Basic dTpwMQ"],
    ["a second token", `${basic("u:p")} ${basic("v:q")}`],
    ["no blank", `Basic${Buffer.from("u:p").toString("base64")}`],
    ["the scheme alone", "Basic"],
  ])("refuses %s", (_name, value) => {
    expect(parseBasicCredentials(value)).toBeUndefined();
  });
});

describe("encodeConnectResponse for a proxy that asks for credentials", () => {
  it("answers 407 with a Basic challenge and a close", () => {
    const text = encodeConnectResponse(407).toString();
    expect(text.split("\r\n")[0]).toBe("HTTP/1.1 407 Proxy Authentication Required");
    expect(text).toContain(`\r\nProxy-Authenticate: Basic realm="${PROXY_REALM}"\r\n`);
    expect(text).toContain("\r\nConnection: close\r\n");
  });

  it("answers 501 for a request it will not forward", () => {
    expect(encodeConnectResponse(501).toString()).toMatch(/^HTTP\/1\.1 501 Not Implemented\r\n/);
  });
});
