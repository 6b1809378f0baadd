// The daemon's host code run inside a client process (`--no-daemon`, library
// `daemon: false`): the same sessions, worker and services, reached over an
// in-memory stream instead of the socket. Loaded only through the one
// dynamic import in client/library/in-process.ts; like daemon/main.ts, it is
// an entry point, and hands the process's environment to what it builds.
import type { Duplex } from "node:stream";
import type { DaemonBootstrap } from "../shared/bootstrap.js";
import { probeContainment } from "../shared/containment.js";
import type { NetworkPolicy } from "../shared/guard/policy/index.js";
import { composeDaemon } from "./compose.js";

export interface InProcessHost {
  stream: Duplex;
  stop(): Promise<void>;
}

/** `policy`: a NetworkPolicy with a custom hook, which cannot cross to a daemon process. */
export async function startInProcessHost(bootstrap: DaemonBootstrap, policy?: NetworkPolicy): Promise<InProcessHost> {
  const env = process.env;
  const containment = await probeContainment({ env });
  const daemon = composeDaemon({ bootstrap, serving: false, policy: policy ?? bootstrap.settings.policy, containment, env, now: Date.now });
  await daemon.start();
  return { stream: daemon.connectInMemory(), stop: () => daemon.requestStop("in-process host closed") };
}
