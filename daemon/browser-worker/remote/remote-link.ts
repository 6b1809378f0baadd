// The remote pool as the worker's entry point makes it: every connection to an
// endpoint, every header and every proxy credential comes from the daemon.
import { RemoteDial, RemoteHeaders, GuardRemoteLease, GuardRemoteRelease, type WorkerRemoteInit } from "../../../shared/protocol/methods/index.js";
import type { RpcPeer } from "../../../shared/protocol/rpc.js";
import { inboxFor, type HandleChannel } from "../guard/proxy/daemon-connect.js";
import { RemotePool } from "./remote-pool.js";

const REMOTE_CALL_TIMEOUT_MS = 30_000;

export function remotePoolFor(init: WorkerRemoteInit, daemon: RpcPeer<void>, channel: HandleChannel, log: (line: string) => void, onLost: (sessions: string[]) => void): RemotePool {
  const inbox = inboxFor(channel);
  return new RemotePool(init, {
    dial: async (endpoint) => {
      const { ticket } = await daemon.call(RemoteDial, { endpoint }, REMOTE_CALL_TIMEOUT_MS);
      const socket = await inbox.take(ticket);
      if (!socket) throw new Error("the daemon's connection to the endpoint did not arrive");
      return socket;
    },
    headers: async (endpoint) => (await daemon.call(RemoteHeaders, { endpoint }, REMOTE_CALL_TIMEOUT_MS)).headers,
    lease: (session) => daemon.call(GuardRemoteLease, { session }, REMOTE_CALL_TIMEOUT_MS),
    release: (leaseId) => void daemon.call(GuardRemoteRelease, { leaseId }, REMOTE_CALL_TIMEOUT_MS).catch(() => {}),
    log,
    onLost,
  });
}
