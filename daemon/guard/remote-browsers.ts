// The daemon's side of remote browsers (docs/remote-browsers.md): it dials
// each endpoint for the worker (which has no network), fills the endpoint's
// headers from its own environment or the vault (the secrets join the
// redactor, so no output can carry them), and runs the remote guard: the HTTP
// proxy that is a remote browser's only way out, one set of credentials per
// session, every connection decided by the profile's policy.
import { connect as netConnect, type Socket } from "node:net";
import type { RemoteSettings } from "../../shared/remote-config.js";
import { endpointAddress, fillHeaders, splitHostPort } from "../../shared/remote-config.js";
import { BwError } from "../../shared/protocol/errors.js";
import type { RemoteLeaseResult, WorkerRemoteInit } from "../../shared/protocol/methods/index.js";
import type { ConnectOutcome, Refusal } from "../../shared/guard/proxy/proxy-connection.js";
import { RemoteGuard, type RemoteLease } from "./remote-guard.js";

const DIAL_TIMEOUT_MS = 15_000;

export interface RemoteBrowsersDeps {
  /** The profile's policy decides and dials (GuardService.connect). */
  connect: (host: string, port: number) => Promise<ConnectOutcome>;
  /** A vault entry's password, for `{vault:ID}` headers. */
  vaultSecret: (id: string) => Promise<string>;
  /** Every filled-in secret, so that no output, transcript or log line can carry it. */
  redact: (secret: string) => void;
  /** A refused connection of a session's remote context. */
  refused: (session: string, url: string, refusal: Refusal, reason: string) => void;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

export class RemoteBrowsers {
  #guard: Promise<RemoteGuard> | undefined;
  /** Each worker's leases are released when it exits. */
  readonly #owners = new WeakMap<object, number>();
  #nextOwner = 1;

  constructor(readonly settings: RemoteSettings, private readonly deps: RemoteBrowsersDeps) {}

  get enabled(): boolean {
    return this.settings.endpoints.length > 0;
  }

  /** What the worker is told: never the headers. */
  workerInit(): WorkerRemoteInit | undefined {
    if (!this.enabled) return undefined;
    return {
      endpoints: this.settings.endpoints.map((e, id) => ({ id, url: e.url, kind: e.kind, maxSessions: e.maxSessions })),
      trustRemoteEgress: this.settings.trustRemoteEgress,
    };
  }

  #endpoint(id: number) {
    const endpoint = this.settings.endpoints[id];
    if (!endpoint) throw new BwError("INVALID_ARGUMENT", `no browser endpoint ${id}`);
    return endpoint;
  }

  /** A TCP connection to the endpoint's host and port: configuration, not the page's choice, so the policy is not asked. */
  dial(id: number): Promise<Socket> {
    const { host, port } = endpointAddress(this.#endpoint(id).url);
    return new Promise((resolve, reject) => {
      const socket = netConnect({ host, port });
      // Handed to the worker: never read here (WorkerLink.sendSocket says why).
      socket.pause();
      const timer = setTimeout(() => socket.destroy(new Error(`connecting to ${host}:${port} timed out`)), DIAL_TIMEOUT_MS);
      socket.once("connect", () => {
        clearTimeout(timer);
        resolve(socket);
      });
      socket.once("error", (error) => {
        clearTimeout(timer);
        reject(new BwError("BROWSER_UNAVAILABLE", `remote browser ${this.#endpoint(id).url} cannot be reached: ${error.message}`));
      });
    });
  }

  async headers(id: number): Promise<Record<string, string>> {
    const endpoint = this.#endpoint(id);
    let filled: Record<string, string>;
    try {
      filled = await fillHeaders(endpoint.headers, this.deps.env, this.deps.vaultSecret);
    } catch (error) {
      throw new BwError("BROWSER_UNAVAILABLE", `remote browser ${endpoint.url}: ${(error as Error).message}`);
    }
    for (const [name, value] of Object.entries(filled)) if (value !== endpoint.headers[name]) this.deps.redact(value);
    return filled;
  }

  #remoteGuard(): Promise<RemoteGuard> {
    if (!this.#guard) {
      const { host, port } = splitHostPort(this.settings.guardListen);
      const starting = RemoteGuard.start({
        listen: { host, port },
        ...(this.settings.guardAdvertise ? { advertise: this.settings.guardAdvertise } : {}),
        connect: (target, targetPort) => this.deps.connect(target, targetPort),
        // As the local proxy's: only the policy's refusals are listed as blocked, not failed dials.
        onRefused: (lease: RemoteLease, url: string, refusal: Refusal, reason: string) => {
          if (refusal === "denied" || refusal === "dns") this.deps.refused(lease.session, url, refusal, reason);
        },
        log: this.deps.log,
      });
      this.#guard = starting;
      starting.then((guard) => this.deps.log(`remote guard proxy listening for remote browsers at ${guard.advertised}`), () => {
        if (this.#guard === starting) this.#guard = undefined;
      });
    }
    return this.#guard;
  }

  /** Credentials for one session's remote context, owned by the worker that asked (`worker`: its link). */
  async lease(session: string, worker: { whenExited(listener: () => void): void }): Promise<RemoteLeaseResult> {
    let owner = this.#owners.get(worker);
    const guard = await this.#remoteGuard().catch((error: Error) => {
      throw new BwError("BROWSER_UNAVAILABLE", `the remote guard cannot listen on ${this.settings.guardListen} (remoteGuardListen): ${error.message}`);
    });
    if (owner === undefined) {
      const made = this.#nextOwner++;
      owner = made;
      this.#owners.set(worker, made);
      worker.whenExited(() => guard.releaseOwner(made));
    }
    const { lease, credentials } = guard.lease(session, owner);
    return { leaseId: lease.id, ...credentials };
  }

  async release(leaseId: string): Promise<void> {
    (await this.#guard?.catch(() => undefined))?.release(leaseId);
  }

  async close(): Promise<void> {
    const guard = this.#guard;
    this.#guard = undefined;
    await guard?.then((g) => g.close(), () => {});
  }
}

