// The package's public surface.
// Node's types come with the package (@types/node is a dependency): the API takes signals and environments.
/// <reference types="node" preserve="true" />
export { BetterWright, type BetterWrightOptions, type RunOptions, type CreateSessionOptions } from "./library/betterwright.js";
export type { StateApi } from "./library/state-api.js";
export type { SessionCreateResult, StateInfo, StateListing, StateSaveResult } from "../shared/protocol/methods/index.js";
export type { Geolocation, SessionSettings, Viewport } from "../shared/session-settings.js";
export { BwError, ERROR_CODES, type ErrorCode } from "../shared/protocol/errors.js";
export type { Envelope, OkEnvelope, FailedEnvelope, EnvelopeBase, PageInfo, ConsoleEntry, ArtifactInfo, Warning } from "../shared/protocol/envelope.js";
export { NetworkPolicy } from "../shared/guard/policy/index.js";
export type { CustomHook, NetworkPolicyOptions, PolicyDecision, RequestDetails } from "../shared/guard/policy/index.js";
export type { PolicyCheckResult, AddressDecision } from "../shared/protocol/methods/index.js";
export type { VaultApi, VaultAddInput, VaultUpdateInput } from "./library/vault-api.js";
export type { VaultAuditRecord, VaultEntryInfo, VaultEntrySecret } from "../shared/protocol/methods/index.js";
export type { ArtifactScope } from "./library/betterwright.js";
export type { ArtifactListing, ArtifactEntry, PruneResult } from "../shared/protocol/methods/index.js";
export type { DownloadOutcome } from "../shared/protocol/envelope.js";
export type { OpOptions } from "./library/betterwright.js";
export { OPERATIONS } from "../shared/protocol/operations/index.js";
export type { OperationArgs, OperationName, OperationResult, Target, FormField } from "../shared/protocol/operations/index.js";
export type * from "../shared/protocol/operations/results.js";
