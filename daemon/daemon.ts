// The per-profile daemon: takes the profile lock, binds the socket (0600),
// writes its info file, serves clients, reaps idle sessions, and exits when
// it has had no session for a while. It never exits because of a bad request.
import { mkdtempSync, rmSync } from "node:fs";
import { Duplex, PassThrough } from "node:stream";
import net from "node:net";
import path from "node:path";
import { ARTIFACT_DEFAULTS, LIMIT_DEFAULTS, STATE_DEFAULTS, type DaemonSettings } from "../shared/config.js";
import { laneLimitsOf } from "../shared/config-limits.js";
import { WorkerEndpoints, WorkerRemoteRefused, type EndpointReport } from "../shared/protocol/methods/index.js";
import { REMOTE_DEFAULTS, remoteUsesTls } from "../shared/remote-config.js";
import { probeContainment, type ContainmentStatus } from "../shared/containment.js";
import { BwError } from "../shared/protocol/errors.js";
import { describeFsError } from "../shared/fs-problem.js";
import { layoutFor, type HomeLayout } from "../shared/paths.js";
import type { DaemonIdentity, StatusResult } from "../shared/protocol/methods/index.js";
import { MethodRegistry, RpcPeer } from "../shared/protocol/rpc.js";
import { prepareHome } from "../shared/home-check.js";
import { checkSocket, ensurePrivateDir, makePrivate, writeFileAtomic } from "../shared/secure-fs.js";
import { PACKAGE_VERSION, PROTOCOL_VERSION } from "../shared/version.js";
import { ArtifactService } from "./artifacts/artifact-service.js";
import { assertContainment, describeContainment, planFor, withContainmentWarning } from "./supervisor/containment.js";
import type { NetworkPolicy } from "../shared/guard/policy/index.js";
import { GuardService } from "./guard/guard-service.js";
import { RemoteBrowsers } from "./guard/remote-browsers.js";
import { Logger } from "./log.js";
import { registerArtifactMethods } from "./methods/artifact-methods.js";
import { registerGuardMethods } from "./methods/guard-methods.js";
import { registerDaemonMethods } from "./methods/daemon-methods.js";
import { registerOpMethods } from "./methods/op-methods.js";
import { registerSessionMethods } from "./methods/session-methods.js";
import { registerStateMethods } from "./methods/state-methods.js";
import { registerVaultMethods } from "./methods/vault-methods.js";
import { registerWorkerMethods } from "./methods/worker-methods.js";
import { acquireProfileLock, describeHolder, lockHolder, type HeldLock, type LockHolder } from "./profile-lock.js";
import { SessionRecords } from "./sessions/session-records.js";
import { SessionContexts } from "./sessions/session-contexts.js";
import { SessionRegistry } from "./sessions/sessions.js";
import { StateStore } from "./states/state-store.js";
import { VaultService } from "./vault/service.js";
import { prepareSocketDir, removeStaleSocket } from "./socket-path.js";
import { WorkerSupervisor } from "./supervisor/supervisor.js";
import { spawnWorker, type SpawnedWorker } from "./supervisor/spawn.js";
import type { WorkerLink } from "./supervisor/process.js";

export interface ConnectionContext {
  greeted: boolean;
  /** Said at hello: this connection may use betterwright serve's session and state names. */
  serveNames?: boolean;
}

export interface DaemonOptions {
  home: string;
  profile: string;
  settings: DaemonSettings;
  defaultTimeoutMs: number;
  now?: () => number;
  /**
   * false: the in-process host (`--no-daemon`, library `daemon: false`): no
   * socket, no idle exit, and an ephemeral profile under browser/runtime/
   * when the profile is locked by a running daemon.
   */
  serve?: boolean;
  /** A policy with a custom hook, which only the in-process host can run; otherwise built from settings.policy. */
  policy?: NetworkPolicy;
  /** Whether the worker can be contained, when the entry point already asked (to start the early worker); else start() asks. */
  containment?: Promise<ContainmentStatus>;
}

/** Time allowed for draining in-flight runs at shutdown; the entry point enforces a hard deadline past it. */
export const DRAIN_DEADLINE_MS = 7_000;
const REAPER_INTERVAL_MS = 1_000;

export class Daemon {
  readonly layout: HomeLayout;
  readonly sessions: SessionRegistry;
  readonly log: Logger;
  /** The profile's NetworkPolicy: answers the worker's guard.check and clients' policy.check. */
  readonly guard: GuardService;
  /** The artifact quota service (shared store under artifacts/, cross-process lock). */
  readonly artifacts: ArtifactService;
  /** The vault shared by every profile's daemon, and the redactor every run's output and log line passes. */
  readonly vault: VaultService;
  /** Saved browser states of this profile, sealed with the vault key. */
  readonly states: StateStore;
  /** Remote browser endpoints, and the guard proxy they go out through. */
  readonly remote: RemoteBrowsers;
  readonly defaultTimeoutMs: number;
  private readonly worker: WorkerSupervisor;
  private readonly now: () => number;
  private readonly startedAt: number;
  private server: net.Server | undefined;
  private lock: HeldLock | undefined;
  /** The holder of the profile that died holding it (killed), when this daemon took its lock over. */
  recoveredFrom: LockHolder | undefined;
  private readonly peers = new Set<RpcPeer<ConnectionContext>>();
  private reaper: NodeJS.Timeout | undefined;
  private readonly serving: boolean;
  private ephemeralDir: string | undefined;
  /** Known once start() has asked; until then no worker is started. */
  private containmentStatus: ContainmentStatus | undefined;
  private emptySince: number;
  private stopping: Promise<void> | undefined;
  private stopReason: string | undefined;
  private readonly stopListeners: ((reason: string) => void)[] = [];
  private readonly stoppingListeners: ((reason: string) => void)[] = [];

  constructor(private readonly options: DaemonOptions) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.emptySince = this.startedAt;
    this.defaultTimeoutMs = options.defaultTimeoutMs;
    this.layout = layoutFor(options.home, options.profile);
    // Another user's home, or one others can write, could hand our socket, logs and files to them.
    prepareHome(this.layout);
    this.serving = options.serve !== false;
    this.log = new Logger(this.serving ? this.layout.logPath : path.join(this.layout.home, `inprocess-${process.pid}.log`));
    this.vault = new VaultService({ home: this.layout.home, now: this.now });
    this.log.setRedaction(this.vault.filterLogLine);
    this.guard = new GuardService(options.policy ?? options.settings.policy, { log: (line) => this.log.write(line) });
    this.artifacts = new ArtifactService({
      artifactsRoot: this.layout.artifactsRoot,
      profile: this.layout.profile,
      caps: options.settings.artifacts ?? ARTIFACT_DEFAULTS,
      log: (line) => this.log.write(line),
      now: this.now,
    });
    this.remote = new RemoteBrowsers(options.settings.remote ?? REMOTE_DEFAULTS, {
      connect: (host, port) => this.guard.connect(host, port),
      vaultSecret: async (id) => (await this.vault.show(id)).password,
      redact: (secret) => this.vault.redactor.add(secret),
      // The session's runs in flight list it as blocked, as they do the local proxy's refusals.
      refused: (session, url, refusal, reason) => {
        void this.worker.current()?.call(WorkerRemoteRefused, { session, url, reason, ...(refusal === "dns" ? { unresolved: true } : {}) }).catch(() => {});
      },
      env: process.env,
      log: (line) => this.log.write(line),
    });
    const remoteInit = this.remote.workerInit();
    this.worker = new WorkerSupervisor(
      () => ({
        browser: options.settings.browser,
        headless: options.settings.headless,
        ...(options.settings.stealth ? { stealth: true } : {}),
        ...this.workerDirs(),
        routeRequests: this.guard.settings.custom === true,
        limits: laneLimitsOf({ ...LIMIT_DEFAULTS, ...options.settings.limits }),
        ...(remoteInit ? { remote: remoteInit } : {}),
      }),
      (link) => this.workerRegistry(link),
      (line) => this.log.write(line),
      () => spawnWorker(planFor(this.layout, this.workerDirs(), { explicit: options.settings.browser, headless: options.settings.headless, stealth: options.settings.stealth === true }, this.containment, process.env, remoteUsesTls(options.settings.remote))),
    );
    const stateCaps = options.settings.states ?? STATE_DEFAULTS;
    this.states = new StateStore({ home: this.layout.home, profile: this.layout.profile, caps: stateCaps });
    this.sessions = new SessionRegistry({
      layout: this.layout,
      worker: this.worker,
      now: this.now,
      finishEnvelope: (envelope, outcome) => this.artifacts.finishEnvelope(withContainmentWarning(envelope, this.containmentStatus), outcome),
      filterOutput: this.vault.filterOutput,
      limits: options.settings.limits ?? LIMIT_DEFAULTS,
      contexts: new SessionContexts(this.states, stateCaps, (line) => this.log.write(line)),
      records: new SessionRecords((line) => this.log.write(line)),
    });
  }

  /** The Chromium profile in use: the profile's own, or an ephemeral one when it was locked. */
  get profileDir(): string {
    return this.ephemeralDir ? path.join(this.ephemeralDir, "profile") : this.layout.profileDir;
  }

  /** The worker's folders: the profile's own, or an ephemeral profile's when it was locked. */
  private workerDirs() {
    return {
      profileDir: this.profileDir,
      browserEnvDir: this.ephemeralDir ? path.join(this.ephemeralDir, "env") : this.layout.browserEnvDir,
      artifactsDir: path.join(this.layout.artifactsRoot, this.layout.profile),
    };
  }

  /** Whether the worker runs contained (known once start() has asked). */
  get containment(): ContainmentStatus {
    if (!this.containmentStatus) throw new BwError("INTERNAL_ERROR", "containment was not decided before the worker was needed");
    return this.containmentStatus;
  }

  /** Resolves true when this daemon serves, false when another daemon already holds the profile. */
  async start(): Promise<boolean> {
    this.containmentStatus = await (this.options.containment ?? probeContainment({ env: process.env }));
    this.log.write(describeContainment(this.containmentStatus));
    assertContainment(this.containmentStatus, this.options.settings.requireContainment === true);
    ensurePrivateDir(this.layout.profileDir, this.layout.home);
    this.lock = await acquireProfileLock(this.layout.profileDir, this.layout.profileLockPath, (error) => {
      this.log.write(`profile lock compromised: ${error.message}; shutting down`);
      this.requestStop("profile lock compromised");
    }, this.serving ? "daemon" : "in-process");
    this.recoveredFrom = this.lock?.tookOverFrom;
    if (this.lock) this.sessions.claimProfile(this.layout.profileLockPath, this.recoveredFrom, (line) => this.log.write(line));
    if (!this.serving) {
      if (!this.lock) {
        ensurePrivateDir(this.layout.runtimeDir, this.layout.home);
        this.ephemeralDir = mkdtempSync(path.join(this.layout.runtimeDir, `${this.layout.profile}-`));
        this.log.write(`profile ${this.layout.profile} is locked by another process; using the ephemeral profile ${this.ephemeralDir}`);
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

  private registry(): MethodRegistry<ConnectionContext> {
    const registry = new MethodRegistry<ConnectionContext>().beforeEach((method, connection) => {
      if (!connection.greeted && method !== "daemon.hello") {
        throw new BwError("INVALID_ARGUMENT", "every connection starts with daemon.hello");
      }
    });
    registerDaemonMethods(registry, this);
    registerSessionMethods(registry, this);
    registerOpMethods(registry, this);
    registerVaultMethods(registry, this);
    registerStateMethods(registry, this);
    registerGuardMethods(registry, this);
    registerArtifactMethods(registry, this);
    return registry;
  }

  private workerRegistry(link: WorkerLink): MethodRegistry<void> {
    const registry = new MethodRegistry<void>();
    registerWorkerMethods(registry, this, link);
    return registry;
  }

  private cachedRegistry: MethodRegistry<ConnectionContext> | undefined;

  /** A connection without a socket, for the in-process host: the same registry, validation and errors. */
  connectInMemory(): Duplex {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    this.accept(Duplex.from({ readable: toServer, writable: toClient }));
    return Duplex.from({ readable: toClient, writable: toServer });
  }

  private accept(socket: Duplex): void {
    this.cachedRegistry ??= this.registry();
    const peer = new RpcPeer<ConnectionContext>(socket, {
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
    const endpoints = this.remote.enabled ? await this.endpoints(probeEndpoints) : undefined;
    return {
      ...this.identity(),
      uptimeMs: this.now() - this.startedAt,
      sessions: this.sessions.list(),
      browser: { running: this.worker.current() !== undefined },
      guard: this.guard.counts,
      ...(this.containmentStatus ? { containment: this.containmentStatus } : {}),
      ...(endpoints ? { endpoints } : {}),
    };
  }

  /** The remote endpoints as the worker holds them; with none running, as configured. */
  private async endpoints(probe: boolean): Promise<EndpointReport[]> {
    const worker = probe ? await this.worker.ensure().catch(() => undefined) : this.worker.current();
    const reported = await worker?.call(WorkerEndpoints, { probe }, probe ? 60_000 : 5_000).catch(() => undefined);
    if (reported) return reported.endpoints;
    return this.remote.settings.endpoints.map((e) => ({ url: e.url, kind: e.kind, state: "idle" as const, sessions: 0, maxSessions: e.maxSessions, guarded: e.kind === "playwright" }));
  }

  /**
   * Starts the worker (and its browser) ahead of the first exec, when the client that spawned us is about to send one.
   * `early`: its process, started by the entry point before the lock (only call this while holding it).
   */
  prestartWorker(early?: SpawnedWorker): void {
    this.worker.ensure(early).catch((error: Error) => this.log.write(`worker prestart failed: ${error.message}`));
  }

  workerBlocked(session: string | null, blockedMs: number): void {
    this.worker.blocked(session, blockedMs);
  }

  assertAccepting(): void {
    if (this.stopping) throw new BwError("SESSION_CLOSING", `the daemon is shutting down (${this.stopReason})`);
  }

  private reap(): void {
    this.sessions.pruneRuns();
    const ttlMs = this.options.settings.sessionTtlSeconds * 1000;
    for (const name of this.sessions.idleSince(ttlMs)) {
      this.log.write(`closing session ${name}: idle for ${this.options.settings.sessionTtlSeconds} s`);
      void this.sessions.close(name);
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
      this.stopReason = reason;
      for (const listener of this.stoppingListeners) listener(reason);
      this.stopping = new Promise((resolve) => setImmediate(resolve)).then(() => this.stop(reason));
    }
    return this.stopping;
  }

  private async stop(reason: string): Promise<void> {
    this.log.write(`stopping: ${reason}`);
    clearInterval(this.reaper);
    this.server?.close();
    const drainUntil = this.now() + DRAIN_DEADLINE_MS;
    while (this.sessions.busy && this.now() < drainUntil) await new Promise((r) => setTimeout(r, 50));
    await this.worker.shutdown(Math.max(1000, drainUntil - this.now()));
    await this.remote.close();
    for (const peer of this.peers) peer.close();
    if (this.serving) {
      rmSync(this.layout.socketPath, { force: true });
      rmSync(this.layout.infoPath, { force: true });
    }
    if (this.ephemeralDir) rmSync(this.ephemeralDir, { recursive: true, force: true });
    if (!this.serving) rmSync(this.log.file, { force: true });
    await this.sessions.stopCleanly();
    await this.lock?.release();
    this.log.write("stopped");
    this.log.close();
    for (const listener of this.stopListeners) listener(reason);
  }
}
