// daemon.hello / daemon.status / daemon.shutdown.
import { BwError } from "../../shared/protocol/errors.js";
import { Hello, Shutdown, Status, type DaemonIdentity, type StatusResult } from "../../shared/protocol/methods/index.js";
import type { MethodRegistry } from "../../shared/protocol/rpc.js";
import { PACKAGE_VERSION, PROTOCOL_VERSION } from "../../shared/version.js";
import { settingsDifferences, type StatedSettings } from "../../shared/settings-diff.js";
import type { ClientConnection } from "./connection.js";

/** The daemon as its own methods see it: who it is, how it is, and a way to stop it. */
export interface DaemonControl {
  identity(): DaemonIdentity;
  /** No session, and no run queued or in flight: a client with other settings may replace it. */
  idle(): boolean;
  status(probeEndpoints: boolean): Promise<StatusResult>;
  requestStop(reason: string): Promise<void>;
}

export function registerDaemonMethods(registry: MethodRegistry<ClientConnection>, daemon: DaemonControl): void {
  registry.define(Hello, (params, connection) => {
    connection.greeted = true;
    connection.serveNames = params.serveNames === true;
    const identity = daemon.identity();
    const idle = daemon.idle();
    const reasons: string[] = [];
    if (params.protocol !== PROTOCOL_VERSION) reasons.push(`protocol ${PROTOCOL_VERSION} (client speaks ${params.protocol})`);
    if (params.clientVersion !== PACKAGE_VERSION) reasons.push(`version ${PACKAGE_VERSION} (client is ${params.clientVersion})`);
    const settingDiffs = settingsDifferences(identity.settings, params.settings as StatedSettings);
    reasons.push(...settingDiffs);
    if (reasons.length === 0 || params.inspect === true) return { status: "ok" as const, daemon: identity };
    if (idle) {
      daemon.requestStop(`replaced by a client with ${reasons.join("; ")}`);
      return { status: "replacing" as const, daemon: identity, reason: reasons.join("; ") };
    }
    if (settingDiffs.length === 0 && params.protocol === PROTOCOL_VERSION) {
      // Another version that speaks the same protocol may share a busy daemon.
      return { status: "ok" as const, daemon: identity };
    }
    const profileFlag = identity.profile === "default" ? "" : ` --profile ${identity.profile}`;
    throw new BwError(
      "CONFIG_MISMATCH",
      `the running daemon (pid ${identity.pid}) has live sessions and different settings: ${reasons.join("; ")}. ` +
        `Run without those settings, stop it with \`betterwright${profileFlag} close --all\`, or use --no-daemon for a one-shot private browser.`,
      { details: { differences: reasons } },
    );
  });

  registry.define(Status, (params) => daemon.status(params?.probeEndpoints === true));

  registry.define(Shutdown, () => {
    daemon.requestStop("daemon.shutdown requested");
    return { ok: true as const };
  });
}
