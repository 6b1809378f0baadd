// The worker's network guard: the loopback proxy Chromium is launched behind
// (Playwright's `proxy` option, so its APIRequestContext uses it too), whose
// upstreams the daemon decides and dials (guard.connect), the routing layer on
// the browser context, and the ≤5 s decision cache in front of the daemon's
// `guard.check` for that layer. The policy itself never enters this process.
import type { BrowserContext, BrowserContextOptions, LaunchOptions } from "playwright-core";
import { CachedGuard, hostForUrl, proxyTarget, type PolicyDecision, type RequestDetails } from "../../../shared/guard/questions/index.js";
import { GuardCheck as GuardCheckMethod } from "../../../shared/protocol/methods/index.js";
import type { RpcPeer } from "../../../shared/protocol/rpc.js";
import { startGuardProxy, type Connect, type GuardProxy, type GuardProxyEvent, type PeerCheckOptions } from "./proxy/guard-proxy.js";
import { rateLimitedLog } from "./rate-limited-log.js";
import { installRouteLayer, type BlockedSink, type GuardRefusal } from "./route-layer.js";
import { unreachableReason } from "./unreachable.js";

/** A guard.check that takes longer than this denies (the proxy bounds its own checks the same way). */
export const GUARD_ASK_TIMEOUT_MS = 10_000;
/** At most one log line per this interval about connections from other users' sockets. */
export const PEER_REFUSED_LOG_INTERVAL_MS = 60_000;

/** Asks the policy; in the worker, the daemon over the pipe. May reject, which denies. */
export type GuardAskFn = (url: string, details: RequestDetails) => Promise<unknown>;

export interface BrowserGuardOptions {
  /** The routing layer's question (guard.check), through the decision cache. */
  ask: GuardAskFn;
  /** The proxy's upstreams: in the worker, the daemon decides and dials (connectThroughDaemon). */
  connect: Connect;
  log?: (line: string) => void;
  /** Install the routing layer (custom-hook policies only; the proxy enforces host decisions either way). */
  routeRequests?: boolean;
  now?: () => number;
  /** Whose sockets the proxy serves (default: this process's uid, through /proc/net). */
  peers?: PeerCheckOptions;
}

/** The production ask: the daemon's guard.check over the worker's pipe. */
export function askDaemon(daemon: RpcPeer<void>): GuardAskFn {
  return (url, details) => daemon.call(GuardCheckMethod, { url, details: { ...details } }, GUARD_ASK_TIMEOUT_MS);
}

export class BrowserGuard {
  readonly cache: CachedGuard;
  readonly #options: BrowserGuardOptions;
  #proxy: Promise<GuardProxy> | undefined;
  #sink: BlockedSink | undefined;
  readonly #logPeerRefused: (line: string) => void;

  constructor(options: BrowserGuardOptions) {
    this.#options = options;
    this.#logPeerRefused = rateLimitedLog((line) => options.log?.(line), PEER_REFUSED_LOG_INTERVAL_MS, options.now ?? Date.now);
    this.cache = new CachedGuard({ ask: options.ask, ...(options.now ? { now: options.now } : {}) });
  }

  /** One decision through the cache. Never rejects. */
  check(url: string, details: RequestDetails): Promise<PolicyDecision> {
    return this.cache.check(url, details);
  }

  /** Starts the proxy once; it outlives browser restarts. */
  proxy(): Promise<GuardProxy> {
    if (this.#proxy === undefined) {
      const starting = startGuardProxy({
        connect: this.#options.connect,
        onEvent: (event) => this.#onProxyEvent(event),
        ...(this.#options.peers ? { peers: this.#options.peers } : {}),
      });
      this.#proxy = starting;
      starting.catch(() => {
        if (this.#proxy === starting) this.#proxy = undefined;
      });
    }
    return this.#proxy;
  }

  /** What Playwright's launch needs: every connection, Chromium's and APIRequestContext's, goes through the proxy. */
  async launchOptions(): Promise<Pick<LaunchOptions, "proxy">> {
    const proxy = await this.proxy();
    this.#options.log?.(`guard proxy listening on 127.0.0.1:${proxy.port}`);
    return { proxy: { server: proxy.url } };
  }

  /** The same proxy for a context made after the launch (an isolated session's): stated, not left to inheritance. */
  async contextOptions(): Promise<Pick<BrowserContextOptions, "proxy">> {
    return { proxy: { server: (await this.proxy()).url } };
  }

  /**
   * Installs the routing layer on a freshly launched context; refusals from either layer go to `sink`.
   * `route`: install it whatever the policy (a remote context's, whose proxy can refuse a plain-HTTP
   * request only with an answer the page would take for the site's).
   */
  async attach(context: BrowserContext, sink: BlockedSink, route = this.#options.routeRequests === true): Promise<void> {
    this.#sink = sink;
    if (route) await installRouteLayer(context, (url, details) => this.check(url, details), sink);
  }

  async close(): Promise<void> {
    const pending = this.#proxy;
    this.#proxy = undefined;
    if (pending) await pending.then((p) => p.close()).catch(() => {});
  }

  #onProxyEvent(event: GuardProxyEvent): void {
    // Another user's connection is not this browser's traffic: a log line, never a blocked entry.
    if (event.type === "peer-refused") {
      return this.#logPeerRefused(`guard proxy: closed a connection from ${event.remoteAddress ?? "?"}:${event.remotePort ?? "?"} unanswered: ${event.reason}`);
    }
    if (event.type === "peer-check-unavailable") {
      return this.#options.log?.(`guard proxy: cannot tell whose connections it serves (${event.reason}); uncontained, any local user can use it`);
    }
    if (event.type !== "refused" || event.refusal === "invalid") return;
    let url: string;
    let hostPort = `${event.host}:${event.port}`;
    try {
      const target = proxyTarget(event.host, event.port);
      url = target.url;
      hostPort = `${hostForUrl(target.host)}:${target.port}`;
    } catch {
      url = hostPort;
    }
    const entry: GuardRefusal = event.refusal === "denied"
      ? { url, layer: "proxy", reason: event.reason }
      : event.refusal === "dns"
        ? { url, layer: "proxy", reason: event.reason, unresolved: true }
        : { url, layer: "proxy", reason: unreachableReason(event.refusal, hostPort), unreachable: true };
    // The proxy cannot tell which page opened a connection: every run in flight hears of it.
    this.#sink?.(entry, undefined);
  }
}
