// Dialling the upstream, in the daemon: try the checked literals in order, first
// connect wins. Only IP literals reach this module, so the dialer never performs
// a lookup of its own; each attempt is bounded and abandoned when the client goes away.

import { connect, isIP, type Socket } from "node:net";
import type { DialFailure } from "../../shared/protocol/methods/index.js";

export type { DialFailure };

/** Open a TCP connection to an IP literal. Must return at once; connection completes with 'connect'. */
export type Dial = (address: string, port: number) => Socket;

export type DialOutcome =
  | { kind: "connected"; socket: Socket; address: string }
  | { kind: "failed"; failure: DialFailure; reason: string }
  | { kind: "aborted" };

export interface DialOptions {
  dial: Dial;
  connectTimeoutMs: number;
  signal: AbortSignal;
  /** Every socket the dialer hands out, so the proxy can destroy it on close(). */
  onSocket: (socket: Socket) => void;
  onAttemptFailed: (address: string, failure: DialFailure, reason: string) => void;
}

export const defaultDial: Dial = (address, port) => {
  // Belt and braces: a hostname here would mean a lookup nobody checked.
  if (isIP(address) === 0) throw new Error(`refusing to dial non-literal ${address}`);
  return connect({ host: address, port, allowHalfOpen: true });
};

export async function dialFirst(addresses: readonly string[], port: number, options: DialOptions): Promise<DialOutcome> {
  let last: DialOutcome = { kind: "failed", failure: "error", reason: "no addresses to dial" };
  for (const address of addresses) {
    if (options.signal.aborted) return { kind: "aborted" };
    const outcome = await attempt(address, port, options);
    if (outcome.kind !== "failed") return outcome;
    options.onAttemptFailed(address, outcome.failure, outcome.reason);
    last = outcome;
  }
  return last;
}

function attempt(address: string, port: number, options: DialOptions): Promise<DialOutcome> {
  let socket: Socket;
  try {
    socket = options.dial(address, port);
  } catch (error) {
    return Promise.resolve({ kind: "failed", failure: "error", reason: messageOf(error) });
  }
  // Never read here. A socket for the worker is handed over, and the daemon's copy
  // stays open until the worker acknowledges it: a copy that reads takes (and drops)
  // whatever the upstream sends meanwhile, on a loaded machine the whole response,
  // and the browser sees an empty one. Paused before it connects, Node never starts
  // reading it; the daemon's own proxy resumes it when it splices the tunnel.
  socket.pause();
  options.onSocket(socket);
  // A socket error after the tunnel is up is handled there; this keeps one from
  // ever becoming an uncaught exception in between.
  socket.on("error", () => {});

  return new Promise<DialOutcome>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const done = (outcome: DialOutcome): void => {
      clearTimeout(timer);
      socket.off("connect", onConnect);
      socket.off("error", onError);
      socket.off("close", onClose);
      options.signal.removeEventListener("abort", onAbort);
      if (outcome.kind !== "connected") socket.destroy();
      resolve(outcome);
    };
    const onConnect = (): void => done({ kind: "connected", socket, address });
    const onError = (error: Error): void => done({ kind: "failed", ...classify(error) });
    const onClose = (): void => done({ kind: "failed", failure: "error", reason: "socket closed before connecting" });
    const onAbort = (): void => done({ kind: "aborted" });

    if (options.signal.aborted) return done({ kind: "aborted" });
    if (socket.destroyed) return done({ kind: "failed", failure: "error", reason: "dialer returned a closed socket" });
    if (!socket.pending) return done({ kind: "connected", socket, address });

    socket.once("connect", onConnect);
    socket.once("error", onError);
    socket.once("close", onClose);
    options.signal.addEventListener("abort", onAbort, { once: true });
    if (options.connectTimeoutMs > 0 && Number.isFinite(options.connectTimeoutMs)) {
      timer = setTimeout(
        () => done({ kind: "failed", failure: "timeout", reason: `connect to ${address}:${port} timed out after ${options.connectTimeoutMs} ms` }),
        options.connectTimeoutMs,
      );
    }
  });
}

function classify(error: Error): { failure: DialFailure; reason: string } {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case "ECONNREFUSED":
    case "ECONNRESET":
      return { failure: "refused", reason: error.message };
    case "ETIMEDOUT":
      return { failure: "timeout", reason: error.message };
    case "EHOSTUNREACH":
    case "EHOSTDOWN":
    case "EADDRNOTAVAIL":
      return { failure: "host-unreachable", reason: error.message };
    case "ENETUNREACH":
    case "ENETDOWN":
      return { failure: "network-unreachable", reason: error.message };
    default:
      return { failure: "error", reason: error.message };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
