// The worker's remote browsers: each session is placed on the least-loaded
// endpoint that is up (or due for a retry) and has room, and lives there in a
// context of its own, behind the daemon's guard proxy with credentials leased
// for that session. An endpoint that goes away loses its sessions' contexts
// (their next run says SESSION_RESET) and is retried with backoff; their next
// page is placed again, elsewhere if need be.
import type { Browser, BrowserContext, BrowserContextOptions } from "playwright-core";
import { BwError } from "../../../shared/protocol/errors.js";
import type { EndpointReport, RemoteLeaseResult, WorkerRemoteInit } from "../../../shared/protocol/methods/index.js";
import type { ContextWiring } from "../isolated-context.js";
import { EndpointLink, type EndpointDeps } from "./endpoint-link.js";

export interface RemoteDeps extends Omit<EndpointDeps, "onLost" | "trustRemoteEgress"> {
  lease(session: string): Promise<RemoteLeaseResult>;
  release(leaseId: string): void;
  /** Sessions whose contexts went with an endpoint. */
  onLost(sessions: string[]): void;
}

/**
 * WebRTC can send UDP around an HTTP proxy, and a browser server launched by
 * someone else may not have our flags: remote pages get no RTCPeerConnection.
 */
const NO_WEBRTC = `(() => {
  for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "RTCIceCandidate", "RTCSessionDescription"]) {
    try { delete globalThis[name]; } catch {}
  }
})();`;

export class RemotePool {
  readonly links: EndpointLink[];
  readonly #placed = new Map<string, EndpointLink>();
  readonly #leases = new Map<string, Promise<RemoteLeaseResult>>();
  /** Each session's current context. */
  readonly #contexts = new Map<string, BrowserContext>();

  constructor(init: WorkerRemoteInit, private readonly deps: RemoteDeps) {
    const linkDeps: EndpointDeps = { ...deps, trustRemoteEgress: init.trustRemoteEgress, onLost: (link, sessions) => this.#lost(link, sessions) };
    this.links = init.endpoints.map((endpoint) => new EndpointLink(endpoint, linkDeps));
  }

  /** Where the session lives now, if placed. */
  placementOf(session: string): EndpointLink | undefined {
    return this.#placed.get(session);
  }

  /** The session's browser: where it is placed, or the least-loaded endpoint that can take it. */
  async browserFor(session: string): Promise<Browser> {
    const placed = this.#placed.get(session);
    if (placed) return placed.browser();
    const problems: string[] = [];
    const candidates = this.links.filter((link) => {
      if (link.refusal) problems.push(link.refusal);
      else if (!link.available()) problems.push(`${link.url} is down (${link.lastError ?? "retrying"})`);
      else if (!link.hasRoom()) problems.push(`${link.url} holds its ${link.endpoint.maxSessions} sessions`);
      return link.available() && link.hasRoom();
    }).sort((a, b) => a.sessions.size - b.sessions.size);
    for (const link of candidates) {
      // Counted before the connection is awaited, so that sessions placed at once spread out.
      link.sessions.add(session);
      this.#placed.set(session, link);
      try {
        return await link.browser();
      } catch (error) {
        link.sessions.delete(session);
        if (this.#placed.get(session) === link) this.#placed.delete(session);
        problems.push((error as Error).message);
      }
    }
    const allRefused = this.links.every((link) => link.refusal !== undefined);
    throw new BwError(allRefused ? "GUARD_NOT_ENFORCED" : "BROWSER_UNAVAILABLE", `no remote browser can take session ${session}: ${problems.join("; ") || "no endpoints"}`);
  }

  /** How a session's contexts are made on its remote browser; `attach` is what every context gets. */
  wiring(session: string, attach: (context: BrowserContext) => Promise<void>): ContextWiring {
    return {
      browser: () => this.browserFor(session),
      options: async (): Promise<BrowserContextOptions> => {
        const lease = await this.#lease(session);
        return { proxy: { server: lease.server, username: lease.username, password: lease.password } };
      },
      attach: async (context) => {
        // A context closed under the session (its browser died; the connection's own end may come later) loses it.
        this.#contexts.set(session, context);
        context.on("close", () => this.#contextLost(session, context));
        await context.addInitScript({ content: NO_WEBRTC });
        await attach(context);
      },
    };
  }

  #lease(session: string): Promise<RemoteLeaseResult> {
    let lease = this.#leases.get(session);
    if (!lease) {
      const asking = this.deps.lease(session);
      lease = asking;
      this.#leases.set(session, asking);
      asking.catch(() => {
        if (this.#leases.get(session) === asking) this.#leases.delete(session);
      });
    }
    return lease;
  }

  /** The session is closed: its place and its proxy credentials go. */
  release(session: string): void {
    this.#contexts.delete(session);
    this.#placed.get(session)?.sessions.delete(session);
    this.#placed.delete(session);
    const lease = this.#leases.get(session);
    this.#leases.delete(session);
    void lease?.then((l) => this.deps.release(l.leaseId), () => {});
  }

  /** Contexts closed by us are released first, so a session still placed lost its context. */
  #contextLost(session: string, context: BrowserContext): void {
    const link = this.#placed.get(session);
    if (!link || this.#contexts.get(session) !== context) return;
    this.#contexts.delete(session);
    link.sessions.delete(session);
    this.#placed.delete(session);
    this.deps.onLost([session]);
  }

  #lost(link: EndpointLink, sessions: string[]): void {
    for (const session of sessions) {
      if (this.#placed.get(session) !== link) continue;
      this.#placed.delete(session);
      this.#contexts.delete(session);
    }
    this.deps.onLost(sessions);
  }

  get connected(): boolean {
    return this.links.some((link) => link.sessions.size > 0);
  }

  report(probe: boolean): Promise<EndpointReport[]> {
    return Promise.all(this.links.map((link) => link.report(probe)));
  }

  async close(): Promise<void> {
    for (const session of [...this.#placed.keys()]) this.release(session);
    await Promise.all(this.links.map((link) => link.close()));
  }
}
