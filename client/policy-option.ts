// The library's `policy` option: a NetworkPolicy (or its options) becomes the
// daemon's policy settings, stated explicitly so that it is part of the
// daemon's config signature. A custom hook cannot cross to a daemon.
import type { PolicySettings, ResolvedConfig } from "../shared/config.js";
import { BwError } from "../shared/errors.js";
import { NetworkPolicy, type NetworkPolicyOptions } from "../shared/policy/index.js";

export type PolicyOption = NetworkPolicy | NetworkPolicyOptions;

/** The serialisable settings of a policy option; INVALID_ARGUMENT for a bad entry or a hook. */
export function policySettingsOf(option: PolicyOption): PolicySettings {
  const policy = option instanceof NetworkPolicy ? option : new NetworkPolicy(option);
  if (policy.custom !== undefined || Object.getPrototypeOf(policy) !== NetworkPolicy.prototype) {
    throw new BwError(
      "INVALID_ARGUMENT",
      "a NetworkPolicy with a custom hook (or a subclass) cannot be sent to the profile's daemon, and the in-process host that " +
        "would run it here is not wired to the policy yet; use allowLoopback, allowPrivateNetwork, allowHosts and blockHosts",
    );
  }
  const { allowLoopback, allowPrivateNetwork, allowHosts, blockHosts } = policy.toOptions();
  return { allowLoopback, allowPrivateNetwork, allowHosts: [...allowHosts], blockHosts: [...blockHosts] };
}

/** The option beats config.json and the environment, like a flag. */
export function applyPolicyOption(config: ResolvedConfig, option: PolicyOption): void {
  const settings = policySettingsOf(option);
  config.settings.policy = settings;
  config.explicit.policy = settings;
  config.statedPolicy = { ...settings };
}
