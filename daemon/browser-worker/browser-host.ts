// The browser side of the worker: one persistent context on the profile
// directory, launched on first use, and the sessions that share it; an
// isolated session has a context of its own in the same browser, wired the
// same way. When the browser goes away, every session with pages learns it on
// its next call.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { findBrowser, INSTALL_HINT } from "../../shared/browser-discovery.js";
import { headedDisplayProblem, HEADED_FIX } from "../../shared/display.js";
import { closeReasons, type CloseReason } from "../../shared/protocol/close-reason.js";
import { BwError } from "../../shared/protocol/errors.js";
import { browserEnvironment } from "../../shared/child-env.js";
import type { WorkerOutcome } from "../../shared/protocol/envelope.js";
import type { EndpointReport, WorkerInit, WorkerSavedState } from "../../shared/protocol/methods/index.js";
import type { SessionSettings } from "../../shared/session-settings.js";
import { parseStorageState, storageStateBytes, type StorageState } from "../../shared/storage-state.js";
import type { BrowserGuard } from "./guard/browser-guard.js";
import type { GuardRefusal } from "./guard/route-layer.js";
import { IsolatedContext, type ContextWiring } from "./isolated-context.js";
import type { ScopeFunction } from "./facades/scope-functions.js";
import type { WorkerArtifacts } from "./snippet-services/artifacts.js";
import { loadPlaywright } from "./playwright.js";
import { WorkerSession } from "./session.js";
import { Lanes } from "./lanes.js";
import { REALM_HEAP_MB } from "./realm/session-realm.js";
import { realmThreads } from "./realm/realm-threads.js";
import { chromiumArgs } from "./chromium-args.js";
import { IsolatedEvaluator } from "./stealth/isolated-eval.js";
import { chromiumMajor, stealthArgs } from "./stealth/stealth-launch.js";
import type { SessionRun } from "./ops/op-context.js";
import type { RemotePool } from "./remote/remote-pool.js";
import { ShownTitles } from "./shown-titles.js";

/** How long a new page may go without an owner before it is taken for an orphan (see watchOwner). */
export const ORPHAN_GRACE_MS = 2_000;

export interface BrowserHostOptions {
  init: WorkerInit;
  /** The worker's environment, which Chromium gets an allowlist of (and the display from, when headed). */
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  scopeFunctions: readonly ScopeFunction[];
  onEnter: (session: string) => void;
  /** The network guard. */
  guard: BrowserGuard;
  /** The artifact store's worker side: downloads path, download approval per run, file arguments. */
  artifacts: WorkerArtifacts;
  /** Remote browsers: every session is an isolated context on one of them, and nothing is launched here; undefined: none. */
  remote: RemotePool | undefined;
}

export class BrowserHost {
  private contextPromise: Promise<BrowserContext> | undefined;
  private readonly sessions = new Map<string, WorkerSession>();
  /** The contexts of isolated sessions, by session. */
  private readonly isolated = new Map<string, IsolatedContext>();
  /** Sessions whose pages were lost since their last call. */
  private readonly resetSessions = new Set<string>();
  /** Sessions that opened pages on the current browser (page `close` events empty their registries before the context's). */
  private readonly sessionsOnBrowser = new Set<string>();
  /** The blank page the current browser opened at launch, until a session takes it. */
  private spare: Page | undefined;
  /** context.newPage() calls in flight: their pages have no owner yet. */
  private opening = 0;
  /** Every session's page calls take their turn here, within the caps the daemon set. */
  private readonly lanes: Lanes;
  private readonly shownTitles = new ShownTitles();
  /** The sessions' realm threads: one spare started ahead of need, the others started one per turn. */
  private readonly realmThreads = realmThreads(REALM_HEAP_MB);
  /** Stealth mode: every session's evaluations in an isolated world. */
  private readonly isolatedEval: IsolatedEvaluator | undefined;

  private readonly init: WorkerInit;
  private readonly env: NodeJS.ProcessEnv;
  private readonly log: (line: string) => void;
  private readonly scopeFunctions: readonly ScopeFunction[];
  private readonly onEnter: (session: string) => void;
  private readonly guard: BrowserGuard;
  private readonly artifacts: WorkerArtifacts;
  private readonly remote: RemotePool | undefined;

  /** Guard and artifact store are required: a browser host without them would run unguarded, fail open. */
  constructor(options: BrowserHostOptions) {
    this.init = options.init;
    this.env = options.env;
    this.log = options.log;
    this.scopeFunctions = options.scopeFunctions;
    this.onEnter = options.onEnter;
    this.guard = options.guard;
    this.artifacts = options.artifacts;
    this.remote = options.remote;
    this.lanes = new Lanes(options.init.limits);
    this.isolatedEval = options.init.stealth ? new IsolatedEvaluator() : undefined;
  }

  /** A session's contexts on its remote browser, wired as every context is. */
  private remoteWiring(name: string): ContextWiring {
    return this.remote!.wiring(name, (context) => this.wire(context, false, true));
  }

  /** The endpoint went away with these sessions' contexts: their next run is told, and placed again. */
  remoteLost(sessions: string[]): void {
    for (const name of sessions) {
      this.isolated.get(name)?.dropped();
      const session = this.sessions.get(name);
      if (!session) continue;
      session.dropPages();
      this.resetSessions.add(name);
    }
  }

  /** A connection of a remote context that the daemon's guard refused: that session's runs list it. */
  noteRemoteRefused(name: string, entry: GuardRefusal): void {
    this.sessions.get(name)?.noteBlocked(entry, undefined);
  }

  private async launch(): Promise<BrowserContext> {
    const stealth = this.init.stealth === true;
    const { found, problem } = findBrowser({ explicit: this.init.browser, headless: this.init.headless, preferFull: stealth });
    if (!found) throw new BwError("BROWSER_UNAVAILABLE", `${problem}; install one with: ${INSTALL_HINT}`);
    const noDisplay = this.init.headless ? undefined : headedDisplayProblem(this.env, process.platform);
    if (noDisplay) throw new BwError("BROWSER_UNAVAILABLE", `${noDisplay}; ${HEADED_FIX}`);
    const home = path.join(this.init.browserEnvDir, "home");
    const tmp = path.join(this.init.browserEnvDir, "tmp");
    for (const dir of [this.init.profileDir, home, tmp]) mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { chromium } = loadPlaywright();
    this.log(`launching ${found.path} (${found.source})`);
    let context: BrowserContext;
    try {
      context = await chromium.launchPersistentContext(this.init.profileDir, {
        executablePath: found.path,
        headless: this.init.headless,
        args: [...chromiumArgs(found.headlessShell), ...(stealth ? stealthArgs(chromiumMajor(found.path), process.platform) : [])],
        // An allowlist (shared/child-env.ts): Chromium gets no Node settings, and the display only when headed.
        env: browserEnvironment(this.env, { headed: !this.init.headless, own: { HOME: home, TMPDIR: tmp, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_CACHE_HOME: path.join(home, ".cache") } }),
        timeout: 60_000,
        ...(await this.guard.launchOptions()),
        ...this.artifacts.launchOptions(),
      });
    } catch (error) {
      throw new BwError("BROWSER_UNAVAILABLE", `Chromium at ${found.path} did not start: ${(error as Error).message.split("\n")[0]}`);
    }
    await this.wire(context, true);
    // The persistent context opens a blank page of its own: the first page a session opens takes it
    // (one page creation less on the first call); anything else is closed.
    const [first, ...others] = context.pages();
    for (const page of others) await page.close().catch(() => {});
    this.spare = first;
    context.on("close", () => this.onBrowserGone());
    return context;
  }

  /** What every context gets, the persistent one at launch and each isolated one: the routing layer, downloads, the orphan watch. */
  private async wire(context: BrowserContext, persistent: boolean, remote = false): Promise<void> {
    // Fail closed: a context whose routing layer could not be installed is not used.
    await this.guard.attach(context, (entry, page) => this.noteBlocked(entry, page), remote || undefined).catch(async (error: Error) => {
      await context.close().catch(() => {});
      throw new BwError("BROWSER_UNAVAILABLE", `the network guard could not be installed: ${error.message}`);
    });
    const ownerOf = (page: Page) => this.ownerOf(page);
    if (persistent) this.artifacts.attach(context, ownerOf);
    else this.artifacts.watch(context, ownerOf, remote);
    context.on("page", (page) => this.watchOwner(page));
  }

  /** How isolated contexts are made: in the profile's browser, behind the same guard proxy (stated, not inherited). */
  private readonly wiring: ContextWiring = {
    browser: async () => {
      const browser = (await this.context()).browser();
      if (!browser) throw new BwError("BROWSER_UNAVAILABLE", "the profile's browser cannot make a second context");
      return browser;
    },
    options: async () => (await this.guard.contextOptions()) ?? {},
    attach: (context) => this.wire(context, false),
  };

  /** A page being made has no owner until it is returned: the orphan watch waits for it. */
  private async counted(make: () => Promise<Page>): Promise<Page> {
    this.opening++;
    try {
      return await make();
    } finally {
      this.opening--;
    }
  }

  /** A new page for a session: the launch's blank page if still unused, else a fresh one. */
  private async newPage(): Promise<Page> {
    const context = await this.context();
    const spare = this.spare;
    this.spare = undefined;
    if (spare && !spare.isClosed() && spare.url() === "about:blank") return spare;
    if (spare && !spare.isClosed()) await spare.close().catch(() => {});
    return this.counted(() => context.newPage());
  }

  /**
   * Every page belongs to a session. One that still has no owner a while after
   * it appeared (a popup whose opener closed before it was reported, one opened
   * as its session closed) is closed: it would run on unseen until the browser
   * stops. Pages a session is still opening are waited for.
   */
  private watchOwner(page: Page): void {
    const check = () => {
      if (page.isClosed() || page === this.spare || this.ownerOf(page) !== undefined) return;
      if (this.opening > 0) {
        setTimeout(check, ORPHAN_GRACE_MS).unref();
        return;
      }
      this.log(`closing a page no session owns: ${page.url().slice(0, 200)}`);
      void page.close().catch(() => {});
    };
    setTimeout(check, ORPHAN_GRACE_MS).unref();
  }

  private ownerOf(page: Page): string | undefined {
    for (const [name, session] of this.sessions) if (session.ownsPage(page)) return name;
    return undefined;
  }

  private noteBlocked(entry: GuardRefusal, page: Page | undefined): void {
    for (const session of this.sessions.values()) session.noteBlocked(entry, page);
  }

  private onBrowserGone(): void {
    this.log("browser closed");
    this.contextPromise = undefined;
    this.spare = undefined;
    for (const isolated of this.isolated.values()) isolated.dropped();
    for (const [name, session] of this.sessions) {
      if (session.dropPages() || this.sessionsOnBrowser.has(name)) this.resetSessions.add(name);
    }
    this.sessionsOnBrowser.clear();
  }

  context(): Promise<BrowserContext> {
    if (!this.contextPromise) {
      const launching = this.launch();
      this.contextPromise = launching;
      launching.catch(() => {
        if (this.contextPromise === launching) this.contextPromise = undefined;
      });
    }
    return this.contextPromise;
  }

  /** The session by that name, made (shared, or with `open` making its pages) if it does not exist. */
  session(name: string, open: () => Promise<Page> = this.remote ? this.remoteOpener(name) : () => this.newPage()): WorkerSession {
    let session = this.sessions.get(name);
    if (!session) {
      const artifacts = this.artifacts;
      session = new WorkerSession({
        name,
        newPage: () => {
          this.sessionsOnBrowser.add(name);
          return open();
        },
        scopeFunctions: this.scopeFunctions,
        onEnter: this.onEnter,
        fileArgs: (target, method, args) => artifacts.checkFileArgs(name, target, method, args),
        downloadHistory: () => artifacts.downloadHistory(name),
        lanes: this.lanes,
        shownTitles: this.shownTitles,
        now: Date.now,
        isolated: this.isolatedEval,
        realmThreads: this.realmThreads,
      });
      this.sessions.set(name, session);
    }
    return session;
  }

  /** On remote browsers a session made by its first run is isolated too, with default settings. */
  private remoteOpener(name: string): () => Promise<Page> {
    return () => {
      let isolated = this.isolated.get(name);
      if (!isolated) {
        isolated = new IsolatedContext(name, {}, this.remoteWiring(name));
        this.isolated.set(name, isolated);
      }
      const context = isolated;
      return this.counted(() => context.newPage());
    };
  }

  /**
   * An isolated session with its own context (replacing any session of that name), made now so that a
   * setting Chromium refuses or a state it cannot apply fails here. `state`: base64 of a storage state's JSON.
   */
  async createSession(name: string, settings: SessionSettings, state?: string): Promise<void> {
    await this.closeSession(name, closeReasons.replaced(name));
    const seed = state === undefined ? undefined : parseStorageState(Buffer.from(state, "base64"), "INVALID_ARGUMENT", "the saved state");
    const isolated = new IsolatedContext(name, settings, this.remote ? this.remoteWiring(name) : this.wiring, seed);
    this.isolated.set(name, isolated);
    try {
      await isolated.open();
    } catch (error) {
      if (this.isolated.get(name) === isolated) this.isolated.delete(name);
      await isolated.close(closeReasons.notMade(name));
      throw error;
    }
    this.session(name, () => this.counted(() => isolated.newPage()));
  }

  /** A session's cookies, local storage and IndexedDB (a shared session's are the profile's), for the daemon to encrypt. */
  async saveState(name: string, maxBytes: number): Promise<WorkerSavedState> {
    const isolated = this.isolated.get(name);
    if (!isolated && this.remote) throw new BwError("SESSION_NOT_FOUND", `session ${name} has no context yet: run something in it first`);
    const state = isolated
      ? await isolated.storageState()
      : ((await (await this.context()).storageState({ indexedDB: true })) as unknown as StorageState);
    const bytes = storageStateBytes(state, maxBytes);
    const saved = { state: bytes.toString("base64"), cookies: state.cookies.length, origins: state.origins.length };
    bytes.fill(0);
    return saved;
  }

  /** An isolated session's storage if it changed since the last autosave (see IsolatedContext.autosave). */
  autosaveState(name: string, maxBytes: number): Promise<WorkerSavedState | { unchanged: true }> {
    return this.isolated.get(name)?.autosave(maxBytes) ?? Promise.resolve({ unchanged: true });
  }

  /** A snippet, or a typed operation ready to start. */
  async exec(name: string, run: SessionRun, budgetMs: number, runId: string, approveDownloads = false): Promise<WorkerOutcome> {
    this.artifacts.beginRun(name, runId, approveDownloads, budgetMs);
    const outcome = await this.session(name).exec(run, budgetMs, runId);
    await this.artifacts.finishRun(name, runId, outcome, run.kind === "operation");
    if (this.resetSessions.delete(name)) {
      outcome.warnings.push({ code: "SESSION_RESET", message: this.remote
        ? "the remote browser this session lived on went away since its last call; its pages, cookies and storage were lost"
        : "the browser restarted since this session's last call; its pages were lost" });
    }
    const placed = this.remote?.placementOf(name);
    if (placed) {
      outcome.placement = placed.url;
      if (!placed.guarded) outcome.warnings.push({ code: "GUARD_NOT_ENFORCED", message: `this session runs on ${placed.url}, a CDP endpoint whose egress the guard does not hold (trustRemoteEgress)` });
    }
    return outcome;
  }

  cancel(name: string, runId: string): boolean {
    return this.sessions.get(name)?.cancel(runId) ?? false;
  }

  /** `reason`: what every run the close ends, and every later call of the session, fails with. */
  async closeSession(name: string, reason: CloseReason): Promise<boolean> {
    const session = this.sessions.get(name);
    const isolated = this.isolated.get(name);
    this.sessions.delete(name);
    this.isolated.delete(name);
    // Released first: a remote context closed by us is not a lost one.
    this.remote?.release(name);
    await session?.close(reason);
    // An isolated session's cookies and storage go with its context.
    await isolated?.close(reason);
    return session !== undefined;
  }

  get running(): boolean {
    return this.contextPromise !== undefined || (this.remote?.connected ?? false);
  }

  /** The remote endpoints' states (none without remote browsers). */
  endpoints(probe: boolean): Promise<EndpointReport[]> {
    return this.remote?.report(probe) ?? Promise.resolve([]);
  }

  /** Where the session lives, on remote browsers. */
  placementOf(name: string): string | undefined {
    return this.remote?.placementOf(name)?.url;
  }

  async shutdown(): Promise<void> {
    for (const name of [...this.sessions.keys()]) await this.closeSession(name, closeReasons.workerStopping(name));
    this.realmThreads.close();
    const pending = this.contextPromise;
    this.contextPromise = undefined;
    if (pending) await pending.then((c) => c.close()).catch(() => {});
    await this.remote?.close();
    await this.guard.close();
    rmSync(path.join(this.init.browserEnvDir, "tmp"), { recursive: true, force: true });
  }
}
