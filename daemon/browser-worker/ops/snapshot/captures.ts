// Snapshot text kept for continuation: an answer bounded by maxChars ends with
// a cursor, and the next call reads on through the same capture (immutable,
// so a page that changed meanwhile cannot tear it). Captures live 30 s, at
// most a few per page; a capture of a page that navigated since is stale.
import { textContextAround, type TextContext } from "../../../../shared/protocol/envelope.js";
import { BwError } from "../../../../shared/protocol/errors.js";

export const CAPTURE_TTL_MS = 30_000;
export const MAX_CAPTURES_PER_PAGE = 4;
/** The most one capture may hold (a page's whole tree is rarely more). */
export const MAX_CAPTURE_CHARS = 2_000_000;

const CURSOR = /^(p\d{1,6})\.(\d{1,9})\.(\d{1,9})$/;

interface Capture {
  pageId: string;
  id: number;
  text: string;
  /** The page's document when it was taken (see PageDocs). */
  document: number;
  at: number;
}

export interface CapturePart {
  text: string;
  offset: number;
  totalChars: number;
  cursor?: string;
  /** The capture around `text`: the daemon redacts across the cut with it (never part of the answer). */
  context: TextContext;
}

/**
 * Where to cut a capture too long to keep: at the last line end within `max`, so that no line (and so
 * no secret on it, which the daemon must see whole to redact) is cut in two; mid-line only when one line is longer.
 */
function lastLineEnd(text: string, max: number): number {
  const end = text.lastIndexOf("\n", max);
  return end > 0 ? end : max;
}

export class CaptureStore {
  private readonly captures: Capture[] = [];
  private nextId = 1;

  constructor(private readonly now: () => number = Date.now) {}

  private prune(): void {
    const oldest = this.now() - CAPTURE_TTL_MS;
    for (let i = this.captures.length - 1; i >= 0; i--) if (this.captures[i]!.at < oldest) this.captures.splice(i, 1);
  }

  /** Keeps `text` and answers its first part. */
  add(pageId: string, document: number, text: string, maxChars: number): CapturePart {
    this.prune();
    const kept = text.length > MAX_CAPTURE_CHARS ? `${text.slice(0, lastLineEnd(text, MAX_CAPTURE_CHARS))}\n[capture cut at ${MAX_CAPTURE_CHARS} characters]` : text;
    const capture: Capture = { pageId, id: this.nextId++, text: kept, document, at: this.now() };
    const mine = this.captures.filter((c) => c.pageId === pageId);
    if (mine.length >= MAX_CAPTURES_PER_PAGE) this.captures.splice(this.captures.indexOf(mine[0]!), 1);
    this.captures.push(capture);
    return this.part(capture, 0, maxChars);
  }

  /** The part a cursor points at, with the page and document its capture was taken on (the caller checks that it still stands). */
  resume(cursor: string, maxChars: number): CapturePart & { pageId: string; document: number } {
    const match = CURSOR.exec(cursor);
    if (!match) throw new BwError("INVALID_ARGUMENT", "args.cursor: not a snapshot cursor (it looks like p1.3.8000)");
    this.prune();
    const [, pageId, id, offset] = match;
    const capture = this.captures.find((c) => c.pageId === pageId && c.id === Number(id));
    if (!capture || Number(offset) > capture.text.length) {
      throw new BwError("STALE_REF", `snapshot cursor ${cursor} has expired (captures are kept ${CAPTURE_TTL_MS / 1000} s, ${MAX_CAPTURES_PER_PAGE} per page) or its page closed: take a new snapshot`);
    }
    return { pageId: capture.pageId, document: capture.document, ...this.part(capture, Number(offset), maxChars) };
  }

  forgetPage(pageId: string): void {
    for (let i = this.captures.length - 1; i >= 0; i--) if (this.captures[i]!.pageId === pageId) this.captures.splice(i, 1);
  }

  /** At most maxChars from `offset`, ending at a line end when one is in reach. */
  private part(capture: Capture, offset: number, maxChars: number): CapturePart {
    const { text } = capture;
    const totalChars = text.length;
    if (totalChars - offset <= maxChars) return { text: text.slice(offset), offset, totalChars, context: textContextAround(text, offset, totalChars) };
    const lineEnd = text.lastIndexOf("\n", offset + maxChars);
    const end = lineEnd > offset ? lineEnd : offset + maxChars;
    const next = text[end] === "\n" ? end + 1 : end;
    return { text: text.slice(offset, end), offset, totalChars, cursor: `${capture.pageId}.${capture.id}.${next}`, context: textContextAround(text, offset, end) };
  }
}
