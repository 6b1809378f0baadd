// What the worker may ask of the daemon while a snippet runs: a small fixed
// set (guard checks, vault fill/list/generate, artifact reservations). Owner
// methods never appear here; this registry is all the worker's pipe reaches.
import { ArtifactsCommit, ArtifactsReserve, WorkerBlocked } from "../../shared/protocol/index.js";
import type { MethodRegistry } from "../../shared/rpc.js";
import type { Daemon } from "../daemon.js";
import { registerGuardWorkerMethods } from "./guard-methods.js";
import { registerVaultWorkerMethods } from "./vault-methods.js";

export function registerWorkerMethods(registry: MethodRegistry<void>, daemon: Daemon): void {
  registerGuardWorkerMethods(registry, daemon);
  registerVaultWorkerMethods(registry, daemon);
  registry.define(ArtifactsReserve, (params) => daemon.artifacts.reserve(params));
  registry.define(ArtifactsCommit, (params) => daemon.artifacts.commit(params));
  registry.define(WorkerBlocked, (params) => {
    daemon.workerBlocked(params.session, params.blockedMs);
    return null;
  });
}
