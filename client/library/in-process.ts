// The in-process mode: daemon code loaded into the client, through the one
// dynamic import of client/daemon-code.ts, so the CLI's normal path never pays for it.
import { daemonSettingsOf, type ResolvedConfig } from "../../shared/config.js";
import { layoutFor } from "../../shared/paths.js";
import type { NetworkPolicy } from "../../shared/guard/policy/index.js";
import { BwError, isErrorCode } from "../../shared/protocol/errors.js";
import { Hello } from "../../shared/protocol/methods/index.js";
import { RpcClient } from "../../shared/protocol/rpc-client.js";
import { PACKAGE_VERSION, PROTOCOL_VERSION } from "../../shared/version.js";
import type { DaemonConnection } from "./daemon-client.js";
import { loadInProcessHost } from "../daemon-code.js";

export interface InProcessConnection extends DaemonConnection {
  stop(): Promise<void>;
}

/** `policy`: a NetworkPolicy with a custom hook, run by the host in this process. */
export async function connectInProcess(config: ResolvedConfig, policy?: NetworkPolicy, serveNames = false): Promise<InProcessConnection> {
  const { settings } = config;
  const { startInProcessHost } = await loadInProcessHost();
  const host = await startInProcessHost({
    home: settings.home,
    profile: settings.profile,
    settings: daemonSettingsOf(settings),
    defaultTimeoutMs: settings.timeoutMs,
  }, policy).catch((error: unknown) => {
    // The bundled CLI has its own copy of BwError, and this one came from dist/daemon's: rebuild it
    // from its code, as the RPC layer does, so instanceof (and the code, the exit status) holds.
    const code = (error as { code?: unknown } | null)?.code;
    throw isErrorCode(code) && !(error instanceof BwError) ? BwError.from((error as BwError).toJSON()) : error;
  });
  const peer = new RpcClient(host.stream);
  const hello = await peer.call(Hello, { clientVersion: PACKAGE_VERSION, protocol: PROTOCOL_VERSION, settings: {}, inspect: true, ...(serveNames ? { serveNames } : {}) });
  return {
    peer,
    daemon: hello.daemon,
    layout: layoutFor(settings.home, settings.profile),
    stop: async () => {
      peer.close();
      await host.stop();
    },
  };
}
