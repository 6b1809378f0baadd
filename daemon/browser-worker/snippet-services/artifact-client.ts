// The worker's client of the daemon's quota service (artifacts.reserve and
// artifacts.commit over the worker's pipe), and what its answers become.
import {
  ArtifactsCommit, ArtifactsReserve,
  type CommitResult, type ParamsOf, type ReserveResult,
} from "../../../shared/protocol/methods/index.js";
import type { RpcPeer } from "../../../shared/protocol/rpc.js";

export { evictionWarnings } from "../../../shared/protocol/methods/artifacts.js";

const ARTIFACT_CALL_TIMEOUT_MS = 15_000;
/** After the run's budget: the daemon's reply grace, then the attach window. */
export const PIN_AFTER_RUN_MS = 5_000 + 60_000;

export interface ArtifactClient {
  reserve(params: ParamsOf<typeof ArtifactsReserve>): Promise<ReserveResult>;
  commit(params: ParamsOf<typeof ArtifactsCommit>): Promise<CommitResult | { discarded: true }>;
}

export function daemonArtifactClient(daemon: RpcPeer<void>): ArtifactClient {
  return {
    reserve: (params) => daemon.call(ArtifactsReserve, params, ARTIFACT_CALL_TIMEOUT_MS),
    commit: (params) => daemon.call(ArtifactsCommit, params, ARTIFACT_CALL_TIMEOUT_MS),
  };
}
