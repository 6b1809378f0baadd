// What the worker needs to ask the guard and remember its answers: request
// shapes, host canonicalisation, the proxy's question and the decision cache.
// Nothing here decides; the policy lives in shared/guard/policy/ (daemon side only).
export {
  CachedGuard,
  DecisionCache,
  decisionCacheKey,
  readGuardAnswer,
  GUARD_CACHE_DEFAULT_MAX_ENTRIES,
  GUARD_CACHE_MAX_TTL_MS,
  NEVER_CACHED_RESOURCE_TYPES,
  type CachedGuardOptions,
  type DecisionCacheOptions,
  type GuardAsk,
} from "./decision-cache.js";
export { proxyTarget, type ProxyTarget } from "./target-url.js";
export { hostForUrl, normalizeHost, type HostKind, type HostParse, type NormalizedHost } from "./host-normalize.js";
export { describeError, MAX_REASON_LENGTH, validateDetails } from "./request-details.js";
export { GUARD_LAYERS, type GuardAnswer, type GuardLayer, type PolicyDecision, type RequestDetails } from "./types.js";
