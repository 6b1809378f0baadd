// Who may talk to `betterwright mcp --http`: the listen address (loopback
// unless --allow-remote), the Host and Origin headers (DNS rebinding: a page
// whose name resolves to 127.0.0.1 still sends its own Host and Origin) and
// the bearer token, compared in constant time. Pure.
import { isIP } from "node:net";
import { BwError } from "../../shared/errors.js";
import { bearerOf, sameToken } from "../front-door/bearer-token.js";

export interface ListenAddress {
  host: string;
  port: number;
}

/** `HOST:PORT`, `[::1]:PORT` or `:PORT` (127.0.0.1). */
export function parseListen(text: string): ListenAddress {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]*)):(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || !(port >= 0 && port <= 65535)) throw new BwError("INVALID_ARGUMENT", `--http: expected HOST:PORT such as 127.0.0.1:8931, got ${JSON.stringify(text.slice(0, 80))}`);
  const host = (match[1] ?? match[2] ?? "") || "127.0.0.1";
  return { host: host.toLowerCase(), port };
}

export function isLoopbackHost(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1" || host === "0:0:0:0:0:0:0:1";
}

/** Refuses a non-loopback address unless --allow-remote said so. */
export function checkListen(address: ListenAddress, allowRemote: boolean): void {
  if (!isLoopbackHost(address.host) && !allowRemote) {
    throw new BwError("INVALID_ARGUMENT", `--http: ${address.host} is not a loopback address; MCP over HTTP listens on 127.0.0.1, ::1 or localhost unless --allow-remote is given (the bearer token is required either way)`);
  }
}

/** What `host:port` the server answers to: the bound address, and for loopback the other loopback spellings. */
export function allowedHosts(address: ListenAddress): string[] {
  const port = String(address.port);
  const literal = address.host.includes(":") ? `[${address.host}]` : address.host;
  const names = isLoopbackHost(address.host) ? [literal, "localhost", "127.0.0.1", "[::1]"] : [literal];
  return [...new Set(names)].map((n) => `${n}:${port}`);
}

export type Refusal = { status: 401 | 403; reason: string };

/** Host must name us; Origin, when a browser sends one, must be one of our own addresses. */
export function checkHeaders(headers: { host?: string | undefined; origin?: string | undefined }, hosts: readonly string[]): Refusal | undefined {
  const host = headers.host?.toLowerCase();
  if (host === undefined || !hosts.includes(host)) return { status: 403, reason: "Host header does not name this server" };
  const origin = headers.origin;
  if (origin !== undefined && origin !== "null") {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:") || !hosts.includes(parsed.host.toLowerCase())) {
      return { status: 403, reason: "Origin is not this server" };
    }
  } else if (origin === "null") {
    return { status: 403, reason: "Origin is not this server" };
  }
  return undefined;
}

/** `Authorization: Bearer <token>`, compared in constant time (digests, so lengths do not show). */
export function checkBearer(authorization: string | undefined, token: string): Refusal | undefined {
  const given = bearerOf(authorization);
  if (given === undefined || !sameToken(given, token)) return { status: 401, reason: "a bearer token is required (Authorization: Bearer …)" };
  return undefined;
}
