// Named egress postures of the one NetworkPolicy: `--policy public-web` and
// `--policy default` (flags, BETTERWRIGHT_POLICY, config.json `policy`, the
// library's `policy` option). A preset sets the posture keys; the host lists
// and any other policy flag stated beside it apply over it.
import { BwError } from "../../protocol/errors.js";

export interface PolicyPosture {
  allowLoopback: boolean;
  allowPrivateNetwork: boolean;
  onlyPorts: number[];
}

export const POLICY_PRESETS = {
  /** Public addresses on ports 80 and 443 only; every resolved address is judged too (the guard proxy's rule). */
  "public-web": { allowLoopback: false, allowPrivateNetwork: false, onlyPorts: [80, 443] },
  /** The default posture: every port, loopback and private networks; the metadata floor always holds. */
  default: { allowLoopback: true, allowPrivateNetwork: true, onlyPorts: [] },
} as const satisfies Record<string, Readonly<{ allowLoopback: boolean; allowPrivateNetwork: boolean; onlyPorts: readonly number[] }>>;

export type PolicyPresetName = keyof typeof POLICY_PRESETS;
export const POLICY_PRESET_NAMES = Object.keys(POLICY_PRESETS) as PolicyPresetName[];

export function isPolicyPreset(value: unknown): value is PolicyPresetName {
  return typeof value === "string" && Object.hasOwn(POLICY_PRESETS, value);
}

/** The posture of a preset (a fresh copy); INVALID_ARGUMENT naming `source` for any other name. */
export function policyPreset(name: unknown, source = "policy"): PolicyPosture {
  if (!isPolicyPreset(name)) {
    throw new BwError("INVALID_ARGUMENT", `${source}: no policy preset ${JSON.stringify(String(name).slice(0, 40))}; the presets are ${POLICY_PRESET_NAMES.join(", ")}`);
  }
  const preset = POLICY_PRESETS[name];
  return { allowLoopback: preset.allowLoopback, allowPrivateNetwork: preset.allowPrivateNetwork, onlyPorts: [...preset.onlyPorts] };
}

/**
 * Which preset a policy's posture is, for people (`serve`'s start line and /health):
 * `public-web`, `default`, or `custom` for anything else. Host lists are exceptions
 * to a posture and do not change its name.
 */
export function postureName(policy: { allowLoopback: boolean; allowPrivateNetwork: boolean; onlyPorts?: readonly number[] }): PolicyPresetName | "custom" {
  const ports = [...(policy.onlyPorts ?? [])].sort((a, b) => a - b).join(",");
  for (const name of POLICY_PRESET_NAMES) {
    const preset = POLICY_PRESETS[name];
    if (preset.allowLoopback === policy.allowLoopback && preset.allowPrivateNetwork === policy.allowPrivateNetwork && preset.onlyPorts.join(",") === ports) return name;
  }
  return "custom";
}
