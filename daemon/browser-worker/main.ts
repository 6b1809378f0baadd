// Entry point of the worker process. The daemon talks to it over fd 3 (a
// private pipe, JSON-RPC both ways); stdout and stderr go to the daemon's log.
import net from "node:net";
import { errorText, isOwnRealmError } from "../../shared/protocol/error-text.js";
import { BwError } from "../../shared/protocol/errors.js";
import { WorkerCancel, WorkerCloseSession, WorkerCreateSession, WorkerInitialize, WorkerRun, WorkerPing, WorkerSaveState, WorkerAutosaveState, WorkerShutdown, WorkerRemoteRefused, WorkerEndpoints, type WorkerInit } from "../../shared/protocol/methods/index.js";
import { MethodRegistry, RpcPeer } from "../../shared/protocol/rpc.js";
import { BrowserHost } from "./browser-host.js";
import { operationRun } from "./ops/registry.js";
import { loadPlaywright } from "./playwright.js";
import { PlaywrightCodeCache } from "./playwright-code-cache.js";
import { askDaemon, BrowserGuard } from "./guard/browser-guard.js";
import { connectThroughDaemon } from "./guard/proxy/daemon-connect.js";
import { remotePoolFor } from "./remote/remote-link.js";
import { scopeFunctions } from "./snippet-services/index.js";
import { daemonArtifactClient } from "./snippet-services/artifact-client.js";
import { WorkerArtifacts } from "./snippet-services/artifacts.js";
import { Watchdog } from "./watchdog.js";

function log(line: string): void {
  process.stderr.write(`${new Date().toISOString()} worker[${process.pid}] ${line}\n`);
}

function main(): void {
  let host: BrowserHost | undefined;
  const codeCache = PlaywrightCodeCache.forWorker(process.env);
  // After a run's answer has gone out: the cache is written off the caller's path.
  const afterRun = <T>(outcome: T): T => {
    if (codeCache.unsaved) setTimeout(() => codeCache.save(), 0).unref();
    return outcome;
  };
  const ready = (): BrowserHost => {
    if (!host) throw new BwError("INTERNAL_ERROR", "worker.init has not been called");
    return host;
  };
  let peer!: RpcPeer<void>;
  const shutdown = async () => {
    await host?.shutdown().catch((error: Error) => log(`shutdown: ${error.message}`));
    peer.close();
    process.exitCode = 0;
    setImmediate(() => process.exit(0));
  };

  const registry = new MethodRegistry<void>()
    .define(WorkerInitialize, (params) => {
      if (!host) {
        const init = params as WorkerInit;
        const artifacts = new WorkerArtifacts(daemonArtifactClient(peer), init.artifactsDir, log);
        const remote = init.remote ? remotePoolFor(init.remote, peer, process, log, (sessions) => host?.remoteLost(sessions)) : undefined;
        host = new BrowserHost({
          init, env: process.env, log, scopeFunctions: scopeFunctions({ daemon: peer, init, log, artifacts }), onEnter: (session) => watchdog.enter(session),
          guard: new BrowserGuard({ ask: askDaemon(peer), connect: connectThroughDaemon(peer, process), log, routeRequests: init.routeRequests === true }), artifacts, remote,
        });
        // A worker exists only for calls that need the browser: launch it now, while the exec is on its way.
        // A failure here is reported by the first exec, which asks again. Remote browsers are connected on first use.
        if (!remote) host.context().catch(() => {});
      }
      return { ok: true as const };
    })
    .define(WorkerRun, async ({ session, run, budgetMs, runId, approveDownloads }) => {
      if (run.kind === "snippet") return afterRun(await ready().exec(session, run, budgetMs, runId, approveDownloads === true));
      const op = operationRun(run);
      return afterRun(op.finish(await ready().exec(session, { kind: "operation", start: op.start }, budgetMs, runId, approveDownloads === true)));
    })
    .define(WorkerCreateSession, async (p) => {
      await ready().createSession(p.session, p.settings, p.state);
      const placement = ready().placementOf(p.session);
      return { ok: true as const, ...(placement ? { placement } : {}) };
    })
    .define(WorkerRemoteRefused, (p) => {
      ready().noteRemoteRefused(p.session, { url: p.url, layer: "proxy", reason: p.reason, ...(p.unresolved ? { unresolved: true as const } : {}) });
      return null;
    })
    .define(WorkerEndpoints, async (p) => ({ endpoints: await ready().endpoints(p?.probe === true) }))
    .define(WorkerSaveState, (p) => ready().saveState(p.session, p.maxBytes))
    .define(WorkerAutosaveState, (p) => ready().autosaveState(p.session, p.maxBytes))
    .define(WorkerCancel, (p) => ({ cancelled: ready().cancel(p.session, p.runId) }))
    .define(WorkerCloseSession, async (p) => ({ closed: await ready().closeSession(p.session, p.reason) }))
    .define(WorkerPing, () => ({ now: Date.now(), browser: { running: host?.running ?? false } }))
    .define(WorkerShutdown, () => {
      setImmediate(() => void shutdown());
      return { ok: true as const };
    });

  const watchdog = new Watchdog(3);
  const pipe = new net.Socket({ fd: 3, readable: true, writable: true });
  peer = new RpcPeer<void>(pipe, { registry, context: undefined, log });
  // The daemon is gone: nothing can reach this worker any more.
  peer.onClose(() => void shutdown());
  process.on("SIGTERM", () => void shutdown());
  // Snippet code can leave rejections and (through Node's own handling of its values) exceptions behind:
  // they are never read here (errorText), and only an error of our own code ends the worker.
  process.on("unhandledRejection", (reason) => log(`unhandled rejection: ${errorText(reason)}`));
  process.on("uncaughtException", (error) => {
    log(`uncaught exception: ${errorText(error)}`);
    if (isOwnRealmError(error)) process.exit(1);
  });
  // Playwright's load is most of a worker's start: do it now, not at worker.init (the launch would wait for it).
  // A failure here comes back from the launch, which loads it again.
  try {
    codeCache.preload();
    loadPlaywright();
  } catch {
    // reported by the launch
  }
}

main();
