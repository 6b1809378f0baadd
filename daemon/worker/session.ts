// A session inside the worker: its pages (one active), its snippet context
// and the run in flight. A run is cut off at its deadline: from then on every
// facade call it makes throws, and its timers never fire.
import { randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";
import { BwError, toBwError } from "../../shared/errors.js";
import type { ArtifactInfo, ConsoleEntry, PageInfo, Warning, WorkerOutcome } from "../../shared/envelope.js";
import { clampTimeouts, decodeArgs, toWireResult } from "./sandbox/args.js";
import { SnippetContext } from "./sandbox/context.js";
import { isAllowed, type FacadeTarget } from "./sandbox/facade-spec.js";
import { scopeNames, type RunContext, type ScopeFunction } from "./sandbox/scope-functions.js";

export const MAX_PAGES_PER_SESSION = 20;
const MAX_CONSOLE_ENTRIES = 200;
const MAX_CONSOLE_TEXT = 2000;
/** How long a timed-out run may take to settle before the next run of its session starts anyway. */
const SETTLE_GRACE_MS = 2000;
const TITLE_WAIT_MS = 500;

interface Run {
  token: string;
  runId: string;
  deadline: number;
  over: boolean;
  console: ConsoleEntry[];
  artifacts: ArtifactInfo[];
  warnings: Warning[];
  timers: Map<number, NodeJS.Timeout>;
  done: (outcome: { ok: boolean; value?: unknown; error?: { name: string; message: string } }) => void;
}

export class WorkerSession {
  private readonly pages = new Map<string, Page>();
  private activeId: string | undefined;
  private nextPageNumber = 1;
  private nextTimerId = 1;
  private run: Run | undefined;
  private settled: Promise<void> = Promise.resolve();
  private readonly sandbox: SnippetContext;
  private closed = false;

  private readonly scopeFunctions = new Map<string, ScopeFunction>();

  constructor(
    readonly name: string,
    private readonly getContext: () => Promise<BrowserContext>,
    scopeFunctions: readonly ScopeFunction[] = [],
    private readonly now: () => number = Date.now,
  ) {
    for (const fn of scopeFunctions) this.scopeFunctions.set(fn.name, fn);
    this.sandbox = new SnippetContext(name, {
      sync: (m) => this.handleSync(m),
      async: (m) => this.handleAsync(m),
    }, scopeNames(scopeFunctions));
  }

  async exec(code: string, budgetMs: number, runId: string): Promise<WorkerOutcome> {
    const outcome = await this.execInner(code, budgetMs, runId);
    outcome.pages = await this.pageInfosWithTitles();
    return outcome;
  }

  private async execInner(code: string, budgetMs: number, runId: string): Promise<WorkerOutcome> {
    const deadline = this.now() + budgetMs;
    await Promise.race([this.settled, new Promise((r) => setTimeout(r, Math.max(0, deadline - this.now())))]);
    const consoleEntries: ConsoleEntry[] = [];
    const artifacts: ArtifactInfo[] = [];
    const warnings: Warning[] = [];
    const finish = (outcome: Partial<WorkerOutcome> & { ok: boolean }): WorkerOutcome => ({
      console: consoleEntries, pages: this.pageInfos(), artifacts, warnings, ...outcome,
    });
    if (this.now() >= deadline) {
      return finish({ ok: false, error: new BwError("SNIPPET_TIMEOUT", "the budget ran out while the previous run of this session settled").toJSON() });
    }
    let compiled;
    try {
      compiled = this.sandbox.compile(code, `snippet-${this.name}.js`);
    } catch (error) {
      return finish({ ok: false, error: toBwError(error).toJSON() });
    }
    try {
      await this.ensurePage();
    } catch (error) {
      return finish({ ok: false, error: toBwError(error, "BROWSER_UNAVAILABLE").toJSON() });
    }

    let resolveDone!: Run["done"];
    const done = new Promise<Parameters<Run["done"]>[0]>((resolve) => (resolveDone = resolve));
    const run: Run = { token: randomUUID(), runId, deadline, over: false, console: consoleEntries, artifacts, warnings, timers: new Map(), done: resolveDone };
    this.run = run;
    this.settled = done.then(() => undefined);
    this.sandbox.run(compiled, run.token);

    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), Math.max(0, deadline - this.now()))));
    const outcome = await Promise.race([done, timedOut]);
    clearTimeout(timer);
    this.endRun(run);
    if (outcome === "timeout") {
      this.settled = Promise.race([done.then(() => undefined), new Promise<void>((r) => setTimeout(r, SETTLE_GRACE_MS))]);
      return finish({ ok: false, error: new BwError("SNIPPET_TIMEOUT", `the snippet did not finish within its budget of ${budgetMs} ms`).toJSON() });
    }
    if (outcome.ok) {
      const value = outcome.value as { __bwUndefined?: boolean } | undefined;
      return finish(value && typeof value === "object" && value.__bwUndefined === true ? { ok: true } : { ok: true, result: outcome.value });
    }
    const e = outcome.error ?? { name: "Error", message: "unknown error" };
    return finish({ ok: false, error: new BwError("SNIPPET_ERROR", e.name && e.name !== "Error" ? `${e.name}: ${e.message}` : e.message).toJSON() });
  }

  private endRun(run: Run): void {
    run.over = true;
    for (const t of run.timers.values()) clearTimeout(t);
    run.timers.clear();
    if (this.run === run) this.run = undefined;
  }

  private liveRun(token: unknown): Run {
    const run = this.run;
    if (this.closed) throw new BwError("SESSION_CLOSING", `session ${this.name} is closed`);
    if (!run || run.token !== token || run.over) throw new BwError("SNIPPET_TIMEOUT", "this run is over: its budget ran out or it finished");
    return run;
  }

  private remaining(run: Run): number {
    return Math.max(1, run.deadline - this.now());
  }

  private handleSync(m: Record<string, unknown>): unknown {
    if (m.op === "done") {
      const run = this.run;
      if (run && run.token === m.token) run.done({ ok: m.ok === true, value: m.value, error: m.error as { name: string; message: string } });
      return null;
    }
    const run = this.liveRun(m.token);
    switch (m.op) {
      case "activePage":
        return this.activePageId();
      case "pages":
        return this.pageInfos();
      case "usePage": {
        const id = String(m.pageId);
        if (!this.pages.has(id)) throw new BwError("INVALID_ARGUMENT", `no page ${id} in session ${this.name}`);
        this.activeId = id;
        return id;
      }
      case "console":
        this.pushConsole(run, { type: String(m.type), text: String(m.text), source: "snippet" });
        return null;
      case "setTimeout": {
        const id = this.nextTimerId++;
        // A timer past the deadline simply never fires: the run is over by then.
        const ms = Math.min(Math.max(0, Number(m.ms) || 0), 2 ** 31 - 1);
        run.timers.set(id, setTimeout(() => { run.timers.delete(id); if (!run.over) this.sandbox.fireTimer(id); }, ms));
        return id;
      }
      case "clearTimeout": {
        const id = Number(m.id);
        clearTimeout(run.timers.get(id));
        run.timers.delete(id);
        return null;
      }
      case "scope":
        return this.callScope(run, m, "sync");
      case "callSync": {
        const page = this.page(m.pageId);
        const method = String(m.method);
        if (!isAllowed("page", method, "sync")) throw new BwError("INVALID_ARGUMENT", `page.${method} is not available`);
        return toWireResult((page as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!(...decodeArgs(m.args)));
      }
      default:
        throw new BwError("INVALID_ARGUMENT", `unknown sandbox operation ${String(m.op)}`);
    }
  }

  private async handleAsync(m: Record<string, unknown>): Promise<unknown> {
    const run = this.liveRun(m.token);
    switch (m.op) {
      case "call":
        return this.call(run, m);
      case "scope":
        return this.callScope(run, m, "async");
      case "openPage": {
        const id = await this.newPage();
        if (typeof m.url === "string" && m.url !== "") await this.page(id).goto(m.url, { timeout: this.remaining(run) });
        this.activeId = id;
        return id;
      }
      case "closePage": {
        const id = m.pageId === undefined || m.pageId === null ? this.activePageId() : String(m.pageId);
        await this.page(id).close();
        return null;
      }
      default:
        throw new BwError("INVALID_ARGUMENT", `unknown sandbox operation ${String(m.op)}`);
    }
  }

  private async call(run: Run, m: Record<string, unknown>): Promise<unknown> {
    const target = String(m.target) as FacadeTarget;
    const method = String(m.method);
    if (!["page", "locator", "keyboard", "mouse"].includes(target) || !isAllowed(target, method, "async")) {
      throw new BwError("INVALID_ARGUMENT", `${target}.${method} is not available to snippets`);
    }
    const page = this.page(m.pageId);
    const remaining = this.remaining(run);
    page.setDefaultTimeout(remaining);
    page.setDefaultNavigationTimeout(remaining);
    let receiver: unknown = page;
    if (target === "keyboard") receiver = page.keyboard;
    if (target === "mouse") receiver = page.mouse;
    if (target === "locator") receiver = this.buildLocator(page, m.chain);
    if (method === "goto") assertNavigable(decodeArgs(m.args)[0]);
    const fn = (receiver as Record<string, (...a: unknown[]) => Promise<unknown>>)[method];
    if (typeof fn !== "function") throw new BwError("INVALID_ARGUMENT", `${target}.${method} is not available in this Playwright version`);
    const args = clampTimeouts(decodeArgs(m.args), remaining);
    const result = await fn.apply(receiver, args);
    this.liveRun(m.token);
    return toWireResult(result);
  }

  private callScope(run: Run, m: Record<string, unknown>, kind: "sync" | "async"): unknown {
    const fn = this.scopeFunctions.get(String(m.name));
    if (!fn || fn.kind !== kind) throw new BwError("INVALID_ARGUMENT", `${String(m.name)} is not available to snippets`);
    return fn.call(this.runContext(run), decodeArgs(m.args));
  }

  private runContext(run: Run): RunContext {
    return {
      session: this.name,
      runId: run.runId,
      activePage: () => this.page(this.activePageId()),
      remainingMs: () => this.remaining(run),
      addArtifact: (artifact) => { run.artifacts.push(artifact); },
      addWarning: (warning) => { run.warnings.push(warning); },
      assertLive: () => { this.liveRun(run.token); },
    };
  }

  private buildLocator(page: Page, chain: unknown): unknown {
    if (!Array.isArray(chain) || chain.length === 0 || chain.length > 32) throw new BwError("INVALID_ARGUMENT", "malformed locator");
    let current: unknown = page;
    for (const step of chain) {
      const { m, a } = (step ?? {}) as { m?: unknown; a?: unknown };
      if (typeof m !== "string" || !isAllowed("locator", m, "builders")) throw new BwError("INVALID_ARGUMENT", `locator step ${String(m)} is not available`);
      current = (current as Record<string, (...x: unknown[]) => unknown>)[m]!(...decodeArgs(a));
    }
    return current;
  }

  private page(pageId: unknown): Page {
    const page = this.pages.get(String(pageId));
    if (!page) throw new BwError("INVALID_ARGUMENT", `no page ${String(pageId)} in session ${this.name}`);
    return page;
  }

  private activePageId(): string {
    if (this.activeId === undefined || !this.pages.has(this.activeId)) {
      const first = this.pages.keys().next();
      if (first.done) throw new BwError("INVALID_ARGUMENT", "this session has no open page: call openPage()");
      this.activeId = first.value;
    }
    return this.activeId;
  }

  private async ensurePage(): Promise<void> {
    if (this.pages.size === 0) this.activeId = await this.newPage();
  }

  private async newPage(): Promise<string> {
    if (this.pages.size >= MAX_PAGES_PER_SESSION) {
      throw new BwError("LIMIT_EXCEEDED", `a session holds at most ${MAX_PAGES_PER_SESSION} pages; close one with closePage()`);
    }
    const context = await this.getContext();
    const page = await context.newPage();
    const id = `p${this.nextPageNumber++}`;
    this.pages.set(id, page);
    page.on("close", () => {
      this.pages.delete(id);
      if (this.activeId === id) this.activeId = undefined;
    });
    page.on("console", (msg) => {
      if (this.run) this.pushConsole(this.run, { type: msg.type(), text: msg.text(), source: "page" });
    });
    return id;
  }

  private pushConsole(run: Run, entry: ConsoleEntry): void {
    if (run.console.length >= MAX_CONSOLE_ENTRIES) return;
    run.console.push({ ...entry, text: entry.text.length > MAX_CONSOLE_TEXT ? `${entry.text.slice(0, MAX_CONSOLE_TEXT)}…` : entry.text });
  }

  pageInfos(): PageInfo[] {
    const infos: PageInfo[] = [];
    for (const [pageId, page] of this.pages) {
      infos.push({ pageId, url: page.url(), title: "", active: pageId === this.activeId });
    }
    return infos;
  }

  async pageInfosWithTitles(): Promise<PageInfo[]> {
    const infos = this.pageInfos();
    // A page stuck in a navigation must not hold the envelope back.
    const bound = new Promise<string>((r) => setTimeout(() => r(""), TITLE_WAIT_MS).unref());
    await Promise.all(infos.map(async (info) => {
      const page = this.pages.get(info.pageId);
      info.title = page ? await Promise.race([page.title().catch(() => ""), bound]) : "";
    }));
    return infos;
  }

  /** Forget pages without closing them (the browser they lived in is gone). */
  dropPages(): boolean {
    const had = this.pages.size > 0;
    this.pages.clear();
    this.activeId = undefined;
    return had;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.run) this.endRun(this.run);
    await Promise.all([...this.pages.values()].map((p) => p.close().catch(() => {})));
    this.pages.clear();
  }
}

const NAVIGABLE = /^(https?:|about:blank$|data:|blob:)/i;

function assertNavigable(url: unknown): void {
  if (typeof url !== "string" || !NAVIGABLE.test(url.trim())) {
    throw new BwError("BLOCKED_URL", `goto accepts http, https, about:blank, data: and blob: URLs only, not ${JSON.stringify(String(url)).slice(0, 200)}`);
  }
}
