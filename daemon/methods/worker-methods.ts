// What the worker may ask of the daemon while a snippet runs: a small fixed
// set (guard checks and connections, vault fill/list/generate, artifact
// reservations). Owner methods never appear here; this registry is all the
// worker's pipe reaches. It is made per worker: guard.connect hands the socket
// it dials to the worker that asked.
import { ArtifactsCommit, ArtifactsReserve, GuardConnect, GuardRemoteLease, GuardRemoteRelease, RemoteDial, RemoteHeaders, WorkerBlocked, type GuardConnectResult } from "../../shared/protocol/methods/index.js";
import type { MethodRegistry } from "../../shared/protocol/rpc.js";
import type { ArtifactService } from "../artifacts/artifact-service.js";
import type { GuardService } from "../guard/guard-service.js";
import type { RemoteBrowsers } from "../guard/remote-browsers.js";
import type { VaultService } from "../vault/service.js";
import type { WorkerLink } from "../supervisor/process.js";
import { registerGuardWorkerMethods } from "./guard-methods.js";
import { registerVaultWorkerMethods } from "./vault-methods.js";

/** The daemon's services the worker's pipe reaches, and where its watchdog's reports go. */
export interface WorkerMethodHost {
  readonly guard: GuardService;
  readonly vault: VaultService;
  readonly remote: Pick<RemoteBrowsers, "dial" | "headers" | "lease" | "release">;
  readonly artifacts: Pick<ArtifactService, "reserve" | "commit">;
  workerBlocked(session: string | null, blockedMs: number): void;
}

export function registerWorkerMethods(registry: MethodRegistry<void>, daemon: WorkerMethodHost, link: WorkerLink): void {
  registerGuardWorkerMethods(registry, daemon);
  registerVaultWorkerMethods(registry, daemon);
  registry.define(GuardConnect, async ({ host, port }): Promise<GuardConnectResult> => {
    const outcome = await daemon.guard.connect(host, port);
    if (outcome.kind === "refused") return { connected: false, refusal: outcome.refusal, reason: outcome.reason, checks: outcome.checks };
    if (outcome.kind === "aborted") return { connected: false, refusal: "error", reason: "the connection was abandoned", checks: outcome.checks };
    try {
      const ticket = await link.sendSocket(outcome.socket);
      return { connected: true, ticket, address: outcome.address, checks: outcome.checks };
    } catch (error) {
      return { connected: false, refusal: "error", reason: `the connection could not be handed to the worker: ${(error as Error).message}`, checks: outcome.checks };
    }
  });
  // Remote browsers: the endpoint's socket and headers, and one session's proxy credentials.
  registry.define(RemoteDial, async ({ endpoint }) => ({ ticket: await link.sendSocket(await daemon.remote.dial(endpoint)) }));
  registry.define(RemoteHeaders, async ({ endpoint }) => ({ headers: await daemon.remote.headers(endpoint) }));
  registry.define(GuardRemoteLease, ({ session }) => daemon.remote.lease(session, link));
  registry.define(GuardRemoteRelease, async ({ leaseId }) => {
    await daemon.remote.release(leaseId);
    return null;
  });
  // A worker that dies between a reservation and its commit (killed, crashed) leaves nothing held:
  // what it reserved is dropped when it exits, instead of counting against the caps until it expires.
  const held = new Set<string>();
  link.whenExited(() => {
    for (const reservationId of held) void daemon.artifacts.commit({ reservationId, discard: true }).catch(() => {});
    held.clear();
  });
  registry.define(ArtifactsReserve, async (params) => {
    const reserved = await daemon.artifacts.reserve(params);
    held.add(reserved.reservationId);
    return reserved;
  });
  registry.define(ArtifactsCommit, async (params) => {
    const committed = await daemon.artifacts.commit(params);
    held.delete(params.reservationId);
    return committed;
  });
  registry.define(WorkerBlocked, (params) => {
    daemon.workerBlocked(params.session, params.blockedMs);
    return null;
  });
}
