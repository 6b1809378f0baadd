// The host side of `page.on/once/off` for console, pageerror and dialog.
// Handlers belong to the run that registered them: the bridge forwards an
// event only to the run in flight, only for the (page, event) pairs it
// listens to, as plain data the context turns into its own objects. Every
// dialog is answered: by a handler, or dismissed once the handlers settle,
// or at once when no run listens, so that a page never hangs on one.
import type { ConsoleMessage, Dialog } from "playwright-core";
import { BwError } from "../../shared/protocol/errors.js";
import { FACADE_SPEC } from "./facades/facade-spec.js";

/** Hands an event to the run's handlers inside the context; false when it has none for it. */
export type Deliver = (token: string, event: Record<string, unknown>) => boolean;

const MAX_EVENT_TEXT = 10_000;

function clip(text: string): string {
  return text.length > MAX_EVENT_TEXT ? `${text.slice(0, MAX_EVENT_TEXT)}…` : text;
}

export class EventBridge {
  private token: string | undefined;
  private readonly listening = new Set<string>();
  private readonly dialogs = new Map<string, Dialog>();
  private nextDialogNumber = 1;

  constructor(
    private readonly deliver: Deliver,
    private readonly log: (line: string) => void = () => {},
    /** Takes a dialog no run handles before it is dismissed (a typed operation armed for it); true when it did. */
    private readonly claim: (pageId: string, dialog: Dialog) => boolean = () => false,
  ) {}

  startRun(token: string): void {
    this.endRun();
    this.token = token;
  }

  /** Forgets the run's subscriptions and dismisses any dialog it left open. */
  endRun(): void {
    this.token = undefined;
    this.listening.clear();
    for (const [id, dialog] of this.dialogs) {
      this.dialogs.delete(id);
      void dialog.dismiss().catch(() => {});
    }
  }

  listen(token: string, pageId: string, event: string, on: boolean): null {
    if (!(FACADE_SPEC.page.events as readonly string[]).includes(event)) {
      throw new BwError("INVALID_ARGUMENT", `page.on(${JSON.stringify(event)}) is not available to snippets`);
    }
    if (token !== this.token) return null;
    const key = `${pageId}\n${event}`;
    if (on) this.listening.add(key);
    else this.listening.delete(key);
    return null;
  }

  private target(pageId: string, event: string): string | undefined {
    return this.token !== undefined && this.listening.has(`${pageId}\n${event}`) ? this.token : undefined;
  }

  onConsole(pageId: string, message: ConsoleMessage): void {
    const token = this.target(pageId, "console");
    if (!token) return;
    const location = message.location();
    this.deliver(token, { event: "console", pageId, type: message.type(), text: clip(message.text()), location: { url: location.url, lineNumber: location.lineNumber, columnNumber: location.columnNumber } });
  }

  onPageError(pageId: string, error: Error): void {
    const token = this.target(pageId, "pageerror");
    if (!token) return;
    this.deliver(token, { event: "pageerror", pageId, name: String(error.name), message: clip(String(error.message)), stack: clip(String(error.stack ?? "")) });
  }

  onDialog(pageId: string, dialog: Dialog): void {
    const token = this.target(pageId, "dialog");
    const dialogId = `d${this.nextDialogNumber++}`;
    if (token) {
      this.dialogs.set(dialogId, dialog);
      const event = { event: "dialog", pageId, dialogId, type: dialog.type(), message: clip(dialog.message()), defaultValue: dialog.defaultValue() };
      if (this.deliver(token, event)) return;
      this.dialogs.delete(dialogId);
    }
    if (this.claim(pageId, dialog)) return;
    void dialog.dismiss().catch((error: Error) => this.log(`dismissing a dialog: ${error.message}`));
  }

  /** accept / dismiss from a handler; "settle" dismisses a dialog no handler answered. */
  async dialogAction(token: string, dialogId: string, action: unknown, promptText: unknown): Promise<null> {
    const dialog = token === this.token ? this.dialogs.get(dialogId) : undefined;
    if (action === "settle") {
      if (dialog) {
        this.dialogs.delete(dialogId);
        await dialog.dismiss().catch(() => {});
      }
      return null;
    }
    if (action !== "accept" && action !== "dismiss") throw new BwError("INVALID_ARGUMENT", `unknown dialog action ${String(action)}`);
    if (!dialog) throw new BwError("INVALID_ARGUMENT", "this dialog was already accepted or dismissed");
    this.dialogs.delete(dialogId);
    if (action === "accept") await dialog.accept(typeof promptText === "string" ? promptText : undefined);
    else await dialog.dismiss();
    return null;
  }
}
