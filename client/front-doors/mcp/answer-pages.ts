// Answers too long for one tool result (a result the daemon spilled to a
// file), kept per connection and handed out in parts: the first part at
// once, each next one through the `more` tool with the cursor the last part
// gave. A remote host never has to open a path on this machine's disk.
import { BwError } from "../../../shared/protocol/errors.js";

/** Characters per part: a snapshot's default part, so one answer stays a few thousand tokens. */
export const ANSWER_PART_CHARS = 8_000;
/** Answers kept per connection, and for how long: enough to read one on, never a store. */
const KEPT_ANSWERS = 8;
const KEPT_MS = 10 * 60_000;

interface Kept {
  text: string;
  at: number;
}

export class AnswerPages {
  private readonly kept = new Map<string, Kept>();
  private count = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The part of a new answer from its start: all of it when it fits. */
  first(text: string): string {
    if (text.length <= ANSWER_PART_CHARS) return text;
    this.forgetOld();
    this.count += 1;
    const id = `a${this.count}`;
    this.kept.set(id, { text, at: this.now() });
    return this.part(id, text, 0);
  }

  /** The part a cursor points at. */
  more(cursor: string): string {
    const match = /^(a\d+)\.(\d+)$/.exec(cursor);
    const kept = match ? this.kept.get(match[1]!) : undefined;
    if (!match || !kept || this.now() - kept.at > KEPT_MS) {
      throw new BwError("INVALID_ARGUMENT", `cursor: no answer is kept under ${JSON.stringify(cursor.slice(0, 40))} (the last ${KEPT_ANSWERS} are kept for ${KEPT_MS / 60_000} minutes): call the tool again`);
    }
    const offset = Number(match[2]);
    if (offset >= kept.text.length) throw new BwError("INVALID_ARGUMENT", "cursor: that answer has no more");
    return this.part(match[1]!, kept.text, offset);
  }

  /** From `offset`, at most a part, cut at a line end when one is near; the footer says what is left. */
  private part(id: string, text: string, offset: number): string {
    let end = Math.min(text.length, offset + ANSWER_PART_CHARS);
    if (end < text.length) {
      const lineEnd = text.lastIndexOf("\n", end);
      if (lineEnd > offset + ANSWER_PART_CHARS / 2) end = lineEnd + 1;
    }
    const footer = end < text.length
      ? `[characters ${offset}–${end} of ${text.length}; more: call more with cursor "${id}.${end}"]`
      : `[characters ${offset}–${end} of ${text.length}: the end]`;
    return `${text.slice(offset, end)}\n${footer}`;
  }

  private forgetOld(): void {
    for (const [id, kept] of this.kept) {
      if (this.kept.size >= KEPT_ANSWERS || this.now() - kept.at > KEPT_MS) this.kept.delete(id);
    }
  }
}
