// The network policy's public surface. The worker needs only `decision-cache.js`
// and `target-url.js`, which hold no policy logic; import those directly there.
export { NetworkPolicy } from "./network-policy.js";
export { answerGuardCheck } from "./guard-answer.js";
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
export {
  classifyHost,
  classifyNormalizedHost,
  embeddedIPv4Candidates,
  isMetadataHost,
  stricterClass,
  LOOPBACK_HOSTNAMES,
  METADATA_HOSTNAMES,
  METADATA_IPV4,
  METADATA_IPV6,
  PRIVATE_NAME_SUFFIXES,
  type HostClass,
  type HostClassification,
  type HostVerdict,
} from "./ip-classify.js";
export { matchesHostPattern, parseHostPattern, parseHostPatterns, type HostPattern } from "./host-pattern.js";
export { MAX_REASON_LENGTH } from "./policy-input.js";
export {
  GUARD_LAYERS,
  type CustomDecision,
  type CustomHook,
  type GuardAnswer,
  type GuardLayer,
  type NetworkPolicyOptions,
  type PolicyDecision,
  type PolicyLike,
  type RequestDetails,
  type SerializablePolicyOptions,
} from "./types.js";
