// A session inside the worker: its pages (one active), its snippet context
// and the run in flight. A run is cut off at its deadline: from then on every
// facade call it makes throws, and its timers and event handlers never fire.
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { closeReasons, closingError, type CloseReason } from "../../shared/protocol/close-reason.js";
import { BwError, toBwError } from "../../shared/protocol/errors.js";
import { DEFAULT_ELEMENT_WAIT_MS } from "../../shared/protocol/operations/index.js";
import type { ArtifactInfo, ConsoleEntry, DownloadOutcome, PageInfo, Warning, WorkerOutcome } from "../../shared/protocol/envelope.js";
import { BlockedCollector } from "./guard/blocked-collector.js";
import type { GuardRefusal } from "./guard/route-layer.js";
import { FacadeDispatch } from "./facades/facade-dispatch.js";
import type { IsolatedEvaluator } from "./stealth/isolated-eval.js";
import type { FileArgumentCheck } from "./snippet-services/artifact-paths.js";
import { PageRegistry } from "./page-registry.js";
import { TitleReuse } from "./page-titles.js";
import { boundResult } from "./result-bound.js";
import { realmLossError, runFailure } from "./run-failure.js";
import type { Run, RunOutcome } from "./run.js";
import { EventBridge } from "./page-events.js";
import { decodeArgs } from "./facades/args.js";
import type { RealmLoss } from "./realm/realm.js";
import type { HostRequest } from "./realm/realm-messages.js";
import { SessionRealm, type RealmThreads } from "./realm/session-realm.js";
import { scopeNames, type RunHandle, type ScopeFunction } from "./facades/scope-functions.js";
import { snapshotFunction } from "./facades/snapshot-function.js";
import type { OpStart, SessionRun } from "./ops/op-context.js";
import { startOperation } from "./ops/registry.js";
import { SessionPageState } from "./ops/page-state.js";
import { snippetSnapshot } from "./ops/snippet-snapshot.js";
import { BrowserLosses } from "./browser-losses.js";
import { RunAftermath } from "./run-aftermath.js";
import type { ShownTitles } from "./shown-titles.js";
import { loneCall, runLoneCall, type LoneCall } from "./facades/lone-call.js";
import { budgetRanOut, describeCall, reportMarginMs } from "./run-waits.js";
import type { Lanes } from "./lanes.js";
import { globPattern } from "./url-waits.js";
import { openPage } from "./open-page.js";
import { MAX_CONSOLE_ENTRIES, pushConsole } from "./run-console.js";

export { MAX_PAGES_PER_SESSION } from "./page-registry.js";
export { MAX_CONSOLE_ENTRIES, MAX_CONSOLE_TEXT } from "./run-console.js";
/** How long a timed-out run may take to settle before the next run of its session starts anyway. */
const SETTLE_GRACE_MS = 2000;

export interface WorkerSessionOptions {
  name: string;
  /** A new page on the browser (launching it if need be). */
  newPage: () => Promise<Page>;
  /** The snippet's service globals beyond `snapshot()`. */
  scopeFunctions: readonly ScopeFunction[];
  /** Told whenever this session's snippet code is about to get control (the watchdog's marker). */
  onEnter: (session: string) => void;
  /** The artifact store's check of file arguments (setInputFiles and the like). */
  fileArgs: FileArgumentCheck;
  /** This session's downloads, for the operations that report them. */
  downloadHistory: () => DownloadOutcome[];
  /** The worker's lanes, shared by every session: this one's calls take their turn there. */
  lanes: Lanes;
  /** The worker's witness of pages' titles, shared so that envelopes built together ask the browser once. */
  shownTitles: ShownTitles;
  now: () => number;
  /** Stealth mode: the snippet's evaluations in an isolated world (docs/stealth.md); undefined when off. */
  isolated: IsolatedEvaluator | undefined;
  /** The worker's realm threads: a spare for the next realm, and starts taken one per turn. */
  realmThreads: RealmThreads;
}

export class WorkerSession {
  private readonly pages: PageRegistry;
  private readonly dispatch: FacadeDispatch;
  private readonly events: EventBridge;
  private readonly titles: TitleReuse;
  private run: Run | undefined;
  /** The run in flight when it is one the realm runs: only such a run keeps the realm from retiring, or restarts its idle time. */
  private realmRun: Run | undefined;
  private readonly aftermath = new RunAftermath();
  private readonly realm: SessionRealm;
  /** Why the session was closed, once it was: what every run the close ends fails with. */
  private closedBy: CloseReason | undefined;
  /** Browser losses (dropPages), so a run can tell that its browser died under it. */
  private readonly losses = new BrowserLosses();

  private readonly scopeFunctions = new Map<string, ScopeFunction>();
  /** What typed operations keep per page across runs: snapshots and refs, observation buffers. */
  private readonly pageState: SessionPageState;

  readonly name: string;
  private readonly now: () => number;

  constructor(private readonly options: WorkerSessionOptions) {
    const { name, newPage, scopeFunctions, lanes, now, isolated } = options;
    this.name = name;
    this.now = now;
    this.pageState = new SessionPageState(now);
    // snapshot() answers as the `snapshot` operation when given its options (interactive, diff, cursor, target).
    const allFunctions = [snippetSnapshot(snapshotFunction(), () => ({ pages: this.pages, state: this.pageState })), ...scopeFunctions];
    for (const fn of allFunctions) this.scopeFunctions.set(fn.name, fn);
    this.titles = new TitleReuse(now);
    this.pages = new PageRegistry(name, newPage, (id, page) => this.onNewPage(id, page), (message) => {
      // Told in the envelope of the run in flight; between runs nobody asked for the popup.
      if (this.run && !this.run.over) this.run.warnings.push({ code: "LIMIT_EXCEEDED", message });
    }, options.shownTitles);
    this.dispatch = new FacadeDispatch(this.pages, options.fileArgs, isolated);
    this.events = new EventBridge((token, event) => this.realm.emit(token, event), undefined, (pageId, dialog) => this.pageState.claimDialog(pageId, dialog));
    this.realm = new SessionRealm({ session: name, scope: scopeNames([...this.scopeFunctions.values()]), consoleCap: MAX_CONSOLE_ENTRIES, limits: lanes.limits }, {
      sync: (m) => { this.options.onEnter(this.name); return this.handleSync(m); },
      async: (m) => { this.options.onEnter(this.name); return this.handleAsync(m); },
      note: (m) => { this.handleSync(m); },
      console: (token, type, text) => {
        if (this.run?.token === token && !this.run.over) pushConsole(this.run, { type, text, source: "snippet" });
      },
      limit: (token, message) => { if (this.run?.token === token) this.run.limits.add(message); },
      done: (token, outcome) => { if (this.run?.token === token) this.run.done(outcome); },
      lost: (reason) => this.realmLost(reason),
      activePage: () => this.pages.activeOrNull(),
    }, options.realmThreads);
  }

  /** A realm died or was stopped: its run ends with why; the next run says `state` was reset. */
  private realmLost(reason: RealmLoss): void {
    if (this.run && !this.run.over) this.run.done({ ok: false, error: realmLossError(reason) });
  }

  /** Runs a snippet, or a typed operation (trusted code, no realm), in the same lane and budget. */
  async exec(request: SessionRun, budgetMs: number, runId: string): Promise<WorkerOutcome> {
    // A typed operation's browser calls do not pass through the run's title check: no earlier read stands after one,
    // but a read-only operation's own read of a title (it tells it on the way) stands after it.
    const operation = request.kind === "operation";
    if (operation) this.titles.changed();
    const outcome = await this.execInner(request, budgetMs, runId);
    if (operation && !request.start.readsOnly) this.titles.changed();
    outcome.pages = await this.pageInfosWithTitles();
    return boundResult(outcome);
  }

  private async execInner(request: SessionRun, budgetMs: number, runId: string): Promise<WorkerOutcome> {
    const deadline = this.now() + budgetMs;
    await this.aftermath.wait(deadline, this.now);
    const consoleEntries: ConsoleEntry[] = [];
    const artifacts: ArtifactInfo[] = [];
    const warnings: Warning[] = [];
    const blocked = new BlockedCollector();
    const finish = (outcome: Partial<WorkerOutcome> & { ok: boolean }): WorkerOutcome => ({
      console: consoleEntries, pages: this.pageInfos(), artifacts, warnings, ...blocked.outcome(), ...outcome,
    });
    if (this.now() >= deadline) {
      return finish({ ok: false, error: new BwError("SNIPPET_TIMEOUT", "the budget ran out while the previous run of this session settled").toJSON() });
    }
    // Closed while this run waited: it never starts (a realm made now would outlive the session).
    if (this.closed) return finish({ ok: false, error: this.closingError().toJSON() });
    // A snippet that is one page call runs as that call, with no realm; for any other a new realm's thread starts here, while the session's first page is made.
    const lone = request.kind === "snippet" ? loneCall(request.code) : undefined;
    const usesRealm = request.kind === "snippet" && lone === undefined;
    if (usesRealm) this.realm.live();
    const reset = this.realm.takeStateReset();
    if (reset) warnings.push(reset);
    try {
      await this.pages.ensure();
    } catch (error) {
      return finish({ ok: false, error: toBwError(error, "BROWSER_UNAVAILABLE").toJSON() });
    }

    let resolveDone!: Run["done"];
    const done = new Promise<RunOutcome>((resolve) => (resolveDone = resolve));
    let resolveStop!: Run["stop"];
    const stopped = new Promise<"cancelled" | "closing">((resolve) => (resolveStop = resolve));
    const lossMark = this.losses.mark();
    const limits = new Set<string>();
    const run: Run = { token: randomUUID(), runId, deadline, waitUntil: deadline - reportMarginMs(budgetMs), over: false, console: consoleEntries, artifacts, warnings, inflight: new Map(), done: resolveDone, stop: resolveStop, blocked, limits };
    if (this.closed) return finish({ ok: false, error: this.closingError().toJSON() });
    this.run = run;
    if (usesRealm) this.realmRun = run;
    this.events.startRun(run.token);
    this.aftermath.set(done);
    if (lone) this.startLoneCall(run, lone);
    else if (request.kind === "snippet") this.realm.run(run.token, request.code, `snippet-${this.name}.js`, request.args === undefined ? undefined : JSON.stringify(request.args));
    else this.startOp(run, request.start);

    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), Math.max(0, deadline - this.now()))));
    const outcome = await Promise.race([done, timedOut, stopped]);
    clearTimeout(timer);
    const waiting = [...run.inflight.values()];
    // A run that reported done has ended in its realm already; any other is ended there now.
    const ended = this.endRun(run, outcome !== "timeout" && outcome !== "cancelled");
    // One-call snippets and operations leave the realm alone: its idle time runs on through them.
    if (usesRealm) void ended.then(() => this.realm.retireWhenIdle(() => this.realmRun === undefined && !this.closed));
    if (outcome === "timeout" || outcome === "cancelled") {
      // The next run waits for the realm to confirm (or be replaced) and for the browser calls this one started.
      const calls = Promise.allSettled([...run.inflight.keys()]).then(() => undefined);
      const browser = Promise.race([done.then(() => undefined), calls, new Promise<void>((r) => setTimeout(r, SETTLE_GRACE_MS))]);
      this.aftermath.set(Promise.all([ended, browser]));
    }
    if (outcome === "cancelled") {
      return finish({ ok: false, error: new BwError("CANCELLED", "the run was cancelled").toJSON() });
    }
    if (outcome === "closing") return finish({ ok: false, error: this.closingError().toJSON() });
    if (outcome === "timeout") {
      return finish({ ok: false, error: new BwError("SNIPPET_TIMEOUT", budgetRanOut(budgetMs, request.kind, waiting)).toJSON() });
    }
    if (outcome.ok) {
      const value = outcome.value as { __bwUndefined?: boolean } | undefined;
      return finish(value && typeof value === "object" && value.__bwUndefined === true ? { ok: true } : { ok: true, result: outcome.value });
    }
    const error = await runFailure(outcome.error ?? { name: "Error", message: "unknown error" }, {
      blocked, limits: run.limits, fromOperation: request.kind === "operation", budget: { ms: budgetMs, spent: this.now() >= run.waitUntil - 50 }, browserLost: (waitMs) => this.losses.since(lossMark, waitMs),
    });
    return finish({ ok: false, error });
  }

  /** Cancels the run in flight if it is `runId`. */
  cancel(runId: string): boolean {
    if (!this.run || this.run.runId !== runId || this.run.over) return false;
    this.run.stop("cancelled");
    return true;
  }

  /** The run is over here at once; resolves when its realm confirmed, or was replaced for holding on. */
  private endRun(run: Run, endedInRealm = false): Promise<boolean> {
    run.over = true;
    if (this.realmRun === run) this.realmRun = undefined;
    if (this.run === run) {
      this.run = undefined;
      this.events.endRun();
    }
    return this.realm.end(run.token, endedInRealm);
  }

  private get closed(): boolean { return this.closedBy !== undefined; }

  private closingError(): BwError {
    return closingError(this.closedBy ?? closeReasons.workerStopping(this.name));
  }

  private liveRun(token: unknown): Run {
    const run = this.run;
    if (this.closed) throw this.closingError();
    if (!run || run.token !== token || run.over) throw new BwError("SNIPPET_TIMEOUT", "this run is over: its budget ran out or it finished");
    return run;
  }

  private remaining(run: Run): number {
    // Playwright's waits end before the run does, so that their message (what they waited for) is the failure.
    return Math.max(1, run.waitUntil - this.now());
  }

  private handleSync(m: HostRequest): unknown {
    const run = this.liveRun(m.token);
    switch (m.ask) {
      case "activePage":
        return this.pages.active();
      case "pages":
        return this.pages.infos();
      case "usePage":
        return this.pages.use(m.pageId);
      case "frames":
        return this.dispatch.frames(m);
      case "urlPattern":
        return globPattern(m.glob);
      case "listen":
        return this.events.listen(run.token, m.pageId, m.event, m.on);
      case "scope":
        return this.callScope(run, m, "sync");
      case "callSync":
        return this.dispatch.callSync(m);
      default:
        throw new BwError("INVALID_ARGUMENT", `${m.ask} is not answered here`);
    }
  }

  private handleAsync(m: HostRequest): Promise<unknown> {
    const run = this.liveRun(m.token);
    const action = () => this.dispatchAsync(run, m);
    // The run's own page.title() may spare the envelope a second read; anything else may change a title.
    const titled = () => (m.ask === "call" && m.target === "page" && m.method === "title" ? this.titles.read(m.pageId, action) : this.titles.act(action));
    // In the session's lane: capped, and in its turn beside other sessions' calls; a call whose run ended while it waited never starts.
    const guarded = this.options.lanes.submit(this.name, { message: m, run: () => { this.liveRun(m.token); return titled(); } });
    // A cut-off run has settled once the browser calls it started have returned.
    const call = guarded.catch((error: unknown) => {
      if (error instanceof BwError && error.code === "LIMIT_EXCEEDED") run.limits.add(error.message);
      throw error;
    });
    run.inflight.set(call, describeCall(m));
    void call.catch(() => {}).finally(() => run.inflight.delete(call));
    return call;
  }

  private async dispatchAsync(run: Run, m: HostRequest): Promise<unknown> {
    switch (m.ask) {
      case "call": {
        const result = await this.dispatch.call(m, this.remaining(run), (action) => run.blocked.guardCall(action));
        this.liveRun(m.token);
        return result;
      }
      case "urlWait":
        return this.dispatch.urlWait(m, this.remaining(run));
      case "scope":
        return this.callScope(run, m, "async");
      case "openPage":
        return openPage(this.pages, m.url, (action) => run.blocked.guardCall(action), () => this.remaining(run));
      case "closePage": {
        const id = m.pageId ?? this.pages.active();
        await this.pages.get(id).close();
        return null;
      }
      case "dialog":
        return this.events.dialogAction(run.token, m.dialogId, m.action, m.promptText);
      default:
        throw new BwError("INVALID_ARGUMENT", `${m.ask} is not answered here`);
    }
  }

  private callScope(run: Run, m: Extract<HostRequest, { ask: "scope" }>, kind: "sync" | "async"): unknown {
    const fn = this.scopeFunctions.get(m.name);
    if (!fn || fn.kind !== kind) throw new BwError("INVALID_ARGUMENT", `${m.name} is not available to snippets`);
    return fn.call(this.runContext(run), decodeArgs(m.args));
  }

  /** The call a lone-call snippet is, made as its realm would have made it; its outcome is the run's. */
  private startLoneCall(run: Run, lone: LoneCall): void {
    this.options.onEnter(this.name);
    void runLoneCall(lone, () => this.pages.active(), run.token, (m) => this.handleAsync(m)).then(run.done);
  }

  /** An operation runs on this thread like a snippet's browser calls: tracked, cut off at the deadline, ending the run. */
  private startOp(run: Run, start: OpStart): void {
    startOperation(run, start, {
      run: this.runContext(run), pages: this.pages, state: this.pageState, guard: (action) => run.blocked.guardCall(action),
      scope: (name) => this.scopeFunctions.get(name), fileArgs: this.options.fileArgs, downloadHistory: this.options.downloadHistory, elementWaitMs: DEFAULT_ELEMENT_WAIT_MS,
      readTitle: (pageId, read, titleOf) => this.titles.read(pageId, read, titleOf),
    });
  }

  private runContext(run: Run): RunHandle {
    return {
      session: this.name,
      runId: run.runId,
      activePage: () => this.pages.get(this.pages.active()),
      remainingMs: () => this.remaining(run),
      addArtifact: (artifact) => { run.artifacts.push(artifact); },
      addWarning: (warning) => { run.warnings.push(warning); },
      assertLive: () => { this.liveRun(run.token); },
    };
  }

  /** Every page of the session, as it opens: console capture and the events snippets may handle. */
  private onNewPage(pageId: string, page: Page): void {
    this.pageState.attach(pageId, page);
    page.on("console", (msg) => {
      if (this.run) pushConsole(this.run, { type: msg.type(), text: msg.text(), source: "page" });
      this.events.onConsole(pageId, msg);
    });
    page.on("pageerror", (error) => this.events.onPageError(pageId, error));
    page.on("dialog", (dialog) => { this.titles.changed(); this.events.onDialog(pageId, dialog); });
    // A navigation may change the title with no call of the run behind it (redirects, the page's own scripts).
    const changed = () => this.titles.changed();
    page.on("framenavigated", changed).on("domcontentloaded", changed).on("load", changed).on("close", changed);
    page.on("close", () => this.realm.pushActive());
  }

  pageInfos(): PageInfo[] {
    return this.pages.infos();
  }

  /** Every page with its title: read now, or an earlier read of it when that still stands (page-titles.ts). */
  pageInfosWithTitles(): Promise<PageInfo[]> {
    return this.pages.infosWithTitles((pageId) => this.titles.fresh(pageId), (pageId, read) => this.titles.read(pageId, read));
  }

  /** Whether `page` is one of this session's pages (downloads are approved per session). */
  ownsPage(page: Page): boolean {
    return this.pages.includes(page);
  }

  /** The guard refused a request of `page` (or a connection of no known page): the run in flight lists it. */
  noteBlocked(entry: GuardRefusal, page: Page | undefined): void {
    const run = this.run;
    if (run === undefined || run.over) return;
    if (page !== undefined && !this.pages.includes(page)) return;
    run.blocked.add(entry);
  }

  /** Forget pages without closing them (the browser they lived in is gone). */
  dropPages(): boolean {
    this.titles.changed();
    this.losses.note();
    const dropped = this.pages.drop();
    this.pageState.dropAll();
    this.realm.pushActive();
    return dropped;
  }

  /** Ends the run in flight at once, with `reason`; a run still waiting to start never will. */
  async close(reason: CloseReason): Promise<void> {
    this.closedBy ??= reason;
    if (this.run) {
      this.run.stop("closing");
      void this.endRun(this.run);
    }
    this.realm.close();
    await this.pages.closeAll(reason);
  }
}
