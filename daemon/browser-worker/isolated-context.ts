// An isolated session's browser context: made in the profile's browser beside
// the persistent context, with the session's own settings, and wired exactly
// like the persistent one (the guard proxy stated, not inherited; routing;
// downloads; the orphan watch). Its cookies and storage are its own. The
// state it was seeded with applies to its first context; after the browser
// restarts it is made again with its settings and the storage last autosaved
// (or its first seed, if nothing was), so a crash loses at most one run's changes.
import { createHash } from "node:crypto";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { closingError, type CloseReason } from "../../shared/protocol/close-reason.js";
import { BwError } from "../../shared/protocol/errors.js";
import type { SessionSettings } from "../../shared/session-settings.js";
import type { WorkerSavedState } from "../../shared/protocol/methods/index.js";
import { messageWithout, storageStateBytes, type StorageState } from "../../shared/storage-state.js";

/** What every context the worker makes gets; the browser host provides it. */
export interface ContextWiring {
  /** The profile's browser, launched if need be. */
  browser(): Promise<Browser>;
  /** Options every context needs (the guard proxy). */
  options(): Promise<BrowserContextOptions>;
  /** Installs what the persistent context gets at launch (routing layer, downloads, orphan watch); rejects if the guard cannot be installed. */
  attach(context: BrowserContext): Promise<void>;
}

/** Playwright's options for a session's settings. Geolocation is set here and granted to its one origin after. */
export function contextOptions(settings: SessionSettings): BrowserContextOptions {
  const options: BrowserContextOptions = {};
  if (settings.viewport) options.viewport = { width: settings.viewport.width, height: settings.viewport.height };
  if (settings.deviceScaleFactor !== undefined) options.deviceScaleFactor = settings.deviceScaleFactor;
  if (settings.locale !== undefined) options.locale = settings.locale;
  if (settings.timezone !== undefined) options.timezoneId = settings.timezone;
  if (settings.colorScheme !== undefined) options.colorScheme = settings.colorScheme;
  if (settings.reducedMotion) options.reducedMotion = "reduce";
  if (settings.userAgent !== undefined) options.userAgent = settings.userAgent;
  if (settings.geolocation) options.geolocation = { latitude: settings.geolocation.latitude, longitude: settings.geolocation.longitude };
  return options;
}

export class IsolatedContext {
  private context: Promise<BrowserContext> | undefined;
  /** Why it was closed, once it was. */
  private closedBy: CloseReason | undefined;
  /** The storage last autosaved (and its digest): what a context made after a browser crash starts from. */
  private saved: { state: StorageState; digest: string } | undefined;

  constructor(
    readonly session: string,
    private readonly settings: SessionSettings,
    private readonly wiring: ContextWiring,
    /** Applied to the first context made, then forgotten. */
    private seed?: StorageState,
  ) {
    // Until something is autosaved, a browser crash brings back the state the session started from.
    if (seed) this.saved = { state: seed, digest: "" };
  }

  /** The session's context, made now if it has none (first use, or after the browser restarted). */
  open(): Promise<BrowserContext> {
    if (this.closedBy) return Promise.reject(closingError(this.closedBy));
    if (!this.context) {
      const making = this.make();
      this.context = making;
      making.catch(() => {
        if (this.context === making) this.context = undefined;
      });
    }
    return this.context;
  }

  private async make(): Promise<BrowserContext> {
    const browser = await this.wiring.browser();
    const seed = this.seed;
    let context: BrowserContext;
    try {
      context = await browser.newContext({
        ...contextOptions(this.settings),
        ...(seed ? { storageState: seed as unknown as BrowserContextOptions["storageState"] } : {}),
        ...(await this.wiring.options()),
      });
    } catch (error) {
      if (error instanceof BwError) throw error;
      const message = (error as Error).message ?? String(error);
      throw seed
        ? new BwError("INVALID_ARGUMENT", `the saved state could not be applied to session ${this.session}: ${messageWithout(message, seed)}`)
        : new BwError("INVALID_ARGUMENT", `Chromium refused session ${this.session}'s settings: ${message.split("\n")[0]!.slice(0, 300)}`);
    }
    try {
      // Every context goes through the guard: one whose routing layer could not be installed is not used.
      await this.wiring.attach(context);
      const geo = this.settings.geolocation;
      if (geo) await context.grantPermissions(["geolocation"], { origin: geo.origin });
    } catch (error) {
      await context.close().catch(() => {});
      throw error instanceof BwError ? error : new BwError("BROWSER_UNAVAILABLE", `session ${this.session}'s context could not be set up: ${(error as Error).message.split("\n")[0]}`);
    }
    this.seed = undefined;
    if (this.closedBy) {
      await context.close().catch(() => {});
      throw closingError(this.closedBy);
    }
    return context;
  }

  async newPage(): Promise<Page> {
    return (await this.open()).newPage();
  }

  /** Cookies, local storage and IndexedDB of the session's context. */
  async storageState(): Promise<StorageState> {
    const context = await this.open();
    return (await context.storageState({ indexedDB: true })) as unknown as StorageState;
  }

  /**
   * The storage now, unless it is what was autosaved last (or the session has no live context: nothing
   * to read, and nothing to launch a browser for). The copy kept seeds the context after a crash.
   */
  async autosave(maxBytes: number): Promise<WorkerSavedState | { unchanged: true }> {
    const pending = this.context;
    if (!pending || this.closedBy) return { unchanged: true };
    const state = (await (await pending).storageState({ indexedDB: true })) as unknown as StorageState;
    const bytes = storageStateBytes(state, maxBytes);
    try {
      const digest = createHash("sha256").update(bytes).digest("hex");
      if (digest === this.saved?.digest) return { unchanged: true };
      this.saved = { state, digest };
      return { state: bytes.toString("base64"), cookies: state.cookies.length, origins: state.origins.length };
    } finally {
      bytes.fill(0);
    }
  }

  /** The browser went away, and the context with it: the next page makes a new one, from the storage last autosaved. */
  dropped(): void {
    this.context = undefined;
    this.seed = this.saved?.state;
  }

  async close(reason: CloseReason): Promise<void> {
    this.closedBy ??= reason;
    this.seed = undefined;
    this.saved = undefined;
    const pending = this.context;
    this.context = undefined;
    if (pending) await pending.then((c) => c.close()).catch(() => {});
  }
}
