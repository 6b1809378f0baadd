// The final net: every value the vault has handled is replaced by REDACTED in
// anything headed for a model, a transcript or a log, including its obvious
// encodings. Invariant: over its bound it fails closed (throws), never passes
// text through unredacted.
import { BwError } from "../../shared/errors.js";

export const REDACTED = "[REDACTED]";
export const DEFAULT_MAX_SECRETS = 1024;
/** Base64 fragments shorter than this are too likely to occur by chance in ordinary text. */
const MIN_BASE64_FRAGMENT_CHARS = 6;

export interface RedactorOptions {
  maxSecrets?: number;
}

/** The spellings of `secret` redaction looks for: raw, JSON-escaped, URL- and form-encoded, HTML-escaped, base64. */
export function secretVariants(secret: string): string[] {
  if (secret === "") return [];
  const variants = new Set<string>([secret]);
  variants.add(JSON.stringify(secret).slice(1, -1));
  const uri = encodeURIComponent(secret);
  variants.add(uri);
  variants.add(uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  variants.add(uri.replace(/%20/g, "+"));
  // HTML forms encode more than encodeURIComponent does (! ' ( ) ~ among them).
  const form = new URLSearchParams({ v: secret }).toString().slice(2);
  variants.add(form);
  variants.add(form.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  variants.add(
    secret.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c),
  );
  for (const b64 of base64Variants(Buffer.from(secret, "utf8"))) {
    variants.add(b64);
    variants.add(b64.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  variants.delete("");
  return [...variants];
}

/**
 * The whole unpadded encoding, plus, for each of the three byte alignments the
 * secret can have inside a longer encoded blob, the run of characters that
 * depends on the secret's bytes alone.
 */
function base64Variants(bytes: Buffer): string[] {
  const out = [bytes.toString("base64").replace(/=+$/, "")];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (core.length >= MIN_BASE64_FRAGMENT_CHARS) out.push(core);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

export class Redactor {
  readonly maxSecrets: number;
  readonly #secrets = new Set<string>();
  #pattern: RegExp | null = null;
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
    this.#pattern = null;
  }

  redactString(text: string): string {
    const pattern = this.#compiled();
    if (pattern === null) return text;
    pattern.lastIndex = 0;
    return text.replace(pattern, REDACTED);
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

  #compiled(): RegExp | null {
    if (this.#overflowed) throw this.#overflowError();
    if (this.#secrets.size === 0) return null;
    if (this.#pattern === null) {
      const variants = new Set<string>();
      for (const secret of this.#secrets) for (const variant of secretVariants(secret)) variants.add(variant);
      // Longest first so a secret that contains another is replaced whole.
      const sorted = [...variants].sort((a, b) => b.length - a.length).map(escapeRegExp);
      this.#pattern = new RegExp(sorted.join("|"), "g");
    }
    return this.#pattern;
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
