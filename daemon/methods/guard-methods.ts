// guard.check (worker pipe) and policy.check (socket). Both ask the daemon's
// guard service only: neither starts a worker or a browser.
import { GuardCheck, PolicyCheck } from "../../shared/protocol/methods/index.js";
import type { MethodRegistry } from "../../shared/protocol/rpc.js";
import type { GuardService } from "../guard/guard-service.js";

interface HasGuard {
  readonly guard: GuardService;
}

/** The worker's question about one request; any failure is a denial the worker must not cache. */
export function registerGuardWorkerMethods(registry: MethodRegistry<void>, daemon: HasGuard): void {
  registry.define(GuardCheck, (params) => daemon.guard.check(params.url, params.details));
}

/** A client's dry run of the policy, with optional overrides and per-address decisions. */
export function registerGuardMethods<C>(registry: MethodRegistry<C>, daemon: HasGuard): void {
  registry.define(PolicyCheck, (params) => daemon.guard.dryRun(params.url, { overrides: params.policy, resolve: params.resolve }));
}
