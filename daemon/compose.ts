// The daemon's composition root: its services built once, from the settings,
// the clock, the logger and the environment its entry point hands in
// (daemon/main.ts, or daemon/in-process.ts in a client's own process). Each
// service and method file gets what it uses, never the daemon itself.
import path from "node:path";
import type { DaemonBootstrap } from "../shared/bootstrap.js";
import { ARTIFACT_DEFAULTS, LIMIT_DEFAULTS, STATE_DEFAULTS, type PolicySettings } from "../shared/config.js";
import { laneLimitsOf } from "../shared/config-limits.js";
import type { ContainmentStatus } from "../shared/containment.js";
import type { NetworkPolicy } from "../shared/guard/policy/index.js";
import { prepareHome } from "../shared/home-check.js";
import { layoutFor, type HomeLayout } from "../shared/paths.js";
import { WorkerRemoteRefused } from "../shared/protocol/methods/index.js";
import { MethodRegistry } from "../shared/protocol/rpc.js";
import { REMOTE_DEFAULTS, remoteUsesTls } from "../shared/remote-config.js";
import { ArtifactService } from "./artifacts/artifact-service.js";
import { Daemon, type DaemonServices } from "./daemon.js";
import { GuardService } from "./guard/guard-service.js";
import { RemoteBrowsers } from "./guard/remote-browsers.js";
import { Logger } from "./log.js";
import { registerWorkerMethods } from "./methods/worker-methods.js";
import { ProfileFolders } from "./profile-folders.js";
import { SessionContexts } from "./sessions/session-contexts.js";
import { SessionRecords } from "./sessions/session-records.js";
import { SessionRegistry } from "./sessions/sessions.js";
import { StateStore } from "./states/state-store.js";
import { planFor, withContainmentWarning } from "./supervisor/containment.js";
import { spawnWorker } from "./supervisor/spawn.js";
import { WorkerSupervisor } from "./supervisor/supervisor.js";
import { VaultService } from "./vault/service.js";

export interface Composition {
  bootstrap: DaemonBootstrap;
  /** false: the in-process host: no socket, no idle exit, a log of its own, an ephemeral profile when the profile is locked. */
  serving: boolean;
  /** The guard's rules: the settings', or (in-process only) a NetworkPolicy with a custom hook. */
  policy: PolicySettings | NetworkPolicy;
  /** Whether the worker can be contained, asked once by the entry point. */
  containment: ContainmentStatus;
  /** The environment of the daemon's process: remote endpoints' header secrets, and what its worker starts with. */
  env: NodeJS.ProcessEnv;
  now: () => number;
}

export function composeDaemon(composition: Composition): Daemon {
  const { bootstrap, serving, now } = composition;
  const layout = layoutFor(bootstrap.home, bootstrap.profile);
  // Another user's home, or one others can write, could hand our socket, logs and files to them.
  prepareHome(layout);
  const log = new Logger(serving ? layout.logPath : path.join(layout.home, `inprocess-${process.pid}.log`));
  const folders = new ProfileFolders(layout);
  const services = buildServices(composition, layout, log, folders);
  return new Daemon({ layout, settings: bootstrap.settings, defaultTimeoutMs: bootstrap.defaultTimeoutMs, serving, containment: composition.containment, now, log, folders }, services);
}

function buildServices({ bootstrap: { settings }, policy, containment, env, now }: Composition, layout: HomeLayout, log: Logger, folders: ProfileFolders): DaemonServices {
  const write = (line: string) => log.write(line);
  const vault = new VaultService({ home: layout.home, now });
  log.setRedaction(vault.filterLogLine);
  const guard = new GuardService(policy, { log: write });
  const artifacts = new ArtifactService({
    artifactsRoot: layout.artifactsRoot,
    profile: layout.profile,
    caps: settings.artifacts ?? ARTIFACT_DEFAULTS,
    log: write,
    now,
  });
  const remote = new RemoteBrowsers(settings.remote ?? REMOTE_DEFAULTS, {
    connect: (host, port) => guard.connect(host, port),
    vaultSecret: async (id) => (await vault.show(id)).password,
    redact: (secret) => vault.redactor.add(secret),
    // The session's runs in flight list it as blocked, as they do the local proxy's refusals.
    refused: (session, url, refusal, reason) => {
      void worker.current()?.call(WorkerRemoteRefused, { session, url, reason, ...(refusal === "dns" ? { unresolved: true } : {}) }).catch(() => {});
    },
    env,
    log: write,
  });
  const remoteInit = remote.workerInit();
  const browser = { explicit: settings.browser, headless: settings.headless, stealth: settings.stealth === true };
  const worker: WorkerSupervisor = new WorkerSupervisor(
    () => ({
      browser: settings.browser,
      headless: settings.headless,
      ...(settings.stealth ? { stealth: true } : {}),
      ...folders.worker(),
      routeRequests: guard.settings.custom === true,
      limits: laneLimitsOf({ ...LIMIT_DEFAULTS, ...settings.limits }),
      ...(remoteInit ? { remote: remoteInit } : {}),
    }),
    (link) => {
      const registry = new MethodRegistry<void>();
      registerWorkerMethods(registry, { guard, vault, remote, artifacts, workerBlocked: (session, blockedMs) => worker.blocked(session, blockedMs) }, link);
      return registry;
    },
    write,
    () => spawnWorker(planFor(layout, folders.worker(), browser, containment, env, remoteUsesTls(settings.remote))),
  );
  const stateCaps = settings.states ?? STATE_DEFAULTS;
  const states = new StateStore({ home: layout.home, profile: layout.profile, caps: stateCaps });
  const sessions = new SessionRegistry({
    layout,
    worker,
    now,
    finishEnvelope: (envelope, outcome) => artifacts.finishEnvelope(withContainmentWarning(envelope, containment), outcome),
    filterOutput: vault.filterOutput,
    limits: settings.limits ?? LIMIT_DEFAULTS,
    contexts: new SessionContexts(states, stateCaps, write),
    records: new SessionRecords(write),
  });
  return { vault, guard, artifacts, states, remote, worker, sessions };
}
