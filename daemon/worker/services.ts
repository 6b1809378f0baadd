// The snippet's service globals, each a thin client of a daemon service over
// the worker's pipe. One line per domain.
import type { RpcPeer } from "../../shared/rpc.js";
import type { WorkerInit } from "../../shared/protocol/index.js";
import type { ScopeFunction } from "./sandbox/scope-functions.js";
import type { WorkerArtifacts } from "./services/artifacts.js";
import { credentialFunctions } from "./services/credentials.js";

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
    ...credentialFunctions(services),
    ...(services.artifacts?.scopeFunctions() ?? []),
  ];
}
