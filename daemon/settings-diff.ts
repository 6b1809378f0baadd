// Comparing what a caller states explicitly with what the running daemon
// uses. Unstated settings are inherited, so a call without policy flags can
// never loosen a hardened daemon.
import type { DaemonSettings } from "../shared/config.js";

export function settingsDifferences(running: DaemonSettings, stated: Partial<DaemonSettings>): string[] {
  const diffs: string[] = [];
  for (const key of Object.keys(stated) as (keyof DaemonSettings)[]) {
    const want = JSON.stringify(stated[key]);
    const have = JSON.stringify(running[key]);
    if (want !== have) diffs.push(`${key}: daemon has ${have}, this call wants ${want}`);
  }
  return diffs;
}

export function mergeSettings(running: DaemonSettings, stated: Partial<DaemonSettings>): DaemonSettings {
  return { ...running, ...stated };
}
