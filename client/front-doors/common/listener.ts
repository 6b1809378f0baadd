// Who may talk to a front door that listens on HTTP (`serve`, `mcp --http`):
// the listen address (loopback unless --allow-remote), the Host and Origin
// headers a loopback listener answers (a page whose name rebinds to 127.0.0.1
// still sends its own name), and the bearer token, compared in constant time.
// One module for both doors, so their rules cannot drift apart. Pure.
import { isIP } from "node:net";
import { BwError } from "../../../shared/protocol/errors.js";
import { bearerOf, sameToken } from "./bearer-token.js";

export interface ListenAddress {
  host: string;
  port: number;
}

/** How a door names its listen flag in messages: `--listen` and its example. */
export interface ListenFlag {
  flag: string;
  example: string;
  door: string;
}

/** `HOST:PORT`, `[v6]:PORT`, or `:PORT` (127.0.0.1); port 0 picks a free one. */
export function parseListen(text: string, how: ListenFlag): ListenAddress {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]*)):(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || !(port >= 0 && port <= 65535)) {
    throw new BwError("INVALID_ARGUMENT", `${how.flag}: expected HOST:PORT such as ${how.example}, got ${JSON.stringify(text.slice(0, 80))}`);
  }
  return { host: ((match[1] ?? match[2]) || "127.0.0.1").toLowerCase(), port };
}

/** localhost, 127.0.0.0/8, and ::1 in any of its spellings. */
export function isLoopbackHost(host: string): boolean {
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return isIP(host) === 6 && /^(0{0,4}:){2,7}0{0,3}1$|^::1$/.test(host);
}

/** Refuses a non-loopback address unless --allow-remote said so. */
export function checkListen(address: ListenAddress, allowRemote: boolean, how: ListenFlag): void {
  if (!isLoopbackHost(address.host) && !allowRemote) {
    throw new BwError("INVALID_ARGUMENT", `${how.flag}: ${address.host} is not a loopback address; ${how.door} listens on 127.0.0.1, ::1 or localhost unless --allow-remote is given (the bearer token is required either way)`);
  }
}

/**
 * The `host:port` names a loopback listener answers (every loopback spelling,
 * with the port it bound); undefined for a remote listener, whose clients name
 * it as they will (the token still guards it).
 */
export function answeredHosts(address: ListenAddress, boundPort: number): ReadonlySet<string> | undefined {
  if (!isLoopbackHost(address.host)) return undefined;
  const literal = address.host.includes(":") ? `[${address.host}]` : address.host;
  return new Set([literal, "localhost", "127.0.0.1", "[::1]"].map((name) => `${name}:${boundPort}`));
}

export type Refusal = { status: 401 | 403; reason: string };

/**
 * On loopback, Host must name us; with `origin`, an Origin header, when a
 * browser sends one, must be one of our own addresses too. (`serve` leaves
 * Origin to its live view's routes: its login form, under `no-referrer`, is
 * posted with `Origin: null`.)
 */
export function checkHeaders(headers: { host?: string | undefined; origin?: string | undefined }, hosts: ReadonlySet<string> | undefined, checks: { origin: boolean }): Refusal | undefined {
  if (hosts === undefined) return undefined;
  const host = headers.host?.toLowerCase();
  if (host === undefined || !hosts.has(host)) return { status: 403, reason: "the Host header does not name this server" };
  const origin = headers.origin;
  if (!checks.origin || origin === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:") || !hosts.has(parsed.host.toLowerCase())) {
    return { status: 403, reason: "the Origin header is not this server" };
  }
  return undefined;
}

/** `Authorization: Bearer <token>`, compared in constant time (digests, so lengths do not show). */
export function checkBearer(authorization: string | undefined, token: string): Refusal | undefined {
  const given = bearerOf(authorization);
  if (given === undefined || !sameToken(given, token)) return { status: 401, reason: "a bearer token is required: Authorization: Bearer <token>" };
  return undefined;
}
