// The daemon's guard for remote browsers: an HTTP proxy (CONNECT, and plain
// http in absolute form) on an address a remote browser can reach, serving only
// requests that carry a live lease's credentials. Every target goes to the same
// approved connect as the worker's proxy (the policy decides, only checked
// literals are dialled); a connection without valid credentials never reaches it.
// Releasing a lease stops its credentials at once and closes its connections.
import { createServer, isIP, type Server, type Socket } from "node:net";
import { BwError } from "../../shared/protocol/errors.js";
import { proxyTarget } from "../../shared/guard/questions/index.js";
import type { Refusal } from "../../shared/protocol/methods/index.js";
import { DEFAULT_MAX_HEADER_BYTES, parseAuthority } from "../../shared/guard/proxy/http-connect.js";
import { handleConnection, type ConnectionConfig, type ConnectOutcome, type GuardCounters, type GuardProxyEvent, type ProxyLease } from "../../shared/guard/proxy/proxy-connection.js";
import { DEFAULT_MAX_LEASES, RemoteLeases, type RemoteLease } from "./remote-leases.js";

export type { ConnectOutcome, RemoteLease };

export interface RemoteGuardOptions {
  /** Where to listen, e.g. { host: "127.0.0.1", port: 0 } or { host: "0.0.0.0", port: 8877 }. */
  listen: { host: string; port: number };
  /** The host:port a remote browser should dial. Default: the listening address; required when that is a wildcard. */
  advertise?: string;
  /** The daemon's approved connect (policy + dial). A rejection refuses the connection. */
  connect: (host: string, port: number, signal: AbortSignal) => Promise<ConnectOutcome>;
  /** A connection of a lease that was refused (every refusal: the policy's `denied`, `dns`, and failed dials), for the session's `blocked` list. */
  onRefused?: (lease: RemoteLease, url: string, refusal: Refusal, reason: string) => void;
  log?: (line: string) => void;
  /** Live leases at most. Default 1,024. */
  maxLeases?: number;
  /** Open client connections at most; more are closed on accept. Default 2,048. */
  maxConnections?: number;
  /** From accept until the request head is read. Default 10 s. */
  handshakeTimeoutMs?: number;
  /** A connection quiet both ways this long is closed. Default 5 min. */
  idleTimeoutMs?: number;
  /** Largest request head. Default 16 KiB. */
  maxHandshakeBytes?: number;
}

export interface ProxyCredentials {
  /** `http://host:port`, for Playwright's `proxy.server`. */
  server: string;
  username: string;
  password: string;
}

export interface RemoteGuardStats {
  connections: number;
  active: number;
  tunnels: number;
  refused: number;
  unauthorized: number;
  leases: number;
}

export const REMOTE_GUARD_DEFAULTS = Object.freeze({
  maxLeases: DEFAULT_MAX_LEASES,
  maxConnections: 2_048,
  handshakeTimeoutMs: 10_000,
  idleTimeoutMs: 5 * 60_000,
  maxHandshakeBytes: DEFAULT_MAX_HEADER_BYTES,
} as const);

const RELEASED = "the proxy credentials were released";

export class RemoteGuard {
  readonly #server: Server;
  readonly #leases: RemoteLeases;
  readonly #options: RemoteGuardOptions;
  /** Every open socket, client or upstream, for close(). */
  readonly #live = new Set<Socket>();
  /** The upstream sockets of each lease: closing one tears its tunnel down. */
  readonly #upstreams = new Map<string, Set<Socket>>();
  readonly #counters: GuardCounters = { connections: 0, active: 0, checks: 0, denied: 0, tunnels: 0, refused: 0, peerRefused: 0 };
  #unauthorized = 0;
  #nextId = 1;
  #closing: Promise<void> | undefined;
  /** host:port, as a remote browser dials it. */
  readonly advertised: string;
  /** Where it listens (the port chosen when `listen.port` was 0). */
  readonly listening: { readonly host: string; readonly port: number };

  private constructor(server: Server, options: RemoteGuardOptions, listening: { host: string; port: number }) {
    this.#server = server;
    this.#options = options;
    this.#leases = new RemoteLeases(options.maxLeases ?? REMOTE_GUARD_DEFAULTS.maxLeases);
    this.listening = Object.freeze({ ...listening });
    this.advertised = options.advertise ?? authorityOf(listening.host, listening.port);
  }

  static async start(options: RemoteGuardOptions): Promise<RemoteGuard> {
    checkOptions(options);
    const server = createServer({ allowHalfOpen: true });
    server.maxConnections = options.maxConnections ?? REMOTE_GUARD_DEFAULTS.maxConnections;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen({ host: options.listen.host, port: options.listen.port, exclusive: true }, () => {
        server.off("error", reject);
        resolve();
      });
    });
    // After listen() succeeds, accept errors (EMFILE and the like) are per-connection trouble, not fatal.
    server.on("error", () => {});
    const address = server.address();
    if (address === null || typeof address === "string") {
      server.close();
      throw new BwError("INTERNAL_ERROR", "the remote guard did not bind a TCP port");
    }
    const guard = new RemoteGuard(server, options, { host: address.address, port: address.port });
    server.on("connection", (client) => guard.#serve(client));
    options.log?.(`remote guard: listening on ${authorityOf(address.address, address.port)}, advertised as ${guard.advertised}`);
    return guard;
  }

  /** Fresh credentials for one browser context of `session`, owned by worker generation `owner`. */
  lease(session: string, owner: number): { lease: RemoteLease; credentials: ProxyCredentials } {
    if (this.#closing) throw new BwError("INTERNAL_ERROR", "the remote guard is closed");
    const { lease, username, password } = this.#leases.create(session, owner);
    return { lease, credentials: { server: `http://${this.advertised}`, username, password } };
  }

  /** The lease's credentials stop working, and its open connections are closed. Idempotent. */
  release(leaseId: string): void {
    this.#leases.release(leaseId);
    const upstreams = this.#upstreams.get(leaseId);
    this.#upstreams.delete(leaseId);
    for (const socket of upstreams ?? []) socket.destroy();
  }

  /** Every lease of a worker generation (the worker died). */
  releaseOwner(owner: number): void {
    for (const id of this.#leases.idsOf(owner)) this.release(id);
  }

  stats(): RemoteGuardStats {
    const { connections, active, tunnels, refused } = this.#counters;
    return { connections, active, tunnels, refused, unauthorized: this.#unauthorized, leases: this.#leases.size };
  }

  /** Stops listening, forgets every lease and destroys every connection. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#leases.clear();
      this.#upstreams.clear();
      for (const socket of this.#live) socket.destroy();
      this.#live.clear();
    });
    return this.#closing;
  }

  #serve(client: Socket): void {
    if (this.#closing) {
      client.destroy();
      return;
    }
    const options = this.#options;
    const config: ConnectionConfig = {
      connect: (host, port, signal, lease) => this.#connect(host, port, signal, lease),
      now: () => performance.now(),
      handshakeTimeoutMs: options.handshakeTimeoutMs ?? REMOTE_GUARD_DEFAULTS.handshakeTimeoutMs,
      idleTimeoutMs: options.idleTimeoutMs ?? REMOTE_GUARD_DEFAULTS.idleTimeoutMs,
      maxHandshakeBytes: options.maxHandshakeBytes ?? REMOTE_GUARD_DEFAULTS.maxHandshakeBytes,
      authorize: (value) => this.#leases.authorize(value),
      forwardHttp: true,
    };
    handleConnection(client, { id: this.#nextId++, config, counters: this.#counters, track: (socket) => this.#track(socket), emit: (event) => this.#onEvent(event) });
  }

  async #connect(host: string, port: number, signal: AbortSignal, proxyLease: ProxyLease | undefined): Promise<ConnectOutcome> {
    const lease = proxyLease === undefined ? undefined : this.#leases.get(proxyLease.id);
    if (lease === undefined) return { kind: "refused", refusal: "denied", reason: RELEASED, checks: 0 };
    let outcome: ConnectOutcome;
    try {
      outcome = await this.#options.connect(host, port, signal);
    } catch (error) {
      // Failure is closed, as in the worker's proxy.
      outcome = { kind: "refused", refusal: "denied", reason: `guard check failed: ${error instanceof Error ? error.message : String(error)}`, checks: 0 };
    }
    if (outcome.kind === "refused") this.#refused(lease, host, port, outcome.refusal, outcome.reason);
    if (outcome.kind !== "connected") return outcome;
    if (this.#closing || this.#leases.get(lease.id) === undefined) {
      outcome.socket.destroy();
      return { kind: "refused", refusal: "denied", reason: RELEASED, checks: outcome.checks };
    }
    const socket = outcome.socket;
    let upstreams = this.#upstreams.get(lease.id);
    if (upstreams === undefined) this.#upstreams.set(lease.id, (upstreams = new Set()));
    const held = upstreams;
    held.add(socket);
    socket.once("close", () => {
      held.delete(socket);
      if (held.size === 0 && this.#upstreams.get(lease.id) === held) this.#upstreams.delete(lease.id);
    });
    return outcome;
  }

  #refused(lease: RemoteLease, host: string, port: number, refusal: Refusal, reason: string): void {
    let url: string;
    try {
      url = proxyTarget(host, port).url;
    } catch {
      url = `${host}:${port}`;
    }
    try {
      this.#options.onRefused?.(lease, url, refusal, reason);
    } catch {
      // A broken listener must not take the connection, or the daemon, down with it.
    }
  }

  #track(socket: Socket): void {
    if (this.#closing) {
      socket.destroy();
      return;
    }
    this.#live.add(socket);
    socket.once("close", () => this.#live.delete(socket));
  }

  #onEvent(event: GuardProxyEvent): void {
    if (event.type === "unauthorized") this.#unauthorized += 1;
  }
}

/** `host:port`, with brackets around an IPv6 literal. */
function authorityOf(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

const WILDCARDS = new Set(["", "0.0.0.0", "::", "0:0:0:0:0:0:0:0"]);
const HOST_NAME = /^[A-Za-z0-9._-]+$/;
// Node turns out-of-range timer delays into 1 ms, which would drop every connection; refuse them instead.
const MAX_DELAY_MS = 2 ** 31 - 1;
type Bounded = "maxLeases" | "maxConnections" | "handshakeTimeoutMs" | "idleTimeoutMs" | "maxHandshakeBytes";
const BOUNDS: readonly (readonly [Bounded, number, number])[] = [
  ["maxLeases", 1, 1_000_000],
  ["maxConnections", 1, 1_000_000],
  ["handshakeTimeoutMs", 1, MAX_DELAY_MS],
  ["idleTimeoutMs", 0, MAX_DELAY_MS],
  ["maxHandshakeBytes", 64, 1024 * 1024],
];

function checkOptions(options: RemoteGuardOptions): void {
  if (typeof options.connect !== "function") throw new BwError("INVALID_ARGUMENT", "the remote guard needs a connect function");
  const { host, port } = options.listen ?? {};
  if (typeof host !== "string" || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new BwError("INVALID_ARGUMENT", "the remote guard's listen address needs a host and a port in 0-65535");
  }
  for (const [name, min, max] of BOUNDS) {
    const value = options[name];
    if (value !== undefined && (!Number.isInteger(value) || value < min || value > max)) {
      throw new BwError("INVALID_ARGUMENT", `remote guard option ${name} must be an integer in [${min}, ${max}], got ${String(value)}`);
    }
  }
  if (options.advertise === undefined) {
    if (WILDCARDS.has(host)) throw new BwError("INVALID_ARGUMENT", `the remote guard listens on ${host || "every address"}, which a browser cannot dial: give the address to advertise`);
    return;
  }
  const advertised = typeof options.advertise === "string" ? parseAuthority(options.advertise) : null;
  if (advertised === null || WILDCARDS.has(advertised.host) || !(isIP(advertised.host) !== 0 || HOST_NAME.test(advertised.host))) {
    throw new BwError("INVALID_ARGUMENT", "the remote guard's advertised address must be host:port (an IPv6 literal in brackets), not a wildcard");
  }
}
