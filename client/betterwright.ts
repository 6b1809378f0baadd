// The library API: one object per (home, profile), one daemon connection
// shared by every call, opened on first use.
import { resolveConfig, type FlagInput, type ResolvedConfig } from "../shared/config.js";
import { BwError } from "../shared/errors.js";
import type { Envelope } from "../shared/envelope.js";
import { SessionClose, SessionExec, SessionList, Shutdown, Status, type SessionSummary, type StatusResult } from "../shared/protocol/index.js";
import { connectDaemon, type DaemonConnection } from "./daemon-client.js";

export interface BetterWrightOptions {
  profile?: string;
  home?: string;
  browser?: string;
  headless?: boolean;
  /** Defaults to process.env; pass {} to ignore the environment. */
  env?: NodeJS.ProcessEnv;
}

export interface RunOptions {
  session?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export class BetterWright {
  private readonly config: ResolvedConfig;
  private readonly env: NodeJS.ProcessEnv;
  private connection: Promise<DaemonConnection> | undefined;

  constructor(options: BetterWrightOptions = {}) {
    this.env = options.env ?? process.env;
    const flags: FlagInput = {};
    if (options.home !== undefined) flags.home = options.home;
    if (options.profile !== undefined) flags.profile = options.profile;
    if (options.browser !== undefined) flags.browser = options.browser;
    if (options.headless === false) flags.headed = true;
    this.config = resolveConfig({ flags, env: this.env });
  }

  /** For front ends (the CLI) that have already resolved their configuration. */
  static fromConfig(config: ResolvedConfig, env: NodeJS.ProcessEnv): BetterWright {
    const bw = new BetterWright({ env: {} });
    Object.assign(bw, { config, env });
    return bw;
  }

  get profile(): string {
    return this.config.settings.profile;
  }

  private connect(): Promise<DaemonConnection> {
    if (!this.connection) {
      const pending = connectDaemon(this.config, this.env);
      this.connection = pending;
      pending.then(
        (c) => c.peer.onClose(() => { if (this.connection === pending) this.connection = undefined; }),
        () => { if (this.connection === pending) this.connection = undefined; },
      );
    }
    return this.connection;
  }

  async run(code: string, options: RunOptions = {}): Promise<Envelope> {
    if (typeof code !== "string") throw new BwError("INVALID_ARGUMENT", "code must be a string");
    options.signal?.throwIfAborted();
    const { peer } = await this.connect();
    return peer.call(SessionExec, {
      session: options.session ?? this.config.settings.session,
      code,
      timeoutMs: options.timeoutMs ?? this.config.settings.timeoutMs,
    });
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
    if (options.stopDaemon) await connection.peer.call(Shutdown, {}).catch(() => {});
    connection.peer.close();
  }
}
