// The snippet's service globals, each a thin client of a daemon service over
// the worker's pipe. One line per domain.
import type { RpcPeer } from "../../../shared/protocol/rpc.js";
import type { WorkerInit } from "../../../shared/protocol/methods/index.js";
import type { ScopeFunction } from "../facades/scope-functions.js";
import type { WorkerArtifacts } from "./artifacts.js";
import { credentialFunctions } from "./credentials.js";

export interface WorkerServices {
  /** The daemon, for guard, vault and artifact requests. */
  daemon: RpcPeer<void>;
  init: WorkerInit;
  log: (line: string) => void;
  /** screenshot, artifactPath, waitForDownload (the same object guards the browser's downloads). */
  artifacts?: WorkerArtifacts;
}

export function scopeFunctions(services: WorkerServices): ScopeFunction[] {
  return [
    ...credentialFunctions(services.daemon),
    ...(services.artifacts?.scopeFunctions() ?? []),
  ];
}
