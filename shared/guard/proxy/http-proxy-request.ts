// What an HTTP proxy may be asked (RFC 9112 §3.2): CONNECT host:port for a
// tunnel, or, where forwarding is on, one plain-http request in absolute form.
// A forwarded request is rewritten to the origin-form head the upstream sees
// (Host from the URL, hop-by-hop and proxy headers dropped, `Connection: close`)
// and framed by Content-Length alone, so nothing past it can ride along as a
// second request. Pure functions over Buffers; the handler owns the sockets.

import { parseAuthority, parseRequestHead, type RequestHeader } from "./http-connect.js";

export type ProxyRequest =
  | { kind: "incomplete" }
  | { kind: "tunnel"; consumed: number; host: string; port: number; authorization: string[] }
  | {
      kind: "forward";
      consumed: number;
      host: string;
      port: number;
      authorization: string[];
      /** The head to send upstream, origin-form. */
      head: Buffer;
      /** How many bytes after the head are the request's body; bytes beyond them are never forwarded. */
      bodyBytes: number;
    }
  | { kind: "error"; status: 400 | 405 | 431 | 501; reason: string };

export interface ProxyRequestOptions {
  maxHeaderBytes: number;
  /** Accept plain-http requests in absolute form; otherwise only CONNECT (405 for the rest). */
  forward: boolean;
}

const HTTP_DEFAULT_PORT = 80;
const ABSOLUTE_URL = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^#]*)$/;
const REG_NAME = /^[A-Za-z0-9._~-]+$/;
const IPV6_LITERAL = /^\[([0-9A-Fa-f:.]+)\]$/;
const PORT = /^[0-9]{1,5}$/;
const DIGITS = /^[0-9]{1,15}$/;
const BASIC = /^basic +((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)$/i;
/** Hop-by-hop (RFC 9110 §7.6.1) and proxy-only headers: never sent upstream. Host is set from the URL. */
const DROPPED = new Set(["connection", "proxy-connection", "keep-alive", "te", "trailer", "upgrade", "proxy-authorization", "proxy-authenticate", "host"]);
/** Headers a `Connection` token may not remove: the body's framing and the target are the proxy's to set. */
const KEPT = new Set(["content-length", "transfer-encoding", "host"]);

/** Parse one proxy request head; `authorization` holds every Proxy-Authorization value (more than one is never valid). */
export function parseProxyRequest(buf: Buffer, options: ProxyRequestOptions): ProxyRequest {
  const head = parseRequestHead(buf, options.maxHeaderBytes);
  if (head.kind !== "ok") return head;
  const authorization = valuesOf(head.headers, "proxy-authorization");
  if (head.method === "CONNECT") {
    const authority = parseAuthority(head.target);
    if (!authority) return { kind: "error", status: 400, reason: "CONNECT target must be host:port" };
    return { kind: "tunnel", consumed: head.consumed, ...authority, authorization };
  }
  if (!options.forward) return { kind: "error", status: 405, reason: `method ${head.method} is not supported; only CONNECT` };
  const url = parseAbsoluteHttpUrl(head.target);
  if ("error" in url) return { kind: "error", status: 400, reason: url.error };
  if (valuesOf(head.headers, "host").length > 1) return { kind: "error", status: 400, reason: "more than one Host header" };
  const framing = bodyFraming(head.headers);
  if ("error" in framing) return { kind: "error", status: framing.status, reason: framing.error };
  const rewritten = forwardHead(head.method, url.path, url.hostHeader, head.version, head.headers);
  return { kind: "forward", consumed: head.consumed, host: url.host, port: url.port, authorization, head: rewritten, bodyBytes: framing.bodyBytes };
}

export interface AbsoluteHttpUrl {
  /** Without brackets, as `connect` takes it. */
  host: string;
  port: number;
  /** The Host header the upstream gets: the URL's authority as written. */
  hostHeader: string;
  /** Origin-form: path and query, `/` when the URL has none. */
  path: string;
}

/** `http://host[:port][/path][?query]`, strictly: no userinfo, no fragment, no other scheme, no escapes in the host. */
export function parseAbsoluteHttpUrl(target: string): AbsoluteHttpUrl | { error: string } {
  if (target.includes("#")) return { error: "a request target carries no fragment" };
  const match = ABSOLUTE_URL.exec(target);
  if (!match) return { error: "a proxy request needs an absolute http:// URL" };
  const [, scheme, authority, rest] = match as unknown as [string, string, string, string];
  if (scheme.toLowerCase() !== "http") return { error: `only http:// URLs are forwarded (${scheme.slice(0, 16).toLowerCase()}:// is not; use CONNECT)` };
  if (authority.includes("@")) return { error: "a proxy request URL carries no user name or password" };
  let hostText = authority;
  let portText: string | undefined;
  const colon = authority.lastIndexOf(":");
  if (colon >= 0 && colon > authority.lastIndexOf("]")) {
    hostText = authority.slice(0, colon);
    portText = authority.slice(colon + 1);
  }
  const v6 = IPV6_LITERAL.exec(hostText);
  const host = v6 ? v6[1]! : hostText;
  if (v6 ? !host.includes(":") : !REG_NAME.test(host)) return { error: "the URL's host is not a host name or an IP literal" };
  let port = HTTP_DEFAULT_PORT;
  if (portText !== undefined) {
    if (!PORT.test(portText) || Number(portText) < 1 || Number(portText) > 65535) return { error: "the URL's port is not in 1-65535" };
    port = Number(portText);
  }
  const path = rest === "" ? "/" : rest.startsWith("?") ? `/${rest}` : rest;
  return { host, port, hostHeader: authority, path };
}

/** Content-Length framing only: a chunked or otherwise encoded body is refused, and so is any doubt about the length. */
function bodyFraming(headers: readonly RequestHeader[]): { bodyBytes: number } | { error: string; status: 400 | 501 } {
  if (valuesOf(headers, "transfer-encoding").length > 0) return { error: "a forwarded request may not have a Transfer-Encoding", status: 501 };
  const lengths = valuesOf(headers, "content-length");
  if (lengths.length === 0) return { bodyBytes: 0 };
  if (lengths.length > 1) return { error: "more than one Content-Length header", status: 400 };
  if (!DIGITS.test(lengths[0]!)) return { error: "Content-Length is not a number", status: 400 };
  return { bodyBytes: Number(lengths[0]) };
}

/**
 * The user name and password of a `Basic` Proxy-Authorization value (RFC 7617),
 * or undefined for anything else: another scheme, bad base64, no colon.
 */
export function parseBasicCredentials(value: string | undefined): { username: string; password: string } | undefined {
  const match = value === undefined ? null : BASIC.exec(value);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function forwardHead(method: string, path: string, hostHeader: string, version: string, headers: readonly RequestHeader[]): Buffer {
  const nominated = new Set(valuesOf(headers, "connection").flatMap((value) => value.split(",").map((token) => token.trim().toLowerCase())));
  const kept = headers.filter(({ name }) => {
    const lower = name.toLowerCase();
    return !DROPPED.has(lower) && (KEPT.has(lower) || !nominated.has(lower));
  });
  const lines = [`${method} ${path} HTTP/${version}`, `Host: ${hostHeader}`, ...kept.map(({ line }) => line), "Connection: close"];
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
}

function valuesOf(headers: readonly RequestHeader[], lowerName: string): string[] {
  return headers.filter(({ name }) => name.toLowerCase() === lowerName).map(({ value }) => value);
}
