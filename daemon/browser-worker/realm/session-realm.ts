// A session's realm over its life: started with the session's first snippet,
// told the active page, replaced after it was lost (the next run says so once,
// with STATE_RESET), and retired when idle, its `state` carried as plain data
// to the next one (daemon/browser-worker/realm/in-context/context-state.ts) when it holds nothing else.
// The session (daemon/browser-worker/session.ts) owns runs and pages; this owns the thread.
import type { Warning } from "../../../shared/protocol/envelope.js";
import { Realm, type RealmHost, type RealmLoss } from "./realm.js";
import type { RealmThreads } from "./realm-threads.js";

export type { RealmThreads };
import type { LaneLimits } from "../../../shared/config-limits.js";

/** How long a realm has to confirm the end of its run before it is taken for stuck and stopped. */
export const REALM_END_GRACE_MS = 1500;
/** A realm's heap limit: a snippet past it ends its own realm with LIMIT_EXCEEDED. */
export const REALM_HEAP_MB = 1024;
/**
 * A realm idle this long, with nothing of the snippets' left in it but plain-data `state`, is retired (its thread
 * costs ~9 MiB). Longer than the pauses of a session in use (an agent's turn takes seconds), which would otherwise
 * start a thread per call (50-80 ms of CPU: thirty sessions pausing 4 s between bursts ran at a tenth of their
 * throughput with 3 s here); short enough that sessions left alone give their threads back soon.
 */
export const REALM_IDLE_MS = 10_000;
/** The most `state` a retired realm leaves behind, as characters of its text; a realm holding more stays. */
export const STATE_CARRY_MAX_CHARS = 4_000_000;

export interface SessionRealmOptions {
  session: string;
  scope: { async: string[]; sync: string[] };
  consoleCap: number;
  limits: LaneLimits;
}

export interface SessionRealmHost extends RealmHost {
  /** The session's active page, or null when it has none. */
  activePage(): string | null;
}

export class SessionRealm {
  private realm: Realm | undefined;
  /** Why the last realm was lost, until the next run's envelope says so. */
  private lostBecause: RealmLoss | undefined;
  /** The active page the realm was last told (undefined: not told yet). */
  private told: string | null | undefined;
  private retireTimer: NodeJS.Timeout | undefined;
  /** The `state` the last retired realm left, until the next realm takes it. */
  private carried: string | undefined;
  private closed = false;

  constructor(
    private readonly options: SessionRealmOptions,
    private readonly host: SessionRealmHost,
    /** The worker's realm threads: its spare, taken by a new realm and started again as one retires; the turns of other starts. */
    private readonly threads: RealmThreads,
  ) {}

  /** The realm, started anew when there is none (its thread starts while the session's page is made). */
  live(): Realm {
    clearTimeout(this.retireTimer);
    if (this.realm?.alive) return this.realm;
    const spare = this.threads.take();
    const realm: Realm = new Realm({ ...this.options, heapMb: REALM_HEAP_MB, ...(spare ? { spare } : { startInTurn: (start: () => void) => this.threads.startInTurn(start) }) }, {
      ...this.host,
      // The realm answers `page` from the active page it was told: tell it before the reply of a call that moved it.
      async: (m) => this.host.async(m).finally(() => this.pushActive()),
      lost: (reason) => {
        if (this.realm === realm) this.realm = undefined;
        if (this.closed) return;
        this.lostBecause = reason;
        this.host.lost(reason);
      },
    });
    this.realm = realm;
    this.told = undefined;
    if (this.carried !== undefined) realm.importState(this.carried);
    this.carried = undefined;
    return realm;
  }

  /** The STATE_RESET warning a run carries once after its session's realm was replaced. */
  takeStateReset(): Warning | undefined {
    const why = this.lostBecause;
    if (why === undefined) return undefined;
    this.lostBecause = undefined;
    return {
      code: "STATE_RESET",
      message: why === "heap"
        ? "the session's previous run ran out of memory: its realm was replaced, and `state` starts empty"
        : "the session's previous run held its realm past its end: the realm was replaced, and `state` starts empty",
    };
  }

  /** `argsJson`: the snippet's `args` as JSON text, parsed inside its context. */
  run(token: string, code: string, filename: string, argsJson?: string): void {
    const realm = this.live();
    this.told = this.host.activePage();
    realm.run(token, code, filename, this.told, argsJson);
  }

  /** Tells the realm the active page when it moved since it was last told. */
  pushActive(): void {
    const active = this.host.activePage();
    if (active === this.told || !this.realm?.alive) return;
    this.told = active;
    this.realm.setActive(active);
  }

  /** Hands a page event to the realm; false when there is none to take it. */
  emit(token: string, event: Record<string, unknown>): boolean {
    if (!this.realm?.alive) return false;
    this.realm.emit(token, event);
    return true;
  }

  /** Ends the run in the realm (unless it ended there already, having reported done); false when the realm had to go. */
  end(token: string, endedInRealm: boolean): Promise<boolean> {
    if (endedInRealm) return Promise.resolve(true);
    return this.realm ? this.realm.end(token, REALM_END_GRACE_MS) : Promise.resolve(false);
  }

  /**
   * After a run: an idle realm whose global holds nothing of the snippets'
   * and whose `state` is plain data is retired; the next snippet starts a new
   * one with that `state` rebuilt, losing nothing. One that holds anything
   * else stays as long as it does.
   */
  retireWhenIdle(idle: () => boolean): void {
    const realm = this.realm;
    if (!realm?.alive || this.closed) return;
    clearTimeout(this.retireTimer);
    this.retireTimer = setTimeout(() => {
      if (!idle() || this.realm !== realm) return;
      void realm.exportState(STATE_CARRY_MAX_CHARS, REALM_END_GRACE_MS).then((exported) => {
        if (!exported.carry || !idle() || this.realm !== realm) return;
        realm.close();
        this.realm = undefined;
        this.carried = exported.state;
        this.threads.prepare();
      });
    }, REALM_IDLE_MS);
    this.retireTimer.unref();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retireTimer);
    this.realm?.close();
    this.realm = undefined;
    this.carried = undefined;
  }
}
