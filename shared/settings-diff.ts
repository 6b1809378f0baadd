// Comparing and merging what a caller states explicitly with what a running
// daemon uses. Unstated settings are inherited, policy keys one by one, so a
// call that states one policy key (or none) never loosens the others.
import type { DaemonSettings, PolicySettings, ResolvedConfig } from "./config.js";

export type StatedSettings = Partial<Omit<DaemonSettings, "policy">> & { policy?: Partial<PolicySettings> };

/** What a call states: its explicit settings, with only the policy keys it named. */
export function statedSettings(config: ResolvedConfig): StatedSettings {
  const { policy: _whole, ...rest } = config.explicit;
  void _whole;
  const policy = config.statedPolicy ?? {};
  return Object.keys(policy).length > 0 ? { ...rest, policy } : rest;
}

export function settingsDifferences(running: DaemonSettings, stated: StatedSettings): string[] {
  const diffs: string[] = [];
  for (const key of Object.keys(stated) as (keyof StatedSettings)[]) {
    if (key === "policy") {
      for (const [name, want] of Object.entries(stated.policy ?? {})) {
        const have = running.policy[name as keyof PolicySettings];
        if (JSON.stringify(want) !== JSON.stringify(have)) {
          diffs.push(`policy.${name}: daemon has ${JSON.stringify(have)}, this call wants ${JSON.stringify(want)}`);
        }
      }
      continue;
    }
    const want = JSON.stringify(stated[key]);
    const have = JSON.stringify(running[key]);
    if (want !== have) diffs.push(`${key}: daemon has ${have}, this call wants ${want}`);
  }
  return diffs;
}

export function mergeSettings(running: DaemonSettings, stated: StatedSettings): DaemonSettings {
  const policy = { ...running.policy, ...stated.policy };
  // Blocking loopback implies blocking the private network, whichever side said which.
  if (!policy.allowLoopback) policy.allowPrivateNetwork = false;
  return { ...running, ...stated, policy };
}
