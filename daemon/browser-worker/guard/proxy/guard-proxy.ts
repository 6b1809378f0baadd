// The worker's guard proxy: the only way out for Chromium and Playwright's own
// requests. One loopback listener speaks SOCKS5 and HTTP CONNECT; for every
// target it asks `connect` (the daemon, which decides with the policy and dials
// only checked literals) and splices what it gets back. Contained, the listener
// is in the worker's own network namespace, out of every other process's reach;
// uncontained, only sockets of this process's uid are served (peer-check.ts).

import { createServer, type Server, type Socket } from "node:net";
import { DEFAULT_MAX_HEADER_BYTES } from "../../../../shared/guard/proxy/http-connect.js";
import { preparePeerCheck, type PeerCheckOptions } from "./peer-check.js";
import { handleConnection, type Connect, type ConnectionConfig, type GuardCounters, type GuardProxyEvent } from "../../../../shared/guard/proxy/proxy-connection.js";

export type { Connect, ConnectOutcome, GuardProtocol, GuardProxyEvent, Refusal } from "../../../../shared/guard/proxy/proxy-connection.js";
export type { PeerCheckOptions, ReadProcNet } from "./peer-check.js";

export interface GuardProxyOptions {
  /** Asks for an approved, connected upstream; in production guard.connect to the daemon. A rejection refuses. */
  connect: Connect;
  /** Milliseconds clock for event durations. Default: performance.now. */
  now?: () => number;
  /** From accept until the request is fully read. Default 10 s. */
  handshakeTimeoutMs?: number;
  /** An established tunnel with no traffic either way for this long is closed; 0 disables. Default 5 min. */
  idleTimeoutMs?: number;
  /** Largest handshake (SOCKS greeting + request, or HTTP request head) accepted. Default 16 KiB. */
  maxHandshakeBytes?: number;
  /**
   * Whose connections are served: the uid and the reader of /proc/net. Default:
   * this process's uid. Where /proc/net cannot be read (not Linux), every local
   * connection is served and one `peer-check-unavailable` event says so.
   */
  peers?: PeerCheckOptions;
  /** Logging and metrics hook; it must not throw, and if it does the error is swallowed. */
  onEvent?: (event: GuardProxyEvent) => void;
}

export type GuardProxyStats = Readonly<GuardCounters>;

export interface GuardProxy {
  readonly port: number;
  /** `socks5://127.0.0.1:PORT`, for Playwright's `proxy.server` launch option. */
  readonly url: string;
  /** Counters since start: connections accepted, live now, policy checks, denials, tunnels, refusals. */
  stats(): GuardProxyStats;
  /** Stops listening and destroys every live connection, client and upstream. Idempotent. */
  close(): Promise<void>;
}

export const GUARD_PROXY_DEFAULTS = Object.freeze({
  handshakeTimeoutMs: 10_000,
  idleTimeoutMs: 5 * 60_000,
  maxHandshakeBytes: DEFAULT_MAX_HEADER_BYTES,
} as const);

export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  if (typeof options.connect !== "function") throw new TypeError("startGuardProxy needs a connect function");
  const config: ConnectionConfig = {
    connect: options.connect,
    now: options.now ?? (() => performance.now()),
    handshakeTimeoutMs: options.handshakeTimeoutMs ?? GUARD_PROXY_DEFAULTS.handshakeTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs ?? GUARD_PROXY_DEFAULTS.idleTimeoutMs,
    maxHandshakeBytes: options.maxHandshakeBytes ?? GUARD_PROXY_DEFAULTS.maxHandshakeBytes,
  };
  validateConfig(config);
  const counters: GuardCounters = { connections: 0, active: 0, checks: 0, denied: 0, tunnels: 0, refused: 0, peerRefused: 0 };
  const live = new Set<Socket>();
  let nextId = 1;
  let closing: Promise<void> | undefined;
  const onEvent = options.onEvent;
  const emit = (event: GuardProxyEvent): void => {
    if (!onEvent) return;
    try {
      onEvent(event);
    } catch {
      // A broken logger must not take a connection, or the worker, down with it.
    }
  };
  const track = (socket: Socket): void => {
    if (closing) {
      socket.destroy();
      return;
    }
    live.add(socket);
    socket.once("close", () => live.delete(socket));
  };

  const peerCheck = await preparePeerCheck(options.peers);
  if ("unavailable" in peerCheck) emit({ type: "peer-check-unavailable", reason: peerCheck.unavailable });
  const serve = (client: Socket): void => {
    // A client gone while it was checked has already had its 'close': serving it would count it live forever.
    if (closing || client.destroyed) client.destroy();
    else handleConnection(client, { id: nextId++, config, counters, track, emit });
  };

  // allowHalfOpen lets a client's FIN travel through the tunnel while the answer is still coming back.
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    if (closing) {
      client.destroy();
      return;
    }
    if ("unavailable" in peerCheck) return serve(client);
    // Nothing is read or written until the peer is known: what it sends waits in the socket.
    client.on("error", () => {});
    const refuse = (reason: string): void => {
      counters.peerRefused += 1;
      emit({ type: "peer-refused", remoteAddress: client.remoteAddress, remotePort: client.remotePort, reason });
      client.destroy();
    };
    peerCheck.check(client).then(
      (verdict) => (verdict.allowed ? serve(client) : refuse(verdict.reason)),
      (error: unknown) => refuse(`the peer check failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  });
  // After listen() succeeds, accept errors (EMFILE and the like) are per-connection trouble, not fatal.
  const onServerError = (): void => {};

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port: 0, exclusive: true }, () => {
      server.off("error", reject);
      server.on("error", onServerError);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("guard proxy did not bind a TCP port");
  const port = address.port;

  return {
    port,
    url: `socks5://127.0.0.1:${port}`,
    stats: () => ({ ...counters }),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of live) socket.destroy();
        live.clear();
      });
      return closing;
    },
  };
}

// Node's timers and socket timeouts silently turn out-of-range delays into 1 ms,
// which would make a mistyped option drop every connection; refuse them instead.
const MAX_DELAY_MS = 2 ** 31 - 1;

function validateConfig(config: ConnectionConfig): void {
  const bounded = (name: keyof ConnectionConfig, min: number, max: number): void => {
    const value = config[name];
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      throw new RangeError(`guard proxy option ${name} must be an integer in [${min}, ${max}], got ${String(value)}`);
    }
  };
  bounded("handshakeTimeoutMs", 1, MAX_DELAY_MS);
  bounded("idleTimeoutMs", 0, MAX_DELAY_MS);
  bounded("maxHandshakeBytes", 64, 1024 * 1024);
}
