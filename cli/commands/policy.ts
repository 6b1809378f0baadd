// betterwright policy check URL [--resolve] [policy flags] [--json]
// Asks the profile daemon's guard service (starting the daemon if needed, never
// a browser). Policy settings this call states are applied over the daemon's
// policy for this answer only; they never replace or reconfigure the daemon.
import type { Argv } from "yargs";
import type { PolicyCheckResult } from "../../client/index.js";
import type { ResolvedConfig } from "../../shared/config.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { EXIT, printJson, wantsJson } from "../output.js";
import { safeLine } from "../../shared/safe-text.js";

interface PolicyCheckArgs extends GlobalArgs {
  url: string;
  resolve?: boolean;
}

/**
 * Greets the daemon without stating a policy, so a dry run never replaces it or
 * trips CONFIG_MISMATCH; a daemon it has to start gets config.json and the
 * environment's policy, never this call's flags.
 */
function withoutStatedPolicy(config: ResolvedConfig): ResolvedConfig {
  const explicit = { ...config.explicit };
  delete explicit.policy;
  const { statedPolicy: _stated, ...rest } = config;
  void _stated;
  return { ...rest, explicit };
}

function describePolicy(policy: PolicyCheckResult["policy"]): string {
  const loopback = policy.allowLoopback || policy.allowPrivateNetwork ? "allowed" : "blocked";
  const parts = [`loopback ${loopback}`, `private network ${policy.allowPrivateNetwork ? "allowed" : "blocked"}`];
  if (policy.allowHosts.length > 0) parts.push(`allowHosts ${policy.allowHosts.join(", ")}`);
  if (policy.blockHosts.length > 0) parts.push(`blockHosts ${policy.blockHosts.join(", ")}`);
  if (policy.onlyPorts?.length) parts.push(`ports ${policy.onlyPorts.join(", ")} only`);
  if (policy.custom) parts.push("custom hook");
  return parts.join("; ");
}

export function renderPolicyCheck(result: PolicyCheckResult): string {
  const lines = [safeLine`${result.allowed ? "allowed" : "blocked"}  ${result.url}`, safeLine`  reason: ${result.reason}`];
  if (result.resolved) {
    if (result.resolved.error) lines.push(safeLine`  ${result.resolved.error}`);
    else lines.push(safeLine`  ${result.resolved.host} resolves to:`);
    for (const a of result.resolved.addresses) lines.push(safeLine`    ${a.allowed ? "allowed" : "blocked"}  ${a.address}  (${a.reason})`);
  }
  lines.push(safeLine`  policy: ${describePolicy(result.policy)}`);
  return `${lines.join("\n")}\n`;
}

function checkCommand(ctx: CliInvocation) {
  return {
    command: "check <url>",
    describe: "Show the policy's decision for a URL (no browser is started)",
    builder: (y: Argv<GlobalArgs>) =>
      y
        .positional("url", { type: "string", demandOption: true, describe: "The URL to judge" })
        .option("resolve", { type: "boolean", describe: "Also resolve the host and judge every address, as the guard proxy does" })
        .example("$0 policy check http://169.254.169.254/", "The metadata floor: always blocked")
        .example("$0 policy check https://intranet.lan --block-private-network --resolve", "A dry run of a hardened policy"),
    handler: (args: PolicyCheckArgs) => ctx.run(async () => {
      const config = ctx.config(args);
      const base = ctx.config({ ...args, policy: undefined, "block-private-network": undefined, "block-loopback": undefined, "allow-host": undefined, "block-host": undefined });
      const bw = ctx.client(withoutStatedPolicy(base));
      try {
        const result = await bw.checkUrl(args.url, {
          ...(args.resolve ? { resolve: true } : {}),
          ...(config.statedPolicy && Object.keys(config.statedPolicy).length > 0 ? { policy: config.statedPolicy } : {}),
        });
        if (wantsJson(args)) printJson(result);
        else process.stdout.write(renderPolicyCheck(result));
        return result.allowed ? EXIT.ok : EXIT.failed;
      } finally {
        await bw.close();
      }
    }, args.json),
  };
}

export function policyCommand(ctx: CliInvocation) {
  return {
    command: "policy",
    describe: "Dry-run the network policy (policy check URL)",
    builder: (y: Argv<GlobalArgs>) => y.command(checkCommand(ctx)).demandCommand(1, "name a policy command: check"),
    handler: () => {},
  };
}
