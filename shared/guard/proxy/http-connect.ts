// HTTP CONNECT (RFC 9110 §9.3.6) as pure functions over Buffers: parse one request
// head from a possibly partial stream, and encode the proxy's answer. Anything
// other than a well-formed CONNECT to host:port is refused, never forwarded.

export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;
/** The realm a proxy that asks for credentials names in its 407. */
export const PROXY_REALM = "betterwright";

export type ConnectStatus = 200 | 400 | 403 | 405 | 407 | 431 | 501 | 502 | 504;

const STATUS_TEXT: Record<ConnectStatus, string> = {
  200: "Connection Established",
  400: "Bad Request",
  403: "Forbidden",
  405: "Method Not Allowed",
  407: "Proxy Authentication Required",
  431: "Request Header Fields Too Large",
  501: "Not Implemented",
  502: "Bad Gateway",
  504: "Gateway Timeout",
};

export type ConnectParse =
  | { kind: "incomplete" }
  | { kind: "ok"; consumed: number; method: "CONNECT"; host: string; port: number }
  | { kind: "error"; status: 400 | 405 | 431; reason: string };

const HEAD_END = Buffer.from("\r\n\r\n");
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const REQUEST_LINE = /^(\S+) (\S+) HTTP\/(1\.[01])$/;
const PORT = /^[0-9]{1,5}$/;

/** One request head, checked for shape only: what it asks for is the caller's to judge. */
export type RequestHeadParse =
  | { kind: "incomplete" }
  | { kind: "ok"; consumed: number; method: string; target: string; version: "1.0" | "1.1"; headers: RequestHeader[] }
  | { kind: "error"; status: 400 | 431; reason: string };

/** A header line as sent: `name` as written (compare case-insensitively), `value` without surrounding blanks, `line` verbatim. */
export interface RequestHeader {
  name: string;
  value: string;
  line: string;
}

/**
 * Parse a request head. Bytes after the blank line belong to the tunnel and are
 * left to the caller (`consumed` marks where they start).
 */
export function parseConnectRequest(buf: Buffer, maxHeaderBytes = DEFAULT_MAX_HEADER_BYTES): ConnectParse {
  const head = parseRequestHead(buf, maxHeaderBytes);
  if (head.kind !== "ok") return head;
  if (head.method !== "CONNECT") return { kind: "error", status: 405, reason: `method ${head.method} is not supported; only CONNECT` };
  const authority = parseAuthority(head.target);
  if (!authority) return { kind: "error", status: 400, reason: "CONNECT target must be host:port" };
  return { kind: "ok", consumed: head.consumed, method: "CONNECT", ...authority };
}

/** The request line and header lines of one head, from a possibly partial stream, bounded by `maxHeaderBytes`. */
export function parseRequestHead(buf: Buffer, maxHeaderBytes = DEFAULT_MAX_HEADER_BYTES): RequestHeadParse {
  // Fail fast on bytes that cannot start an HTTP request line, so binary garbage
  // is refused at once rather than buffered until the size or time bound.
  const lineEnd = buf.indexOf("\r\n");
  // Without a CRLF yet, a lone trailing CR may be the first half of one.
  const scanEnd = lineEnd >= 0 ? lineEnd : buf.length - (buf[buf.length - 1] === 0x0d ? 1 : 0);
  const firstLine = buf.subarray(0, Math.min(scanEnd, maxHeaderBytes));
  for (const byte of firstLine) {
    if (byte < 0x20 || byte > 0x7e) return { kind: "error", status: 400, reason: "request line is not printable ASCII" };
  }
  if (firstLine.length > 0 && !isTokenByte(firstLine[0]!)) return { kind: "error", status: 400, reason: "request does not start with a method" };

  const end = buf.indexOf(HEAD_END);
  const headBytes = end < 0 ? -1 : end + HEAD_END.length;
  if (headBytes < 0 || headBytes > maxHeaderBytes) {
    if (headBytes > maxHeaderBytes || buf.length >= maxHeaderBytes) {
      return { kind: "error", status: 431, reason: `request head exceeds ${maxHeaderBytes} bytes` };
    }
    return { kind: "incomplete" };
  }

  const lines = buf.toString("latin1", 0, end).split("\r\n");
  const match = REQUEST_LINE.exec(lines[0]!);
  if (!match) return { kind: "error", status: 400, reason: "malformed request line" };
  const [, method, target, version] = match as unknown as [string, string, string, "1.0" | "1.1"];
  if (!TOKEN.test(method)) return { kind: "error", status: 400, reason: "malformed method" };
  const headers: RequestHeader[] = [];
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    // A bare CR or LF inside a line is refused here, so no header can smuggle a line break.
    if (colon <= 0 || !TOKEN.test(line.slice(0, colon)) || /[\x00-\x08\x0a-\x1f\x7f]/.test(line)) {
      return { kind: "error", status: 400, reason: "malformed header line" };
    }
    headers.push({ name: line.slice(0, colon), value: line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, ""), line });
  }
  return { kind: "ok", consumed: headBytes, method, target, version, headers };
}

/** `host:port` or `[ipv6]:port`; the brackets are removed from the returned host. */
export function parseAuthority(target: string): { host: string; port: number } | null {
  let host: string;
  let portText: string;
  if (target.startsWith("[")) {
    const close = target.indexOf("]");
    if (close < 0 || target[close + 1] !== ":") return null;
    host = target.slice(1, close);
    portText = target.slice(close + 2);
    if (!host.includes(":")) return null;
  } else {
    const colon = target.lastIndexOf(":");
    if (colon <= 0) return null;
    host = target.slice(0, colon);
    portText = target.slice(colon + 1);
    // An unbracketed IPv6 literal is ambiguous about where the port starts.
    if (host.includes(":")) return null;
  }
  if (host.length === 0 || !PORT.test(portText)) return null;
  const port = Number(portText);
  if (port < 1 || port > 65535) return null;
  return { host, port };
}

/**
 * The proxy's answer. Failures carry a short plain-text reason and close the
 * connection; 200 is bare because the tunnel's bytes follow immediately.
 */
export function encodeConnectResponse(status: ConnectStatus, reason?: string): Buffer {
  const statusLine = `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n`;
  if (status === 200) return Buffer.from(`${statusLine}\r\n`, "latin1");
  const body = `${sanitize(reason ?? STATUS_TEXT[status])}\n`;
  const headers = [
    "Content-Type: text/plain; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    "Proxy-Connection: close",
  ];
  if (status === 405) headers.push("Allow: CONNECT");
  if (status === 407) headers.push(`Proxy-Authenticate: Basic realm="${PROXY_REALM}"`);
  return Buffer.from(`${statusLine}${headers.join("\r\n")}\r\n\r\n${body}`, "utf8");
}

/** A reason may quote what the client sent; keep it one printable line. */
function sanitize(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, "?").slice(0, 512);
}

function isTokenByte(byte: number): boolean {
  return TOKEN.test(String.fromCharCode(byte));
}
