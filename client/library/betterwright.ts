// The library API: one object per (home, profile), one daemon connection
// shared by every call, opened on first use.
import { resolveConfig, type FlagInput, type ResolvedConfig } from "../../shared/config.js";
import { BwError } from "../../shared/protocol/errors.js";
import type { Envelope } from "../../shared/protocol/envelope.js";
import { ArtifactsList, ArtifactsPrune, type ArtifactListing, type PruneResult } from "../../shared/protocol/methods/index.js";
import { PolicyCheck, RunAttach, SessionClose, SessionExec, SessionList, Shutdown, Status, type PolicyCheckResult, type PolicyOverrides, type SessionSummary, type StatusResult } from "../../shared/protocol/methods/index.js";
import { connectDaemon, recoveryNotice, type DaemonConnection } from "./daemon-client.js";
import { isProcessAlive } from "../../shared/process-alive.js";
import { connectInProcess, type InProcessConnection } from "./in-process.js";
import { applyPolicyOption, type PolicyOption } from "./policy-option.js";
import type { NetworkPolicy } from "../../shared/guard/policy/index.js";
import { vaultApi, type VaultApi } from "./vault-api.js";
import { checkOperation, type OperationArgs, type OperationName, type OperationResult } from "../../shared/protocol/operations/index.js";
import { SessionOp } from "../../shared/protocol/methods/index.js";
import { callRun } from "./run-call.js";
import { SessionCreate, type SessionCreateResult } from "../../shared/protocol/methods/index.js";
import type { SessionSettings } from "../../shared/session-settings.js";
import { stateApi, type StateApi } from "./state-api.js";

/** How a session is made: shared (the profile's context), or isolated with its own settings and a saved state to start from. */
export interface CreateSessionOptions {
  isolated?: boolean;
  settings?: SessionSettings;
  /** A saved state (bw.states) the isolated session starts from. */
  state?: string;
}

export interface BetterWrightOptions {
  profile?: string;
  home?: string;
  browser?: string;
  headless?: boolean;
  /** false: run the host in this process with a one-shot private browser instead of the profile's daemon. */
  daemon?: boolean;
  /** Defaults to process.env; pass {} to ignore the environment. */
  env?: NodeJS.ProcessEnv;
  /** The network policy (a NetworkPolicy or its options); part of the daemon's settings. */
  policy?: PolicyOption;
  /**
   * Told, in one line, what the client did that the caller did not ask for: starting a new daemon in place
   * of one that had died (killed) holding the profile. The CLI prints it on stderr.
   */
  onNotice?: (message: string) => void;
  /**
   * Drive betterwright serve's sessions (named by UUID) and load its saved states (`http-…`).
   * Without it those names are refused (INVALID_ARGUMENT), so that nothing but serve's HTTP API uses them by accident.
   */
  serveSessions?: boolean;
  /** Stealth mode: page evaluation in an isolated world, automation traces removed (docs/stealth.md); part of the daemon's settings. */
  stealth?: boolean;
}

export interface RunOptions {
  session?: string;
  /** JSON data the snippet sees as `args` (at most 1,000,000 characters as JSON). */
  args?: unknown;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Accept downloads the session's pages start during this run; without it every download is cancelled. */
  approveDownloads?: boolean;
  /** Create the session this way if this run is its first; an existing session must have been made this way (SESSION_EXISTS). */
  create?: CreateSessionOptions;
  /**
   * Count `timeoutMs` from when the run starts rather than from when the daemon accepts it (the default,
   * queue wait included): for a caller that sends runs ahead of time into one session, as `repl` does.
   */
  budgetFromStart?: boolean;
}

/** Where and how long a typed operation runs. */
export interface OpOptions {
  session?: string;
  timeoutMs?: number;
  /** How long a target that matches nothing, or that another element covers, is waited for (default: the config's elementWaitSeconds, 2 s). */
  elementWaitMs?: number;
  signal?: AbortSignal;
  /** Accept downloads the session's pages start during this operation; without it every download is cancelled. */
  approveDownloads?: boolean;
  /** Create the session this way if this operation is its first; an existing session must have been made this way (SESSION_EXISTS). */
  create?: CreateSessionOptions;
}

/** Which artifacts: this profile's (default), one session of it, or every profile's (`all`). */
export interface ArtifactScope {
  session?: string;
  all?: boolean;
}

export class BetterWright {
  private readonly config: ResolvedConfig;
  private readonly env: NodeJS.ProcessEnv;
  private connection: Promise<DaemonConnection> | undefined;
  /** A policy with a custom hook: it runs with the host in this process. */
  private localPolicy: NetworkPolicy | undefined;
  private onNotice: ((message: string) => void) | undefined;
  private serveSessions = false;

  constructor(options: BetterWrightOptions = {}) {
    this.env = options.env ?? process.env;
    const flags: FlagInput = {};
    if (options.home !== undefined) flags.home = options.home;
    if (options.profile !== undefined) flags.profile = options.profile;
    if (options.browser !== undefined) flags.browser = options.browser;
    if (options.headless === false) flags.headed = true;
    if (options.daemon === false) flags.noDaemon = true;
    if (options.stealth === true) flags.stealth = true;
    this.config = resolveConfig({ flags, env: this.env });
    this.onNotice = options.onNotice;
    this.serveSessions = options.serveSessions === true;
    if (options.policy !== undefined) this.localPolicy = applyPolicyOption(this.config, options.policy, options.daemon);
  }

  /** For front ends (the CLI) that have already resolved their configuration. */
  static fromConfig(config: ResolvedConfig, env: NodeJS.ProcessEnv, options: Pick<BetterWrightOptions, "serveSessions" | "onNotice"> = {}): BetterWright {
    const bw = new BetterWright({ env: {}, ...(options.onNotice ? { onNotice: options.onNotice } : {}) });
    Object.assign(bw, { config, env, serveSessions: options.serveSessions === true });
    return bw;
  }

  get profile(): string {
    return this.config.settings.profile;
  }

  /** `forBrowser`: this first call will need the browser (a daemon started now starts it at once). */
  private async connect(forBrowser = false): Promise<DaemonConnection> {
    const pending = this.connection;
    const live = await pending?.catch(() => undefined);
    // A daemon killed since the last call: its socket may not have said so yet (the processes it
    // leaves behind hold it a moment longer), and a run sent there would be lost with it.
    if (live && this.connection === pending && !isProcessAlive(live.daemon.pid)) {
      this.connection = undefined;
      live.peer.close();
    }
    if (!this.connection) {
      const pending: Promise<DaemonConnection> = this.config.settings.noDaemon
        ? connectInProcess(this.config, this.localPolicy, this.serveSessions)
        : connectDaemon(this.config, this.env, forBrowser, this.serveSessions);
      this.connection = pending;
      pending.then(
        (c) => {
          if (c.recovered) this.onNotice?.(recoveryNotice(c.layout.profile, c.recovered));
          c.peer.onClose(() => { if (this.connection === pending) this.connection = undefined; });
        },
        () => { if (this.connection === pending) this.connection = undefined; },
      );
    }
    return this.connection;
  }

  async run(code: string, options: RunOptions = {}): Promise<Envelope> {
    if (typeof code !== "string") throw new BwError("INVALID_ARGUMENT", "code must be a string");
    options.signal?.throwIfAborted();
    const { peer } = await this.connect(true);
    return callRun(peer, options.signal, (runId) => this.attach(runId), (runId) => peer.call(SessionExec, {
      session: options.session ?? this.config.settings.session,
      code,
      ...(options.args !== undefined ? { args: options.args } : {}),
      timeoutMs: options.timeoutMs ?? this.config.settings.timeoutMs,
      runId,
      ...(options.approveDownloads ? { approveDownloads: true } : {}),
      ...(options.create ? { create: options.create } : {}),
      ...(options.budgetFromStart ? { budgetFromStart: true } : {}),
    }));
  }

  /**
   * Runs one typed operation (see docs/operations.md) in a session: the same lane, budget, transcript and
   * envelope as a snippet, with the operation's result as `result`. Arguments are data, checked against the
   * operation table (INVALID_ARGUMENT names the one that is wrong).
   */
  async op<N extends OperationName>(name: N, args: OperationArgs<N> = {} as OperationArgs<N>, options: OpOptions = {}): Promise<Envelope<OperationResult<N>>> {
    options.signal?.throwIfAborted();
    // Checked here too, so that a bad call fails before a daemon (and a browser) is started for it.
    checkOperation(name, args);
    const { peer } = await this.connect(true);
    // The daemon answers with the table's result type for this operation (its handler's, which the worker's outcome check bounds).
    return callRun<Envelope<OperationResult<N>>>(peer, options.signal, (runId) => this.attach(runId), (runId) => peer.call(SessionOp, {
      session: options.session ?? this.config.settings.session,
      op: name,
      args: args as Record<string, unknown>,
      timeoutMs: options.timeoutMs ?? this.config.settings.timeoutMs,
      elementWaitMs: options.elementWaitMs ?? this.config.settings.elementWaitMs,
      runId,
      ...(options.approveDownloads ? { approveDownloads: true } : {}),
      ...(options.create ? { create: options.create } : {}),
    }));
  }

  /** The envelope of a run started earlier (kept 60 s after it finished). */
  async attach(runId: string): Promise<Envelope> {
    const { peer } = await this.connect();
    return peer.call(RunAttach, { runId });
  }

  /** The daemon's policy decision for a URL (and with `resolve`, for every address its host resolves to); never starts a browser. */
  async checkUrl(url: string, options: { resolve?: boolean; policy?: PolicyOverrides } = {}): Promise<PolicyCheckResult> {
    if (typeof url !== "string" || url.length === 0) throw new BwError("INVALID_ARGUMENT", "url must be a non-empty string");
    const { peer } = await this.connect();
    return peer.call(PolicyCheck, {
      url,
      ...(options.resolve === undefined ? {} : { resolve: options.resolve }),
      ...(options.policy === undefined ? {} : { policy: options.policy }),
    });
  }

  /** The owner's vault (list, add, update, remove, show, audit); never starts a browser. */
  get vault(): VaultApi {
    return vaultApi(async (decl, params) => (await this.connect()).peer.call(decl, params));
  }

  /** The artifact store: files with sizes, totals, caps in force (and a session's download history); never starts a browser. */
  async artifacts(scope: ArtifactScope = {}): Promise<ArtifactListing> {
    const { peer } = await this.connect();
    return peer.call(ArtifactsList, scope);
  }

  /** Removes artifacts in scope, except those a run in flight or a result of the last 60 s refers to. */
  async pruneArtifacts(scope: ArtifactScope = {}): Promise<PruneResult> {
    const { peer } = await this.connect();
    return peer.call(ArtifactsPrune, scope);
  }

  /**
   * Makes a session: isolated ones get their own browser context (cookies, storage, settings), started
   * now. The same call again is a no-op; with other settings it is SESSION_EXISTS.
   */
  async createSession(session: string, options: CreateSessionOptions = {}): Promise<SessionCreateResult> {
    const { peer } = await this.connect(options.isolated === true);
    return peer.call(SessionCreate, { session, ...options });
  }

  /** Saved browser states of this profile (save, list, remove). */
  get states(): StateApi {
    return stateApi(async (decl, params) => (await this.connect()).peer.call(decl, params));
  }

  async sessions(): Promise<SessionSummary[]> {
    const { peer } = await this.connect();
    return (await peer.call(SessionList, {})).sessions;
  }

  async status(): Promise<StatusResult> {
    const { peer } = await this.connect();
    return peer.call(Status, {});
  }

  async closeSession(session: string): Promise<boolean> {
    const { peer } = await this.connect();
    return (await peer.call(SessionClose, { session })).closed;
  }

  /** Disconnects; stops the daemon only when asked. */
  async close(options: { stopDaemon?: boolean } = {}): Promise<void> {
    const pending = this.connection;
    this.connection = undefined;
    if (!pending) return;
    const connection = await pending.catch(() => undefined);
    if (!connection) return;
    if ("stop" in connection) {
      await (connection as InProcessConnection).stop();
      return;
    }
    if (options.stopDaemon) await connection.peer.call(Shutdown, {}).catch(() => {});
    connection.peer.close();
  }
}
