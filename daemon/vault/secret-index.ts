// Finds which secrets a text may spell, then matches only those. One regular
// expression over every spelling of every secret costs time in proportion to
// their number at each character; instead a literal scan for each secret's
// plain anchor (and base64 forms) picks the candidates, and their full patterns
// run alone. Invariant: a text holding any spelling of a secret always makes
// that secret a candidate.
import { base64Spellings, escapeRegExp, plainAnchor, secretPattern } from "./secret-spellings.js";

/** Compiled candidate sets kept per index; texts usually hold one secret or none. */
const MAX_CACHED_MATCHERS = 64;

export class SecretIndex {
  /** Every literal, longest first: a match is the longest literal starting at its position. */
  readonly #trigger: RegExp | null;
  /** Each literal's secrets, including those of the literals that are its prefixes (hidden behind it at the same position). */
  readonly #secretsByLiteral = new Map<string, Set<string>>();
  /** Secrets with no plain anchor: candidates in every text. */
  readonly #always: string[] = [];
  readonly #matchers = new Map<string, RegExp>();

  constructor(secrets: Iterable<string>) {
    const direct = new Map<string, Set<string>>();
    const note = (literal: string, secret: string) => {
      const set = direct.get(literal) ?? new Set<string>();
      set.add(secret);
      direct.set(literal, set);
    };
    for (const secret of secrets) {
      const anchor = plainAnchor(secret);
      if (anchor === undefined) this.#always.push(secret);
      else note(anchor, secret);
      for (const b64 of base64Spellings(secret)) note(b64, secret);
    }
    const literals = [...direct.keys()].sort((a, b) => b.length - a.length);
    for (const literal of literals) {
      const all = new Set<string>();
      for (let end = 1; end <= literal.length; end++) for (const s of direct.get(literal.slice(0, end)) ?? []) all.add(s);
      this.#secretsByLiteral.set(literal, all);
    }
    this.#trigger = literals.length === 0 ? null : new RegExp(literals.map(escapeRegExp).join("|"), "g");
  }

  /** A global pattern for every spelling of every secret `text` may hold, or null when it holds none. */
  matcherFor(text: string): RegExp | null {
    const candidates = new Set(this.#always);
    const trigger = this.#trigger;
    if (trigger !== null) {
      // Each search starts one character after the last hit, so literals that overlap it are found too.
      trigger.lastIndex = 0;
      for (let match = trigger.exec(text); match !== null; match = trigger.exec(text)) {
        for (const s of this.#secretsByLiteral.get(match[0])!) candidates.add(s);
        trigger.lastIndex = match.index + 1;
      }
    }
    if (candidates.size === 0) return null;
    // Longest first so a secret that contains another is replaced whole.
    const ordered = [...candidates].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
    const key = JSON.stringify(ordered);
    let matcher = this.#matchers.get(key);
    if (matcher === undefined) {
      if (this.#matchers.size >= MAX_CACHED_MATCHERS) this.#matchers.clear();
      matcher = new RegExp(ordered.map(secretPattern).join("|"), "g");
      this.#matchers.set(key, matcher);
    }
    return matcher;
  }
}
