// artifacts.list / artifacts.prune: the owner's view of the quota service on
// the socket. Served by the daemon alone; never starts the worker or a browser.
import { ArtifactsList, ArtifactsPrune } from "../../shared/protocol/methods/index.js";
import type { MethodRegistry } from "../../shared/protocol/rpc.js";
import type { ArtifactService } from "../artifacts/artifact-service.js";
import type { ClientConnection } from "./connection.js";

export function registerArtifactMethods(registry: MethodRegistry<ClientConnection>, daemon: { artifacts: Pick<ArtifactService, "list" | "prune"> }): void {
  registry.define(ArtifactsList, (params) => daemon.artifacts.list(params));
  registry.define(ArtifactsPrune, (params) => daemon.artifacts.prune(params));
}
