// One client connection through the guard: sniff the protocol, read a bounded
// handshake, ask for the upstream (the daemon decides and dials), answer, then
// splice the two sockets. Nothing a client sends can throw out of here: every
// path ends in a reply, a destroy, or a tunnel that tears both sides down together.
// A proxy that asks for credentials never lets an unauthenticated client reach `connect`.

import type { Socket } from "node:net";
import type { Refusal } from "../../protocol/methods/index.js";
import { encodeConnectResponse, type ConnectStatus } from "./http-connect.js";
import { parseProxyRequest } from "./http-proxy-request.js";
import { encodeMethodSelection, encodeReply, parseGreeting, parseRequest, selectMethod, SOCKS_VERSION, SocksMethod, SocksReply, type SocksReplyCode } from "./socks5.js";

/** `http-forward`: a plain-http request in absolute form, forwarded as one request. */
export type GuardProtocol = "socks5" | "http-connect" | "http-forward";

/** Whose connection this is, on a proxy that asks for credentials: what `authorize` accepted. */
export interface ProxyLease {
  readonly id: string;
}

export type { Refusal };

/** What asking for an upstream gives: a connected socket the daemon approved, or why not. */
export type ConnectOutcome =
  | { kind: "connected"; socket: Socket; address: string; checks: number }
  | { kind: "refused"; refusal: Refusal; reason: string; checks: number }
  /** The client went away first; nothing is left open. */
  | { kind: "aborted"; checks: number };

/**
 * Asks for a connection to `host:port` as the client named it. In the worker,
 * the daemon's guard.connect: the policy is asked about the host and every
 * address it resolves to, and only a checked literal is dialled. Must not throw;
 * a rejection refuses the connection. `lease` is set on a proxy that asks for credentials.
 */
export type Connect = (host: string, port: number, signal: AbortSignal, lease?: ProxyLease) => Promise<ConnectOutcome>;

export type GuardProxyEvent =
  | { type: "accepted"; connectionId: number; remotePort: number | undefined }
  | { type: "request"; connectionId: number; protocol: GuardProtocol; host: string; port: number }
  | { type: "refused"; connectionId: number; protocol: GuardProtocol; host: string; port: number; refusal: Refusal; reason: string }
  | { type: "connected"; connectionId: number; protocol: GuardProtocol; host: string; port: number; address: string; durationMs: number }
  | { type: "protocol-error"; connectionId: number; protocol: GuardProtocol | "unknown"; reason: string }
  /** On a proxy that asks for credentials: a request without valid ones (answered 407), or a SOCKS5 greeting (no method offered). */
  | { type: "unauthorized"; connectionId: number; protocol: GuardProtocol }
  | { type: "closed"; connectionId: number; bytesFromClient: number; bytesToClient: number; durationMs: number }
  /** A connection from a socket another user owns, closed unread and unanswered (the policy never hears of it). */
  | { type: "peer-refused"; remoteAddress: string | undefined; remotePort: number | undefined; reason: string }
  /** Once, at start: the peer check cannot work here, so any local user can connect. */
  | { type: "peer-check-unavailable"; reason: string };

export interface ConnectionConfig {
  connect: Connect;
  now: () => number;
  handshakeTimeoutMs: number;
  idleTimeoutMs: number;
  maxHandshakeBytes: number;
  /**
   * Set, the proxy asks for credentials: an HTTP request is served only if this
   * accepts its Proxy-Authorization value (undefined when there is none, or more
   * than one), and SOCKS5 is refused. Unset (the worker's loopback proxy), nothing is asked.
   */
  authorize?: (proxyAuthorization: string | undefined) => ProxyLease | undefined;
  /** Forward plain-http requests sent in absolute form, one per connection; unset, only CONNECT (405). */
  forwardHttp?: boolean;
}

export interface GuardCounters {
  connections: number;
  active: number;
  /** Policy questions asked for this proxy's connections (by name and per resolved address). */
  checks: number;
  denied: number;
  tunnels: number;
  refused: number;
  /** Connections closed unanswered because another user's socket made them. */
  peerRefused: number;
}

export interface ProxyConnection {
  id: number;
  config: ConnectionConfig;
  counters: GuardCounters;
  /** Registers a socket so the proxy's close() can destroy it. */
  track: (socket: Socket) => void;
  emit: (event: GuardProxyEvent) => void;
}

const SOCKS_REPLY: Record<Refusal, SocksReplyCode> = {
  denied: SocksReply.NOT_ALLOWED_BY_RULESET,
  dns: SocksReply.HOST_UNREACHABLE,
  invalid: SocksReply.GENERAL_FAILURE,
  refused: SocksReply.CONNECTION_REFUSED,
  timeout: SocksReply.TTL_EXPIRED,
  "host-unreachable": SocksReply.HOST_UNREACHABLE,
  "network-unreachable": SocksReply.NETWORK_UNREACHABLE,
  error: SocksReply.GENERAL_FAILURE,
};

const HTTP_STATUS: Record<Refusal, ConnectStatus> = {
  denied: 403,
  dns: 502,
  invalid: 400,
  refused: 502,
  timeout: 504,
  "host-unreachable": 502,
  "network-unreachable": 502,
  error: 502,
};

/** After a refusal, how long the client gets to read it before the socket is destroyed. */
const LINGER_MS = 2_000;

export function handleConnection(client: Socket, ctx: ProxyConnection): void {
  const { config, counters } = ctx;
  const startedAt = config.now();
  const abort = new AbortController();
  let buffered: Buffer = Buffer.alloc(0);
  let protocol: GuardProtocol | undefined;
  let phase: "greeting" | "request" | "deciding" | "tunnel" | "done" = "greeting";
  let lingerTimer: NodeJS.Timeout | undefined;

  counters.connections += 1;
  counters.active += 1;
  ctx.track(client);
  client.setNoDelay(true);
  // Every error is followed by 'close', which is where cleanup happens.
  client.on("error", () => {});
  ctx.emit({ type: "accepted", connectionId: ctx.id, remotePort: client.remotePort });

  const handshakeTimer = setTimeout(() => protocolError(`handshake not completed within ${config.handshakeTimeoutMs} ms`), config.handshakeTimeoutMs);

  client.on("close", () => {
    clearTimeout(handshakeTimer);
    clearTimeout(lingerTimer);
    abort.abort();
    counters.active -= 1;
    ctx.emit({ type: "closed", connectionId: ctx.id, bytesFromClient: client.bytesRead, bytesToClient: client.bytesWritten, durationMs: config.now() - startedAt });
  });
  // The listener allows half-open sockets for the tunnel's sake. A FIN before the
  // request is complete ends the conversation; one after it (request and payload
  // sent, then shutdown) is a half-close to carry through the tunnel.
  let clientEnded = false;
  client.on("end", () => {
    clientEnded = true;
    if (phase === "greeting" || phase === "request") client.destroy();
  });
  client.on("data", onData);

  function onData(chunk: Buffer): void {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    protocol ??= buffered[0] === SOCKS_VERSION ? "socks5" : "http-connect";
    try {
      if (protocol === "socks5") advanceSocks();
      else advanceHttp();
    } catch (error) {
      protocolError(`internal error while parsing: ${error instanceof Error ? error.message : String(error)}`);
    }
    if ((phase === "greeting" || phase === "request") && buffered.length > config.maxHandshakeBytes) {
      protocolError(`handshake exceeds ${config.maxHandshakeBytes} bytes`);
    }
  }

  function advanceSocks(): void {
    if (phase === "greeting") {
      const greeting = parseGreeting(buffered);
      if (greeting.kind === "incomplete") return;
      if (greeting.kind === "error") return protocolError(greeting.reason);
      buffered = buffered.subarray(greeting.consumed);
      if (config.authorize) {
        // Chromium cannot authenticate to a SOCKS5 proxy, so a proxy that asks for credentials offers no method at all.
        ctx.emit({ type: "unauthorized", connectionId: ctx.id, protocol: "socks5" });
        return finish(encodeMethodSelection(SocksMethod.NO_ACCEPTABLE));
      }
      const method = selectMethod(greeting.methods);
      if (method === SocksMethod.NO_ACCEPTABLE) {
        ctx.emit({ type: "protocol-error", connectionId: ctx.id, protocol: "socks5", reason: "client offers no acceptable authentication method" });
        return finish(encodeMethodSelection(method));
      }
      client.write(encodeMethodSelection(method));
      phase = "request";
    }
    if (phase !== "request") return;
    const request = parseRequest(buffered);
    if (request.kind === "incomplete") return;
    if (request.kind === "error") {
      ctx.emit({ type: "protocol-error", connectionId: ctx.id, protocol: "socks5", reason: request.reason });
      return finish(encodeReply(request.reply ?? SocksReply.GENERAL_FAILURE));
    }
    startTunnel(request.host, request.port, buffered.subarray(request.consumed), undefined, undefined);
  }

  function advanceHttp(): void {
    const request = parseProxyRequest(buffered, { maxHeaderBytes: config.maxHandshakeBytes, forward: config.forwardHttp === true });
    if (request.kind === "incomplete") return;
    if (request.kind === "error") {
      ctx.emit({ type: "protocol-error", connectionId: ctx.id, protocol: "http-connect", reason: request.reason });
      return finish(encodeConnectResponse(request.status, request.reason));
    }
    if (request.kind === "forward") protocol = "http-forward";
    let lease: ProxyLease | undefined;
    if (config.authorize) {
      lease = authorizeOnce(config.authorize, request.authorization);
      if (lease === undefined) {
        ctx.emit({ type: "unauthorized", connectionId: ctx.id, protocol: protocol! });
        return finish(encodeConnectResponse(407));
      }
    }
    const forward = request.kind === "forward" ? { head: request.head, bodyBytes: request.bodyBytes } : undefined;
    startTunnel(request.host, request.port, buffered.subarray(request.consumed), lease, forward);
  }

  /** Stop reading (the kernel buffers whatever the client sends next) and decide. */
  function startTunnel(host: string, port: number, early: Buffer, lease: ProxyLease | undefined, forward: Forward | undefined): void {
    phase = "deciding";
    clearTimeout(handshakeTimer);
    client.off("data", onData);
    client.pause();
    buffered = Buffer.alloc(0);
    const proto = protocol!;
    ctx.emit({ type: "request", connectionId: ctx.id, protocol: proto, host, port });
    connectUpstream(proto, host, port, early, lease, forward).catch((error: unknown) => {
      // Unreachable by design; if it happens, the connection dies, the process does not.
      protocolError(`internal error: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  async function connectUpstream(proto: GuardProtocol, host: string, port: number, early: Buffer, lease: ProxyLease | undefined, forward: Forward | undefined): Promise<void> {
    let outcome: ConnectOutcome;
    try {
      outcome = await (lease === undefined ? config.connect(host, port, abort.signal) : config.connect(host, port, abort.signal, lease));
    } catch (error) {
      // Failure is closed: a question that could not be asked denies, as a failed check does.
      outcome = { kind: "refused", refusal: "denied", reason: `guard check failed: ${error instanceof Error ? error.message : String(error)}`, checks: 0 };
    }
    counters.checks += outcome.checks;
    if (outcome.kind === "aborted") return;
    if (outcome.kind === "refused") {
      if (abort.signal.aborted) return;
      if (outcome.refusal === "denied") counters.denied += 1;
      return refuse(proto, host, port, outcome.refusal, outcome.reason);
    }
    const upstream = outcome.socket;
    ctx.track(upstream);
    // A socket handed over from another process starts as Node makes it (no half-open); the tunnel carries a FIN each way.
    upstream.allowHalfOpen = true;
    upstream.on("error", () => {});
    if (abort.signal.aborted || client.destroyed) {
      upstream.destroy();
      return;
    }

    counters.tunnels += 1;
    ctx.emit({ type: "connected", connectionId: ctx.id, protocol: proto, host, port, address: outcome.address, durationMs: config.now() - startedAt });
    if (forward) upstream.write(forward.head);
    else client.write(proto === "socks5" ? encodeReply(SocksReply.SUCCEEDED, bindOf(upstream)) : encodeConnectResponse(200));
    splice(upstream, early, forward?.bodyBytes);
  }

  /** Join the two sockets; with `bodyBytes`, only that many more bytes of the client's go upstream (one forwarded request). */
  function splice(upstream: Socket, early: Buffer, bodyBytes: number | undefined): void {
    phase = "tunnel";
    upstream.setNoDelay(true);
    const teardown = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", teardown);
    upstream.on("close", teardown);
    client.on("error", teardown);
    upstream.on("error", teardown);
    if (config.idleTimeoutMs > 0) {
      // Data through the tunnel is activity on both sockets, so either going quiet means both have.
      client.setTimeout(config.idleTimeoutMs, teardown);
      upstream.setTimeout(config.idleTimeoutMs, teardown);
    }
    upstream.pipe(client);
    if (bodyBytes !== undefined) return carryBody(upstream, early, bodyBytes, teardown);
    if (early.length > 0) upstream.write(early);
    // pipe() pauses the source while the destination's buffer is full (backpressure)
    // and forwards a half-close (FIN) as end(); a FIN that came while deciding is
    // already past, so it is forwarded by hand.
    if (clientEnded) upstream.end();
    else client.pipe(upstream);
  }

  /**
   * A forwarded request's body, and nothing after it: a byte past the body is a
   * second request on a connection that carries one (the upstream was told
   * `Connection: close`, and the next may be meant for another host), so both
   * sides are closed instead and the client retries on a new connection.
   */
  function carryBody(upstream: Socket, early: Buffer, bodyBytes: number, teardown: () => void): void {
    let remaining = bodyBytes;
    const carry = (chunk: Buffer): void => {
      if (chunk.length > remaining) return teardown();
      remaining -= chunk.length;
      if (chunk.length > 0 && !upstream.write(chunk)) {
        client.pause();
        upstream.once("drain", () => client.resume());
      }
    };
    carry(early);
    if (clientEnded) upstream.end();
    else client.once("end", () => upstream.end());
    client.on("data", carry);
    client.resume();
  }

  function refuse(proto: GuardProtocol, host: string, port: number, refusal: Refusal, reason: string): void {
    counters.refused += 1;
    ctx.emit({ type: "refused", connectionId: ctx.id, protocol: proto, host, port, refusal, reason });
    finish(proto === "socks5" ? encodeReply(SOCKS_REPLY[refusal]) : encodeConnectResponse(HTTP_STATUS[refusal], reason));
  }

  /**
   * Send a final answer and close. Unread input at close() makes the kernel send a
   * reset that can overtake the answer, so keep draining until the client hangs up
   * or the linger bound passes.
   */
  function finish(answer: Buffer): void {
    if (phase === "done" || client.destroyed) return;
    phase = "done";
    clearTimeout(handshakeTimer);
    client.off("data", onData);
    client.on("data", () => {});
    client.resume();
    client.end(answer);
    lingerTimer = setTimeout(() => client.destroy(), LINGER_MS);
  }

  function protocolError(reason: string): void {
    if (phase === "done" || client.destroyed) return;
    phase = "done";
    ctx.emit({ type: "protocol-error", connectionId: ctx.id, protocol: protocol ?? "unknown", reason });
    client.destroy();
  }
}

/** A forwarded request: the head the upstream gets, and how long its body is. */
interface Forward {
  head: Buffer;
  bodyBytes: number;
}

/** What `authorize` makes of a request's Proxy-Authorization values; more than one, or a throw, is no lease. */
function authorizeOnce(authorize: NonNullable<ConnectionConfig["authorize"]>, values: readonly string[]): ProxyLease | undefined {
  if (values.length > 1) return undefined;
  try {
    return authorize(values[0]);
  } catch {
    return undefined;
  }
}

function bindOf(upstream: Socket): { address: string; port: number } {
  const address = upstream.localAddress;
  const port = upstream.localPort;
  return typeof address === "string" && typeof port === "number" ? { address, port } : { address: "0.0.0.0", port: 0 };
}
