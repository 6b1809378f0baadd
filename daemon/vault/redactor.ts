// The final net: every value the vault has handled is replaced by REDACTED in
// anything headed for a model, a transcript or a log, including its obvious
// encodings. Invariant: over its bound it fails closed (throws), never passes
// text through unredacted.
import { BwError } from "../../shared/errors.js";
import { SecretIndex } from "./secret-index.js";

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
  }

  redactString(text: string): string {
    const matcher = this.#compiled()?.matcherFor(text) ?? null;
    return matcher === null ? text : text.replace(matcher, REDACTED);
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

/** One-shot form for callers that hold the secrets themselves. */
export function redactWith<T>(value: T, secrets: Iterable<string>): T {
  const redactor = new Redactor({ maxSecrets: Number.POSITIVE_INFINITY });
  for (const secret of secrets) redactor.add(secret);
  return redactor.redact(value);
}
