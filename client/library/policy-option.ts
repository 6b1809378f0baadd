// The library's `policy` option. A serialisable NetworkPolicy (or its options)
// becomes the daemon's policy settings, stated explicitly so that it is part of
// the daemon's config signature. A policy with a custom hook (or a subclass)
// cannot cross to a daemon process: it runs the host in this process instead.
import type { PolicySettings, ResolvedConfig } from "../../shared/config.js";
import { BwError } from "../../shared/protocol/errors.js";
import { NetworkPolicy, type NetworkPolicyOptions, type PolicyPresetName } from "../../shared/guard/policy/index.js";

/** A NetworkPolicy, its options, or a preset's name (`"public-web"`, `"default"`). */
export type PolicyOption = NetworkPolicy | NetworkPolicyOptions | PolicyPresetName;

function policyOf(option: PolicyOption): NetworkPolicy {
  if (typeof option === "string") return NetworkPolicy.preset(option);
  return option instanceof NetworkPolicy ? option : new NetworkPolicy(option);
}

function needsThisProcess(policy: NetworkPolicy): boolean {
  return policy.custom !== undefined || Object.getPrototypeOf(policy) !== NetworkPolicy.prototype;
}

function settingsOf(policy: NetworkPolicy): PolicySettings {
  const { allowLoopback, allowPrivateNetwork, allowHosts, blockHosts, onlyPorts } = policy.describe();
  return { allowLoopback, allowPrivateNetwork, allowHosts: [...allowHosts], blockHosts: [...blockHosts], onlyPorts: [...onlyPorts] };
}

/** The serialisable settings of a policy option; INVALID_ARGUMENT for a bad entry or a hook. */
export function policySettingsOf(option: PolicyOption): PolicySettings {
  const policy = policyOf(option);
  if (needsThisProcess(policy)) {
    throw new BwError("INVALID_ARGUMENT", "a NetworkPolicy with a custom hook (or a subclass) cannot be sent to a daemon process; it runs with daemon: false");
  }
  return settingsOf(policy);
}

/**
 * Applies the option like a flag (it beats config.json and the environment).
 * Returns the policy itself when it must run in this process, and switches the
 * configuration to the in-process host; `daemon: true` with such a policy is refused.
 */
export function applyPolicyOption(config: ResolvedConfig, option: PolicyOption, daemon?: boolean): NetworkPolicy | undefined {
  const policy = policyOf(option);
  const local = needsThisProcess(policy);
  if (local && daemon === true) {
    throw new BwError("INVALID_ARGUMENT", "a NetworkPolicy with a custom hook (or a subclass) cannot run in the profile's daemon: a function cannot cross processes; leave `daemon` unset or pass daemon: false");
  }
  const settings = settingsOf(policy);
  config.settings.policy = settings;
  config.explicit.policy = settings;
  config.statedPolicy = { ...settings };
  if (!local) return undefined;
  config.settings.noDaemon = true;
  return policy;
}
