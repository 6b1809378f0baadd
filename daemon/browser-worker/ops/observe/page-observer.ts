// Console messages, page errors and network requests of one page, kept in
// bounded ring buffers from the moment the page opens, across runs, until it
// closes. Only metadata is kept for requests (method, safe URL, status, type,
// failure); never headers or bodies, so no Authorization or Cookie value.
import type { Page, Request } from "playwright-core";
import type { ObserveEntry, ObserveResult } from "../../../../shared/protocol/operations/index.js";
import { clipAtWord } from "../clip-text.js";
import { RingBuffer } from "./ring-buffer.js";
import { safeUrl } from "./safe-url.js";

export const OBSERVE_CAPACITY = { console: 500, errors: 200, network: 1_000, dialogs: 100 } as const;
export const MAX_OBSERVED_TEXT = 2_000;

export type ObserveSource = keyof typeof OBSERVE_CAPACITY;
type Entry = Omit<ObserveEntry, "id">;

function clip(text: string): string {
  return clipAtWord(text, MAX_OBSERVED_TEXT);
}

export class PageObserver {
  private readonly buffers = {
    console: new RingBuffer<Entry>(OBSERVE_CAPACITY.console),
    errors: new RingBuffer<Entry>(OBSERVE_CAPACITY.errors),
    network: new RingBuffer<Entry>(OBSERVE_CAPACITY.network),
    dialogs: new RingBuffer<Entry>(OBSERVE_CAPACITY.dialogs),
  };
  /** A request's entry, to add its status or failure when they come. */
  private readonly requests = new WeakMap<Request, ObserveEntry>();

  constructor(page: Page, private readonly now: () => number = Date.now) {
    page.on("console", (message) => {
      this.buffers.console.push({ at: this.stamp(), type: message.type(), text: clip(message.text()) });
    });
    page.on("pageerror", (error) => {
      this.buffers.errors.push({ at: this.stamp(), type: String(error.name ?? "Error"), text: clip(String(error.message ?? "")) });
    });
    page.on("dialog", (dialog) => {
      this.buffers.dialogs.push({ at: this.stamp(), type: dialog.type(), text: clip(dialog.message()) });
    });
    page.on("request", (request) => {
      const entry = this.buffers.network.push({ at: this.stamp(), type: request.method(), url: safeUrl(request.url()), resourceType: request.resourceType() });
      this.requests.set(request, entry);
    });
    page.on("response", (response) => {
      const entry = this.requests.get(response.request());
      if (entry) entry.status = response.status();
    });
    page.on("requestfailed", (request) => {
      const entry = this.requests.get(request);
      if (entry) entry.failure = clip(request.failure()?.errorText ?? "failed");
    });
  }

  private stamp(): string {
    return new Date(this.now()).toISOString();
  }

  read(pageId: string, source: ObserveSource, since: number, limit: number): ObserveResult {
    const read = this.buffers[source].read(since, limit);
    return { pageId, source, entries: read.entries.map((e) => ({ ...e })), nextCursor: read.nextCursor, dropped: read.dropped, more: read.more };
  }
}
