// The final net: every value the vault has handled is replaced by REDACTED in
// anything headed for a model, a transcript or a log, including its obvious
// encodings. Invariant: over its bound it fails closed (throws), never passes
// text through unredacted.
import type { TextContext } from "../../shared/protocol/envelope.js";
import { BwError } from "../../shared/protocol/errors.js";
import { SecretIndex } from "./secret-index.js";
import { longestSpellingChars } from "./secret-spellings.js";

export const REDACTED = "[REDACTED]";
export const DEFAULT_MAX_SECRETS = 1024;
export interface RedactorOptions {
  maxSecrets?: number;
}

export class Redactor {
  readonly maxSecrets: number;
  readonly #secrets = new Set<string>();
  #index: SecretIndex | null = null;
  #overflowed = false;
  /** The widest any spelling of a known secret can be. */
  #longestSpelling = 0;

  constructor(options: RedactorOptions = {}) {
    this.maxSecrets = options.maxSecrets ?? DEFAULT_MAX_SECRETS;
  }

  get size(): number {
    return this.#secrets.size;
  }

  /**
   * Remembers a secret. Past the bound it throws LIMIT_EXCEEDED and every later
   * redaction throws too, so output is withheld rather than leaked.
   */
  add(secret: string): void {
    if (typeof secret !== "string" || secret === "" || this.#secrets.has(secret)) return;
    if (this.#secrets.size >= this.maxSecrets) {
      this.#overflowed = true;
      throw this.#overflowError();
    }
    this.#secrets.add(secret);
    this.#index = null;
    this.#longestSpelling = Math.max(this.#longestSpelling, longestSpellingChars(secret));
  }

  redactString(text: string): string {
    const matcher = this.#compiled()?.matcherFor(text) ?? null;
    return matcher === null ? text : text.replace(matcher, REDACTED);
  }

  /**
   * `text`, a part cut out of a longer text, redacted as the whole text would
   * be: a spelling that crosses a cut shows as REDACTED on each side of it.
   * Where the context sent is narrower than a known secret's widest spelling,
   * the stretch next to the cut that could hold a piece of one is withheld too.
   */
  redactCut(text: string, context: TextContext): string {
    const index = this.#compiled();
    if (index === null) return text;
    const whole = context.before + text + context.after;
    const from = context.before.length;
    const to = from + text.length;
    const hidden: [number, number][] = [];
    const matcher = index.matcherFor(whole);
    if (matcher !== null) {
      matcher.lastIndex = 0;
      for (let m = matcher.exec(whole); m !== null; m = matcher.exec(whole)) {
        if (m[0] === "") matcher.lastIndex++;
        else hidden.push([m.index, m.index + m[0].length]);
      }
    }
    // A spelling that crosses an edge of `whole` lies within `reach` of that edge.
    const reach = this.#longestSpelling - 1;
    if (!context.fromStart) hidden.push([0, reach]);
    if (!context.toEnd) hidden.push([whole.length - reach, whole.length]);
    return maskRanges(whole, from, to, hidden);
  }

  /** Redacts every string, object key and number in a JSON-like value; returns a copy. */
  redact<T>(value: T): T {
    return this.#redactValue(value, new Set()) as T;
  }

  #redactValue(value: unknown, ancestors: Set<object>): unknown {
    if (typeof value === "string") return this.redactString(value);
    if (typeof value === "number" || typeof value === "bigint") {
      const text = String(value);
      return this.redactString(text) === text ? value : REDACTED;
    }
    if (typeof value !== "object" || value === null) return value;
    if (ancestors.has(value)) return "[Circular]";
    ancestors.add(value);
    try {
      if (Array.isArray(value)) return value.map((item) => this.#redactValue(item, ancestors));
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[this.redactString(key)] = this.#redactValue(item, ancestors);
      return out;
    } finally {
      ancestors.delete(value);
    }
  }

  #compiled(): SecretIndex | null {
    if (this.#overflowed) throw this.#overflowError();
    if (this.#secrets.size === 0) return null;
    this.#index ??= new SecretIndex(this.#secrets);
    return this.#index;
  }

  #overflowError(): BwError {
    return new BwError("LIMIT_EXCEEDED", `more than ${this.maxSecrets} secrets to redact; output withheld`);
  }
}

/** whole[from, to) with each stretch of `hidden` that reaches into it shown as one REDACTED. */
function maskRanges(whole: string, from: number, to: number, hidden: [number, number][]): string {
  let out = "";
  let pos = from;
  let open = false;
  for (const [start, end] of hidden.sort((a, b) => a[0] - b[0])) {
    if (end <= pos) continue;
    if (start >= to) break;
    if (start > pos) {
      out += whole.slice(pos, start);
      open = false;
    }
    if (!open) out += REDACTED;
    open = true;
    pos = end;
  }
  return pos < to ? out + whole.slice(pos, to) : out;
}

/** One-shot form for callers that hold the secrets themselves. */
export function redactWith<T>(value: T, secrets: Iterable<string>): T {
  const redactor = new Redactor({ maxSecrets: Number.POSITIVE_INFINITY });
  for (const secret of secrets) redactor.add(secret);
  return redactor.redact(value);
}
