// The daemon's host code run inside a client process (`--no-daemon`, library
// `daemon: false`): the same sessions, worker and services, reached over an
// in-memory stream instead of the socket. Loaded only through the one
// dynamic import in client/library/in-process.ts.
import type { Duplex } from "node:stream";
import type { DaemonBootstrap } from "../shared/bootstrap.js";
import type { NetworkPolicy } from "../shared/guard/policy/index.js";
import { Daemon } from "./daemon.js";

export interface InProcessHost {
  stream: Duplex;
  stop(): Promise<void>;
}

/** `policy`: a NetworkPolicy with a custom hook, which cannot cross to a daemon process. */
export async function startInProcessHost(bootstrap: DaemonBootstrap, policy?: NetworkPolicy): Promise<InProcessHost> {
  const daemon = new Daemon({ ...bootstrap, serve: false, ...(policy ? { policy } : {}) });
  await daemon.start();
  return { stream: daemon.connectInMemory(), stop: () => daemon.requestStop("in-process host closed") };
}
