// A session's state that outlives runs, per page: which document the page
// shows (so a ref or a cursor of an older one is refused), its previous
// snapshot (the baseline of --diff), its observation buffers; and for the
// session, the refs of its latest snapshot, the only ones actions accept.
import type { Dialog, ElementHandle, JSHandle, Page } from "playwright-core";
import { BwError } from "../../../shared/protocol/errors.js";
import { PageObserver } from "./observe/page-observer.js";
import type { AriaTree } from "./snapshot/aria-render.js";
import { CaptureStore } from "./snapshot/captures.js";

/** Whether a handle's document still stands: its execution context dies with a navigation. */
export function alive(handle: JSHandle): Promise<boolean> {
  return handle.evaluate(() => 0).then(() => true, () => false);
}

/** A function run in the page on its `document` (serialized: it may use nothing from outside itself). */
export type DocumentRead<T> = (document: unknown) => T;

const nothing: DocumentRead<0> = () => 0;

/**
 * The document a page shows, as a number that changes when it navigates to
 * another document (not on a same-document navigation). Told by a handle on
 * `document` in the page's main world, which the page cannot forge.
 */
export class PageDocument {
  private handle: JSHandle | undefined;
  private generation = 0;

  constructor(private readonly page: Page) {}

  /**
   * The number of the document shown now (a new one after a navigation), and what `read` finds in it: one round trip while the document
   * stands (the read is what tells that it does). `read` must not throw, or the document counts as gone.
   */
  async read<T>(read: DocumentRead<T>): Promise<{ document: number; value: T }> {
    if (this.handle) {
      const found = await this.handle.evaluate(read).then((value) => ({ value }), () => undefined);
      if (found) return { document: this.generation, value: found.value as T };
      void this.handle.dispose().catch(() => {});
      this.handle = undefined;
    }
    // Runs in the page, where `document` is the page's own (an unforgeable global).
    const documentOfPage = () => (globalThis as { document?: unknown }).document;
    try {
      this.handle = await this.page.evaluateHandle(documentOfPage);
    } catch {
      // A navigation in flight destroyed the context: once more, in the next document.
      this.handle = await this.page.evaluateHandle(documentOfPage);
    }
    const document = ++this.generation;
    return { document, value: (await this.handle.evaluate(read)) as T };
  }

  /** What `read` finds in document `generation`, or undefined once the page shows another (never makes a new number). */
  async within<T>(generation: number, read: DocumentRead<T>): Promise<{ value: T } | undefined> {
    if (this.handle === undefined || this.generation !== generation) return undefined;
    return this.handle.evaluate(read).then((value) => ({ value: value as T }), () => undefined);
  }

  /** Whether the page still shows document `generation` (never makes a new number). */
  async still(generation: number): Promise<boolean> {
    return (await this.within(generation, nothing)) !== undefined;
  }

  /** The number last seen, without asking the page. */
  get last(): number {
    return this.generation;
  }
}

export interface Baseline {
  tree: AriaTree;
  document: number;
  depth: number | undefined;
}

export interface DialogAnswer {
  action: "accept" | "dismiss";
  promptText?: string | undefined;
}

export function answerDialog(dialog: Dialog, answer: DialogAnswer): Promise<void> {
  return answer.action === "accept" ? dialog.accept(answer.promptText) : dialog.dismiss();
}

export interface PageEntry {
  page: Page;
  document: PageDocument;
  observer: PageObserver;
  /** The page's previous whole-page snapshot (for --diff). */
  baseline?: Baseline;
  /** How the page's next dialog is answered (the `dialog` operation); without it, dialogs are dismissed. */
  armedDialog?: DialogAnswer;
  /** Operations waiting for the page's next dialog (action_and_wait), first come first served. */
  dialogWaiters: ((dialog: Dialog) => void)[];
}

/** The session's latest snapshot: refs are accepted only from it, only on its page and document. */
export interface RefBinding {
  pageId: string;
  document: number;
  refs: ReadonlySet<string>;
  tree: AriaTree;
  /** Per frame prefix (f1…), a handle of one of its elements: dead once that frame navigated. */
  frames: ReadonlyMap<string, ElementHandle>;
  /** The prefixes of child frames' refs (a main frame's refs may carry one too, and need no mark). */
  framed: ReadonlySet<string>;
}

export class SessionPageState {
  private readonly pages = new Map<string, PageEntry>();
  readonly captures: CaptureStore;
  private latest: RefBinding | undefined;

  constructor(private readonly now: () => number = Date.now) {
    this.captures = new CaptureStore(now);
  }

  /** A page of the session opened: its observation starts now. */
  attach(pageId: string, page: Page): void {
    this.pages.set(pageId, { page, document: new PageDocument(page), observer: new PageObserver(page, this.now), dialogWaiters: [] });
    page.on("close", () => this.forget(pageId));
  }

  entry(pageId: string): PageEntry {
    const entry = this.pages.get(pageId);
    if (!entry) throw new BwError("INVALID_ARGUMENT", `no page ${pageId} in this session`);
    return entry;
  }

  get binding(): RefBinding | undefined {
    return this.latest;
  }

  bind(binding: RefBinding): void {
    for (const handle of this.latest?.frames.values() ?? []) void handle.dispose().catch(() => {});
    this.latest = binding;
  }

  /** A dialog no snippet handles: an operation waiting for it, or the answer armed for it, takes it. */
  claimDialog(pageId: string, dialog: Dialog): boolean {
    const entry = this.pages.get(pageId);
    if (!entry) return false;
    const waiter = entry.dialogWaiters.shift();
    if (waiter) {
      waiter(dialog);
      return true;
    }
    const armed = entry.armedDialog;
    if (!armed) return false;
    entry.armedDialog = undefined;
    void answerDialog(dialog, armed).catch(() => {});
    return true;
  }

  private forget(pageId: string): void {
    this.pages.delete(pageId);
    this.captures.forgetPage(pageId);
    if (this.latest?.pageId === pageId) this.latest = undefined;
  }

  /** The browser went away: every page with it. */
  dropAll(): void {
    for (const pageId of [...this.pages.keys()]) this.forget(pageId);
  }
}
