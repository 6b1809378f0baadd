// The proxy's upstream, as the daemon makes it: guard.connect over the worker's
// pipe, answered by the daemon's policy, with the connected socket arriving on
// the handle channel (Node's IPC channel to the daemon) under the ticket the
// answer names. The two travel on different channels, so either may come first.
import { Socket } from "node:net";
import { GUARD_SOCKET_MESSAGE, GuardConnect, type MethodDecl } from "../../../../shared/protocol/methods/index.js";
import type { Connect } from "../../../../shared/guard/proxy/proxy-connection.js";

/** guard.connect's own bound: the daemon bounds each check and each dial attempt itself. */
export const GUARD_CONNECT_TIMEOUT_MS = 30_000;
/** How long a socket waits for its answer (or an answer for its socket) before it is closed. */
export const SOCKET_HOLD_MS = 10_000;

export interface DaemonCaller {
  call<P, R>(decl: MethodDecl<P, R>, params: P, timeoutMs?: number): Promise<R>;
}

/** Where handed-over sockets arrive: the worker's process object, whose 'message' events carry them. */
export interface HandleChannel {
  on(event: "message", listener: (message: unknown, handle: unknown) => void): unknown;
}

function ticketOf(message: unknown): number | undefined {
  if (message === null || typeof message !== "object") return undefined;
  const m = message as { type?: unknown; ticket?: unknown };
  return m.type === GUARD_SOCKET_MESSAGE && typeof m.ticket === "number" && Number.isSafeInteger(m.ticket) ? m.ticket : undefined;
}

/** Sockets by ticket, matched with the answers that name them; none is kept unclaimed for long. */
export class SocketInbox {
  readonly #arrived = new Map<number, { socket: Socket; timer: NodeJS.Timeout }>();
  readonly #waiting = new Map<number, { resolve: (socket: Socket | undefined) => void; timer: NodeJS.Timeout }>();

  constructor(private readonly holdMs = SOCKET_HOLD_MS) {}

  /** One message of the handle channel; anything that is not a ticketed socket is dropped (and closed). */
  receive(message: unknown, handle: unknown): void {
    const ticket = ticketOf(message);
    if (!(handle instanceof Socket)) return;
    const waiter = ticket === undefined ? undefined : this.#waiting.get(ticket);
    if (ticket === undefined || this.#arrived.has(ticket)) {
      handle.destroy();
      return;
    }
    if (waiter) {
      this.#waiting.delete(ticket);
      clearTimeout(waiter.timer);
      waiter.resolve(handle);
      return;
    }
    const timer = setTimeout(() => {
      this.#arrived.delete(ticket);
      handle.destroy();
    }, this.holdMs);
    timer.unref();
    this.#arrived.set(ticket, { socket: handle, timer });
  }

  /** The socket of `ticket`, or undefined if it did not come within the hold time. */
  take(ticket: number): Promise<Socket | undefined> {
    const arrived = this.#arrived.get(ticket);
    if (arrived) {
      this.#arrived.delete(ticket);
      clearTimeout(arrived.timer);
      return Promise.resolve(arrived.socket);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(ticket);
        resolve(undefined);
      }, this.holdMs);
      timer.unref();
      this.#waiting.set(ticket, { resolve, timer });
    });
  }
}

const inboxes = new WeakMap<HandleChannel, SocketInbox>();

/** The one inbox of a channel: every socket the daemon hands over (guard tunnels, remote endpoints) arrives there. */
export function inboxFor(channel: HandleChannel): SocketInbox {
  let inbox = inboxes.get(channel);
  if (!inbox) {
    const made = new SocketInbox();
    channel.on("message", (message, handle) => made.receive(message, handle));
    inboxes.set(channel, made);
    inbox = made;
  }
  return inbox;
}

/** The production `connect`: the daemon decides and dials; its socket comes over `channel`. */
export function connectThroughDaemon(daemon: DaemonCaller, channel: HandleChannel): Connect {
  const inbox = inboxFor(channel);
  return async (host, port, signal) => {
    const answer = await daemon.call(GuardConnect, { host, port }, GUARD_CONNECT_TIMEOUT_MS);
    if (!answer.connected) return { kind: "refused", refusal: answer.refusal, reason: answer.reason, checks: answer.checks };
    const socket = await inbox.take(answer.ticket);
    if (socket === undefined) return { kind: "refused", refusal: "error", reason: "the daemon's connection did not arrive", checks: answer.checks };
    if (signal.aborted) {
      socket.destroy();
      return { kind: "aborted", checks: answer.checks };
    }
    return { kind: "connected", socket, address: answer.address, checks: answer.checks };
  };
}
