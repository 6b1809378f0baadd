import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { encodeConnectResponse, parseAuthority, parseConnectRequest } from "../../shared/guard/proxy/http-connect.js";

const head = (text: string): Buffer => Buffer.from(text, "latin1");

describe("parseConnectRequest", () => {
  it("parses a CONNECT as Chromium sends it", () => {
    const input = head("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nProxy-Connection: keep-alive\r\nUser-Agent: x\r\n\r\n");
    expect(parseConnectRequest(input)).toEqual({ kind: "ok", consumed: input.length, method: "CONNECT", host: "example.com", port: 443 });
  });

  it("strips the brackets of an IPv6 literal", () => {
    expect(parseConnectRequest(head("CONNECT [::1]:8080 HTTP/1.1\r\n\r\n"))).toMatchObject({ kind: "ok", host: "::1", port: 8080 });
  });

  it("accepts HTTP/1.0 and leaves tunnel bytes after the head", () => {
    const request = "CONNECT 10.0.0.1:22 HTTP/1.0\r\n\r\n";
    expect(parseConnectRequest(head(`${request}SSH-2.0`))).toMatchObject({ kind: "ok", consumed: request.length, host: "10.0.0.1", port: 22 });
  });

  it("is incomplete for every strict prefix", () => {
    const full = head("CONNECT a.test:80 HTTP/1.1\r\nHost: a.test:80\r\n\r\n");
    for (let i = 0; i < full.length; i += 1) expect(parseConnectRequest(full.subarray(0, i)).kind, `prefix ${i}`).toBe("incomplete");
  });

  it.each([
    ["GET with an absolute URL", "GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n"],
    ["origin-form GET", "GET / HTTP/1.1\r\n\r\n"],
    ["POST", "POST http://example.com/ HTTP/1.1\r\n\r\n"],
    ["lowercase connect", "connect example.com:443 HTTP/1.1\r\n\r\n"],
  ])("refuses %s with 405", (_name, text) => {
    expect(parseConnectRequest(head(text))).toMatchObject({ kind: "error", status: 405 });
  });

  it.each([
    ["no port", "CONNECT example.com HTTP/1.1\r\n\r\n"],
    ["empty port", "CONNECT example.com: HTTP/1.1\r\n\r\n"],
    ["port 0", "CONNECT example.com:0 HTTP/1.1\r\n\r\n"],
    ["port 65536", "CONNECT example.com:65536 HTTP/1.1\r\n\r\n"],
    ["non-numeric port", "CONNECT example.com:https HTTP/1.1\r\n\r\n"],
    ["signed port", "CONNECT example.com:+443 HTTP/1.1\r\n\r\n"],
    ["empty host", "CONNECT :443 HTTP/1.1\r\n\r\n"],
    ["unbracketed IPv6", "CONNECT ::1:443 HTTP/1.1\r\n\r\n"],
    ["bracketed IPv6 without port", "CONNECT [::1] HTTP/1.1\r\n\r\n"],
    ["brackets around a name", "CONNECT [example.com]:443 HTTP/1.1\r\n\r\n"],
    ["HTTP/2.0", "CONNECT example.com:443 HTTP/2.0\r\n\r\n"],
    ["double space", "CONNECT  example.com:443 HTTP/1.1\r\n\r\n"],
    ["no version", "CONNECT example.com:443\r\n\r\n"],
    ["header without a colon", "CONNECT example.com:443 HTTP/1.1\r\nHost example.com\r\n\r\n"],
    ["header with a control byte", "CONNECT example.com:443 HTTP/1.1\r\nX: a\x01b\r\n\r\n"],
    ["empty request line", "\r\n\r\n"],
  ])("refuses %s with 400", (_name, text) => {
    expect(parseConnectRequest(head(text))).toMatchObject({ kind: "error", status: 400 });
  });

  it("refuses binary garbage at once, before any line ends", () => {
    expect(parseConnectRequest(Buffer.from([0x16, 0x03, 0x01, 0x02]))).toMatchObject({ kind: "error", status: 400 });
    expect(parseConnectRequest(head("CONN\x00"))).toMatchObject({ kind: "error", status: 400 });
    expect(parseConnectRequest(head(" CONNECT"))).toMatchObject({ kind: "error", status: 400 });
  });

  it("waits on a lone CR that may start a CRLF", () => {
    expect(parseConnectRequest(head("CONNECT a.test:80 HTTP/1.1\r"))).toEqual({ kind: "incomplete" });
  });

  it("refuses a head over the bound with 431, complete or not", () => {
    const big = `CONNECT a.test:80 HTTP/1.1\r\nX-Pad: ${"a".repeat(200)}\r\n\r\n`;
    expect(parseConnectRequest(head(big), 128)).toMatchObject({ kind: "error", status: 431 });
    expect(parseConnectRequest(head(big.slice(0, 150)), 128)).toMatchObject({ kind: "error", status: 431 });
    expect(parseConnectRequest(head(big), big.length)).toMatchObject({ kind: "ok" });
    expect(parseConnectRequest(head(big), big.length - 1)).toMatchObject({ kind: "error", status: 431 });
  });

  it("never throws on random bytes", () => {
    for (let i = 0; i < 2_000; i += 1) {
      const input = i % 2 === 0 ? Buffer.concat([head("CONNECT "), randomBytes(i % 80)]) : randomBytes(i % 80);
      expect(() => parseConnectRequest(input, 64)).not.toThrow();
    }
  });
});

describe("parseAuthority", () => {
  it.each([
    ["example.com:443", { host: "example.com", port: 443 }],
    ["127.0.0.1:1", { host: "127.0.0.1", port: 1 }],
    ["[fe80::1%25eth0]:65535", { host: "fe80::1%25eth0", port: 65535 }],
    ["[::ffff:169.254.169.254]:80", { host: "::ffff:169.254.169.254", port: 80 }],
  ])("%s", (input, expected) => {
    expect(parseAuthority(input)).toEqual(expected);
  });
});

describe("encodeConnectResponse", () => {
  it("answers 200 with a bare status line so tunnel bytes can follow", () => {
    expect(encodeConnectResponse(200).toString()).toBe("HTTP/1.1 200 Connection Established\r\n\r\n");
  });

  it("answers a refusal with its reason, a correct length, and a close", () => {
    const text = encodeConnectResponse(403, "blocked by policy: metadata endpoint").toString();
    const [headText, body] = text.split("\r\n\r\n") as [string, string];
    expect(headText.split("\r\n")[0]).toBe("HTTP/1.1 403 Forbidden");
    expect(headText).toContain("Connection: close");
    expect(headText).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(body).toBe("blocked by policy: metadata endpoint\n");
  });

  it("names the one allowed method on 405", () => {
    expect(encodeConnectResponse(405).toString()).toContain("Allow: CONNECT\r\n");
  });

  it("keeps a hostile reason from injecting headers", () => {
    const text = encodeConnectResponse(400, "bad\r\nSet-Cookie: x=1").toString();
    expect(text).not.toContain("\r\nSet-Cookie");
  });

  it.each([400, 502, 504, 431] as const)("has a status line for %i", (status) => {
    expect(encodeConnectResponse(status).toString()).toMatch(new RegExp(`^HTTP/1\\.1 ${status} [A-Z]`));
  });
});
