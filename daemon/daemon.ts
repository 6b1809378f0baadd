// The per-profile daemon: takes the profile lock, binds the socket (0600),
// writes its info file, serves clients, reaps idle sessions, and exits when
// it has had no session for a while. It never exits because of a bad request.
// Its services come built (compose.ts); each method file gets its narrow view.
import { rmSync } from "node:fs";
import { Duplex, PassThrough } from "node:stream";
import net from "node:net";
import type { DaemonSettings } from "../shared/config.js";
import { WorkerEndpoints, type EndpointReport } from "../shared/protocol/methods/index.js";
import type { ContainmentStatus } from "../shared/containment.js";
import { closeReasons, closingError, type CloseReason } from "../shared/protocol/close-reason.js";
import { BwError } from "../shared/protocol/errors.js";
import { describeFsError } from "../shared/fs-problem.js";
import type { HomeLayout } from "../shared/paths.js";
import type { DaemonIdentity, StatusResult } from "../shared/protocol/methods/index.js";
import { MethodRegistry, RpcPeer } from "../shared/protocol/rpc.js";
import { checkSocket, ensurePrivateDir, makePrivate, writeFileAtomic } from "../shared/secure-fs.js";
import { PACKAGE_VERSION, PROTOCOL_VERSION } from "../shared/version.js";
import type { ArtifactService } from "./artifacts/artifact-service.js";
import { assertContainment, describeContainment } from "./supervisor/containment.js";
import type { GuardService } from "./guard/guard-service.js";
import type { RemoteBrowsers } from "./guard/remote-browsers.js";
import type { Logger } from "./log.js";
import { registerArtifactMethods } from "./methods/artifact-methods.js";
import type { ClientConnection, RunHost } from "./methods/connection.js";
import { registerGuardMethods } from "./methods/guard-methods.js";
import { registerDaemonMethods } from "./methods/daemon-methods.js";
import { registerOpMethods } from "./methods/op-methods.js";
import { registerSessionMethods } from "./methods/session-methods.js";
import { registerStateMethods } from "./methods/state-methods.js";
import { registerVaultMethods } from "./methods/vault-methods.js";
import { acquireProfileLock, describeHolder, lockHolder, type HeldLock, type LockHolder } from "./profile-lock.js";
import type { ProfileFolders } from "./profile-folders.js";
import type { SessionRegistry } from "./sessions/sessions.js";
import type { StateStore } from "./states/state-store.js";
import type { VaultService } from "./vault/service.js";
import { prepareSocketDir, removeStaleSocket } from "./socket-path.js";
import type { WorkerSupervisor } from "./supervisor/supervisor.js";
import type { SpawnedWorker } from "./supervisor/spawn.js";

/** What the composition root (compose.ts) builds and hands the daemon. */
export interface DaemonServices {
  /** The vault shared by every profile's daemon, and the redactor every run's output and log line passes. */
  readonly vault: VaultService;
  /** The profile's NetworkPolicy: answers the worker's guard.check and clients' policy.check. */
  readonly guard: GuardService;
  /** The artifact quota service (shared store under artifacts/, cross-process lock). */
  readonly artifacts: ArtifactService;
  /** Saved browser states of this profile, sealed with the vault key. */
  readonly states: StateStore;
  /** Remote browser endpoints, and the guard proxy they go out through. */
  readonly remote: RemoteBrowsers;
  readonly worker: WorkerSupervisor;
  readonly sessions: SessionRegistry;
}

export interface DaemonOptions {
  layout: HomeLayout;
  settings: DaemonSettings;
  defaultTimeoutMs: number;
  /** false: the in-process host (`--no-daemon`, library `daemon: false`): no socket, no idle exit, an ephemeral profile when the profile is locked. */
  serving: boolean;
  /** Whether the worker can be contained, asked by the entry point. */
  containment: ContainmentStatus;
  now: () => number;
  log: Logger;
  folders: ProfileFolders;
}

/** Time allowed for draining in-flight runs at shutdown; the entry point enforces a hard deadline past it. */
export const DRAIN_DEADLINE_MS = 7_000;
const REAPER_INTERVAL_MS = 1_000;

export class Daemon {
  readonly log: Logger;
  private readonly layout: HomeLayout;
  private readonly sessions: SessionRegistry;
  private readonly worker: WorkerSupervisor;
  private readonly now: () => number;
  private readonly startedAt: number;
  private server: net.Server | undefined;
  private lock: HeldLock | undefined;
  /** The holder of the profile that died holding it (killed), when this daemon took its lock over. */
  recoveredFrom: LockHolder | undefined;
  private readonly peers = new Set<RpcPeer<ClientConnection>>();
  private reaper: NodeJS.Timeout | undefined;
  private readonly serving: boolean;
  private emptySince: number;
  private stopping: Promise<void> | undefined;
  /** Set when a stop begins: what new work is refused with, and what the sessions still open are closed with. */
  private stopReason: CloseReason | undefined;
  private readonly stopListeners: ((reason: string) => void)[] = [];
  private readonly stoppingListeners: ((reason: string) => void)[] = [];

  constructor(private readonly options: DaemonOptions, private readonly services: DaemonServices) {
    this.now = options.now;
    this.startedAt = this.now();
    this.emptySince = this.startedAt;
    this.layout = options.layout;
    this.serving = options.serving;
    this.log = options.log;
    this.sessions = services.sessions;
    this.worker = services.worker;
  }

  /** Resolves true when this daemon serves, false when another daemon already holds the profile. */
  async start(): Promise<boolean> {
    this.log.write(describeContainment(this.options.containment));
    assertContainment(this.options.containment, this.options.settings.requireContainment === true);
    ensurePrivateDir(this.layout.profileDir, this.layout.home);
    this.lock = await acquireProfileLock(this.layout.profileDir, this.layout.profileLockPath, (error) => {
      this.log.write(`profile lock compromised: ${error.message}; shutting down`);
      this.requestStop("profile lock compromised");
    }, this.serving ? "daemon" : "in-process");
    this.recoveredFrom = this.lock?.tookOverFrom;
    if (this.lock) this.sessions.claimProfile(this.layout.profileLockPath, this.recoveredFrom, (line) => this.log.write(line));
    if (!this.serving) {
      if (!this.lock) {
        const ephemeral = this.options.folders.useEphemeral();
        this.log.write(`profile ${this.layout.profile} is locked by another process; using the ephemeral profile ${ephemeral}`);
      }
      this.reaper = setInterval(() => this.reap(), REAPER_INTERVAL_MS);
      this.reaper.unref();
      return true;
    }
    if (!this.lock) return this.notServing();
    try {
      prepareSocketDir(this.layout.socketPath, this.layout.home);
      removeStaleSocket(this.layout.socketPath);
    } catch (error) {
      await this.lock.release();
      throw error;
    }
    this.server = net.createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(this.layout.socketPath, () => resolve());
    });
    this.server.on("error", (error) => this.log.write(`server error: ${error.message}`));
    try {
      makePrivate(this.layout.socketPath);
      // What clients will check before they send anything.
      checkSocket(this.layout.socketPath);
      writeFileAtomic(this.layout.infoPath, `${JSON.stringify(this.infoFile(), null, 2)}\n`);
    } catch (error) {
      // Half started (a full or read-only disk): leave no socket a client would take for a live daemon.
      this.server.close();
      rmSync(this.layout.socketPath, { force: true });
      await this.lock.release().catch(() => {});
      if (error instanceof BwError) throw error;
      throw new BwError("DAEMON_UNAVAILABLE", `the daemon cannot start: ${describeFsError(error, "write", this.layout.infoPath)}`);
    }
    this.reaper = setInterval(() => this.reap(), REAPER_INTERVAL_MS);
    this.log.write(`serving profile ${this.layout.profile} on ${this.layout.socketPath}`);
    return true;
  }

  private notServing(): false {
    this.log.write(`not serving: the profile lock is held by ${describeHolder(lockHolder(this.layout.profileLockPath))}, which serves`);
    return false;
  }

  private registry(): MethodRegistry<ClientConnection> {
    const registry = new MethodRegistry<ClientConnection>().beforeEach((method, connection) => {
      if (!connection.greeted && method !== "daemon.hello") {
        throw new BwError("INVALID_ARGUMENT", "every connection starts with daemon.hello");
      }
    });
    const runs: RunHost = {
      sessions: this.sessions,
      layout: this.layout,
      defaultTimeoutMs: this.options.defaultTimeoutMs,
      assertAccepting: () => this.assertAccepting(),
    };
    registerDaemonMethods(registry, {
      identity: () => this.identity(),
      idle: () => this.sessions.size === 0 && !this.sessions.busy,
      status: (probeEndpoints) => this.status(probeEndpoints),
      requestStop: (reason) => this.requestStop(reason),
    });
    registerSessionMethods(registry, runs);
    registerOpMethods(registry, runs);
    registerVaultMethods(registry, this.services);
    registerStateMethods(registry, { ...runs, states: this.services.states });
    registerGuardMethods(registry, this.services);
    registerArtifactMethods(registry, this.services);
    return registry;
  }

  private cachedRegistry: MethodRegistry<ClientConnection> | undefined;

  /** A connection without a socket, for the in-process host: the same registry, validation and errors. */
  connectInMemory(): Duplex {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    this.accept(Duplex.from({ readable: toServer, writable: toClient }));
    return Duplex.from({ readable: toClient, writable: toServer });
  }

  private accept(socket: Duplex): void {
    this.cachedRegistry ??= this.registry();
    const peer = new RpcPeer<ClientConnection>(socket, {
      registry: this.cachedRegistry,
      context: { greeted: false },
      log: (line) => this.log.write(line),
    });
    this.peers.add(peer);
    peer.onClose(() => this.peers.delete(peer));
  }

  private infoFile() {
    const id = this.identity();
    return { pid: id.pid, version: id.version, protocol: id.protocol, socket: id.socket, profile: id.profile, startedAt: id.startedAt, settings: id.settings };
  }

  identity(): DaemonIdentity {
    return {
      pid: process.pid,
      version: PACKAGE_VERSION,
      protocol: PROTOCOL_VERSION,
      profile: this.layout.profile,
      home: this.layout.home,
      socket: this.layout.socketPath,
      startedAt: new Date(this.startedAt).toISOString(),
      settings: this.options.settings,
    };
  }

  /** `probeEndpoints`: connect each remote endpoint (if the worker runs) and time a round trip. */
  async status(probeEndpoints = false): Promise<StatusResult> {
    const endpoints = this.services.remote.enabled ? await this.endpoints(probeEndpoints) : undefined;
    return {
      ...this.identity(),
      uptimeMs: this.now() - this.startedAt,
      sessions: this.sessions.list(),
      browser: { running: this.worker.current() !== undefined },
      guard: this.services.guard.counts,
      containment: this.options.containment,
      ...(endpoints ? { endpoints } : {}),
    };
  }

  /** The remote endpoints as the worker holds them; with none running, as configured. */
  private async endpoints(probe: boolean): Promise<EndpointReport[]> {
    const worker = probe ? await this.worker.ensure().catch(() => undefined) : this.worker.current();
    const reported = await worker?.call(WorkerEndpoints, { probe }, probe ? 60_000 : 5_000).catch(() => undefined);
    if (reported) return reported.endpoints;
    return this.services.remote.settings.endpoints.map((e) => ({ url: e.url, kind: e.kind, state: "idle" as const, sessions: 0, maxSessions: e.maxSessions, guarded: e.kind === "playwright" }));
  }

  /**
   * Starts the worker (and its browser) ahead of the first exec, when the client that spawned us is about to send one.
   * `early`: its process, started by the entry point before the lock (only call this while holding it).
   */
  prestartWorker(early?: SpawnedWorker): void {
    this.worker.ensure(early).catch((error: Error) => this.log.write(`worker prestart failed: ${error.message}`));
  }

  assertAccepting(): void {
    if (this.stopReason) throw closingError(this.stopReason);
  }

  private reap(): void {
    this.sessions.pruneRuns();
    const ttlMs = this.options.settings.sessionTtlSeconds * 1000;
    for (const name of this.sessions.idleSince(ttlMs)) {
      this.log.write(`closing session ${name}: idle for ${this.options.settings.sessionTtlSeconds} s`);
      void this.sessions.close(name, closeReasons.idle(name, this.options.settings.sessionTtlSeconds));
    }
    if (this.sessions.size > 0 || this.sessions.busy || !this.serving) {
      this.emptySince = this.now();
    } else if (this.now() - this.emptySince >= this.options.settings.daemonIdleSeconds * 1000) {
      this.requestStop(`no session for ${this.options.settings.daemonIdleSeconds} s`);
    }
  }

  /** Called once the daemon has stopped (socket, info file and lock gone). */
  onStop(listener: (reason: string) => void): void {
    this.stopListeners.push(listener);
  }

  /** Called when a stop begins, whatever asked for it. */
  onStopping(listener: (reason: string) => void): void {
    this.stoppingListeners.push(listener);
  }

  /** Begin a graceful stop (idempotent); the reply to the current request still goes out first. */
  requestStop(reason: string): Promise<void> {
    if (!this.stopping) {
      const closing = closeReasons.daemonStopping(reason);
      this.stopReason = closing;
      for (const listener of this.stoppingListeners) listener(reason);
      this.stopping = new Promise((resolve) => setImmediate(resolve)).then(() => this.stop(reason, closing));
    }
    return this.stopping;
  }

  private async stop(reason: string, closing: CloseReason): Promise<void> {
    this.log.write(`stopping: ${reason}`);
    clearInterval(this.reaper);
    this.server?.close();
    const drainUntil = this.now() + DRAIN_DEADLINE_MS;
    while (this.sessions.busy && this.now() < drainUntil) await new Promise((r) => setTimeout(r, 50));
    // What the drain left, in flight or queued, ends saying why.
    await this.sessions.closeAll(closing);
    await this.worker.shutdown(Math.max(1000, drainUntil - this.now()));
    await this.services.remote.close();
    for (const peer of this.peers) peer.close();
    if (this.serving) {
      rmSync(this.layout.socketPath, { force: true });
      rmSync(this.layout.infoPath, { force: true });
    }
    this.options.folders.removeEphemeral();
    if (!this.serving) rmSync(this.log.file, { force: true });
    await this.sessions.stopCleanly();
    await this.lock?.release();
    this.log.write("stopped");
    this.log.close();
    for (const listener of this.stopListeners) listener(reason);
  }
}
