// The worker's short-lived memory of guard answers, so a page pulling hundreds
// of subresources does not cost a round trip each. It holds no policy: the
// daemon says whether an answer may be cached (`cacheable`, true only for a
// stock policy), and this module only decides what may be looked up.
// Rules: at most 5 s; keyed by scheme + host + port (+ the name an address was
// resolved from); navigations, documents, downloads and WebSockets are never
// cached; a failure denies and is never cached; a non-cacheable answer flushes.
import { BwError } from "../../protocol/errors.js";
import { normalizeHost } from "./host-normalize.js";
import { describeError, validateDetails } from "./request-details.js";
import type { GuardAnswer, PolicyDecision, RequestDetails } from "./types.js";

export const GUARD_CACHE_MAX_TTL_MS = 5_000;
export const GUARD_CACHE_DEFAULT_MAX_ENTRIES = 2_048;

/** Requests whose answer may depend on more than the host: always asked. */
export const NEVER_CACHED_RESOURCE_TYPES: readonly string[] = Object.freeze(["document", "download", "websocket"]);

// ws: and wss: are upgrades, which are never cached; every other scheme never reaches the network.
const CACHEABLE_SCHEMES: Readonly<Record<string, number>> = Object.freeze({ "http:": 80, "https:": 443 });

/** The cache key for a check, or undefined when this check must always reach the policy. */
export function decisionCacheKey(url: string, details: RequestDetails | undefined): string | undefined {
  const checked = validateDetails(details);
  if (typeof checked === "string") return undefined;
  if (checked.isNavigation === true) return undefined;
  if (checked.resourceType !== undefined && NEVER_CACHED_RESOURCE_TYPES.includes(checked.resourceType)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const defaultPort = CACHEABLE_SCHEMES[parsed.protocol];
  if (defaultPort === undefined || parsed.hostname === "") return undefined;
  const port = parsed.port === "" ? defaultPort : Number(parsed.port);
  let key = `${parsed.protocol}//${parsed.hostname}:${port}`;
  if (checked.resolvedFrom !== undefined) {
    // The same address reached through two names can be decided differently (allowHosts by name).
    const from = normalizeHost(checked.resolvedFrom);
    if (!from.ok) return undefined;
    key += ` from ${from.value.host}`;
  }
  return key;
}

export interface DecisionCacheOptions {
  /** Milliseconds; injected so tests control expiry. */
  now?: () => number;
  ttlMs?: number;
  maxEntries?: number;
}

function positiveInteger(value: unknown, name: string, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) {
    throw new BwError("INVALID_ARGUMENT", `${name} must be an integer from 1 to ${max}`);
  }
  return value;
}

/** A bounded map of decisions that expire `ttlMs` after they were stored. */
export class DecisionCache {
  readonly ttlMs: number;
  readonly maxEntries: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, { at: number; decision: PolicyDecision }>();

  constructor(options: DecisionCacheOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.ttlMs = positiveInteger(options.ttlMs ?? GUARD_CACHE_MAX_TTL_MS, "ttlMs", GUARD_CACHE_MAX_TTL_MS);
    this.maxEntries = positiveInteger(options.maxEntries ?? GUARD_CACHE_DEFAULT_MAX_ENTRIES, "maxEntries", 1_000_000);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): PolicyDecision | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    const age = this.#now() - entry.at;
    // A clock that went backwards cannot vouch for the entry either.
    if (age < 0 || age >= this.ttlMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.decision;
  }

  set(key: string, decision: PolicyDecision): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.maxEntries) {
      // Map keeps insertion order: the first key is the oldest entry.
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { at: this.#now(), decision: Object.freeze({ allowed: decision.allowed, reason: decision.reason }) });
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** A guard answer as received over RPC, or undefined when it is malformed. */
export function readGuardAnswer(value: unknown): GuardAnswer | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const { allowed, reason, cacheable } = value as Record<string, unknown>;
  if (typeof allowed !== "boolean") return undefined;
  if (reason !== undefined && typeof reason !== "string") return undefined;
  // Only the literal `true` marks an answer cacheable; anything else is treated as "do not".
  return { allowed, reason: reason ?? "", cacheable: cacheable === true };
}

export type GuardAsk = (url: string, details: RequestDetails) => Promise<unknown>;

export interface CachedGuardOptions extends DecisionCacheOptions {
  /** Asks the policy (the daemon's `guard.check`); may reject, which denies. */
  ask: GuardAsk;
}

interface Settled {
  readonly decision: PolicyDecision;
  readonly cacheable: boolean;
}

/** Fronts `ask` with the cache; concurrent checks of one key share a single question. */
export class CachedGuard {
  readonly #ask: GuardAsk;
  readonly #cache: DecisionCache;
  readonly #inflight = new Map<string, Promise<Settled>>();
  // Bumped on every flush, so an answer asked before the flush is not stored after it.
  #generation = 0;

  constructor(options: CachedGuardOptions) {
    if (typeof options?.ask !== "function") throw new BwError("INVALID_ARGUMENT", "CachedGuard needs an ask function");
    this.#ask = options.ask;
    this.#cache = new DecisionCache(options);
  }

  get size(): number {
    return this.#cache.size;
  }

  flush(): void {
    this.#generation += 1;
    this.#cache.clear();
    this.#inflight.clear();
  }

  /** Never rejects: a failed or malformed answer is a denial. */
  async check(url: string, details: RequestDetails): Promise<PolicyDecision> {
    const key = decisionCacheKey(url, details);
    if (key !== undefined) {
      const hit = this.#cache.get(key);
      if (hit !== undefined) return hit;
      const pending = this.#inflight.get(key);
      if (pending !== undefined) {
        const shared = await pending;
        // A non-cacheable answer was meant for that one request; this one asks for itself.
        if (shared.cacheable) return shared.decision;
        return (await this.#settle(url, details, undefined)).decision;
      }
    }
    return (await this.#settle(url, details, key)).decision;
  }

  #settle(url: string, details: RequestDetails, key: string | undefined): Promise<Settled> {
    const generation = this.#generation;
    const run = this.#askOnce(url, details).then((settled) => {
      if (!settled.cacheable) {
        if (!settled.failed) this.flush();
      } else if (key !== undefined && generation === this.#generation) {
        this.#cache.set(key, settled.decision);
      }
      return settled;
    });
    if (key !== undefined) {
      this.#inflight.set(key, run);
      void run.finally(() => {
        if (this.#inflight.get(key) === run) this.#inflight.delete(key);
      });
    }
    return run;
  }

  async #askOnce(url: string, details: RequestDetails): Promise<Settled & { failed: boolean }> {
    let answer: GuardAnswer | undefined;
    try {
      answer = readGuardAnswer(await this.#ask(url, details));
    } catch (error) {
      return { decision: denial(`guard check failed: ${describeError(error)}`), cacheable: false, failed: true };
    }
    if (answer === undefined) {
      return { decision: denial("guard check returned a malformed answer"), cacheable: false, failed: true };
    }
    return { decision: Object.freeze({ allowed: answer.allowed, reason: answer.reason }), cacheable: answer.cacheable, failed: false };
  }
}

function denial(reason: string): PolicyDecision {
  return Object.freeze({ allowed: false, reason });
}
