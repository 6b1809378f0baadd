// The package's public surface.
// Node's types come with the package (@types/node is a dependency): the API takes signals and environments.
/// <reference types="node" preserve="true" />
export { BetterWright, type BetterWrightOptions, type RunOptions, type CreateSessionOptions } from "./betterwright.js";
export type { StateApi } from "./state-api.js";
export type { SessionCreateResult, StateInfo, StateListing, StateSaveResult } from "../shared/protocol/index.js";
export type { Geolocation, SessionSettings, Viewport } from "../shared/session-settings.js";
export { BwError, ERROR_CODES, type ErrorCode } from "../shared/errors.js";
export type { Envelope, OkEnvelope, FailedEnvelope, EnvelopeBase, PageInfo, ConsoleEntry, ArtifactInfo, Warning } from "../shared/envelope.js";
export { NetworkPolicy } from "../shared/network-policy/index.js";
export type { CustomHook, NetworkPolicyOptions, PolicyDecision, RequestDetails } from "../shared/network-policy/index.js";
export type { PolicyCheckResult, AddressDecision } from "../shared/protocol/index.js";
export type { VaultApi, VaultAddInput, VaultUpdateInput } from "./vault-api.js";
export type { VaultAuditRecord, VaultEntryInfo, VaultEntrySecret } from "../shared/protocol/index.js";
export type { ArtifactScope } from "./betterwright.js";
export type { ArtifactListing, ArtifactEntry, PruneResult } from "../shared/protocol/index.js";
export type { DownloadOutcome } from "../shared/envelope.js";
export type { OpOptions } from "./betterwright.js";
export { OPERATIONS } from "../shared/operations/index.js";
export type { OperationArgs, OperationName, OperationResult, Target, FormField } from "../shared/operations/index.js";
export type * from "../shared/operations/results.js";
