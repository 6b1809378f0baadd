// The network policy's public surface (daemon and client side). The worker
// never imports this folder: what it needs to ask and cache is in shared/guard/questions/.
export { NetworkPolicy } from "./network-policy.js";
export { isPolicyPreset, policyPreset, postureName, POLICY_PRESET_NAMES, POLICY_PRESETS, type PolicyPosture, type PolicyPresetName } from "./presets.js";
export { answerGuardCheck } from "./guard-answer.js";
export { hostForUrl, normalizeHost, type HostKind, type HostParse, type NormalizedHost } from "../questions/host-normalize.js";
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
