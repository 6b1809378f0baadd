// The one place settings are merged: defaults < config.json (top level, then
// its `profiles.<name>` section) < environment < flags. Nothing else reads
// process.env; callers hand it in. A bad value names where it came from.
import { readFileSync } from "node:fs";
import { DEFAULT_ELEMENT_WAIT_MS, MAX_ELEMENT_WAIT_MS } from "./protocol/operations/table.js";
import { asBool, asCount, asHostList, asMilliseconds, asPath, asSeconds, fail, MAX_TIMEOUT_MS, type Source } from "./config-values.js";
import { DEFAULT_PROFILE, DEFAULT_SESSION, normalizeProfile, validateName } from "./names.js";
import { canonicalHome, defaultHome } from "./paths.js";
import { isPolicyPreset, policyPreset, POLICY_PRESET_NAMES } from "./guard/policy/presets.js";
import { LIMIT_DEFAULTS, LIMIT_SOURCES, type LimitSettings } from "./config-limits.js";
import { mergeRemote, REMOTE_FILE_KEYS, remoteLayerFromEnv, remoteLayerFromFlags, remoteLayerFromObject, type RemoteLayer, type RemoteSettings } from "./remote-config.js";

export interface PolicySettings {
  allowLoopback: boolean;
  allowPrivateNetwork: boolean;
  allowHosts: string[];
  blockHosts: string[];
  /** When not empty, the only ports reachable (the public-web preset: 80, 443). */
  onlyPorts: number[];
}

const POLICY_KEYS = ["allowLoopback", "allowPrivateNetwork", "allowHosts", "blockHosts", "onlyPorts"] as const;

/** Artifact store caps in bytes (see docs/artifacts.md). */
export interface ArtifactSettings {
  screenshotCapBytes: number;
  downloadCapBytes: number;
  outputCapBytes: number;
  sessionCapBytes: number;
  globalCapBytes: number;
}

const MiB = 1024 * 1024;
export const ARTIFACT_DEFAULTS: ArtifactSettings = {
  screenshotCapBytes: 10 * MiB,
  downloadCapBytes: 50 * MiB,
  outputCapBytes: 10 * MiB,
  sessionCapBytes: 100 * MiB,
  globalCapBytes: 1024 * MiB,
};

/** config.json key and environment variable of each artifact cap. */
const ARTIFACT_SOURCES: Record<keyof ArtifactSettings, { key: string; env: string }> = {
  screenshotCapBytes: { key: "artifactScreenshotCapBytes", env: "BETTERWRIGHT_ARTIFACT_SCREENSHOT_CAP_BYTES" },
  downloadCapBytes: { key: "artifactDownloadCapBytes", env: "BETTERWRIGHT_ARTIFACT_DOWNLOAD_CAP_BYTES" },
  outputCapBytes: { key: "artifactOutputCapBytes", env: "BETTERWRIGHT_ARTIFACT_OUTPUT_CAP_BYTES" },
  sessionCapBytes: { key: "artifactSessionCapBytes", env: "BETTERWRIGHT_ARTIFACT_SESSION_CAP_BYTES" },
  globalCapBytes: { key: "artifactGlobalCapBytes", env: "BETTERWRIGHT_ARTIFACT_GLOBAL_CAP_BYTES" },
};

/** Caps on a profile's saved browser states (see docs/state.md); past one, state.save gets LIMIT_EXCEEDED. */
export interface StateSettings {
  /** Saved states of one profile. */
  maxStates: number;
  /** One saved state's file. */
  maxStateBytes: number;
  /** All saved states of one profile together. */
  maxTotalStateBytes: number;
}

// A state crosses the worker's pipe base64-encoded in one 8 MiB frame, so one
// state can be at most 5 MiB; 4 MiB holds any real login (cookies, local
// storage, a modest IndexedDB). 100 states and 64 MiB per profile: a folder of
// logins, not an archive.
export const STATE_BYTES_CEILING = 5 * MiB;
export const STATE_DEFAULTS: StateSettings = {
  maxStates: 100,
  maxStateBytes: 4 * MiB,
  maxTotalStateBytes: 64 * MiB,
};

/** config.json key and environment variable of each state cap. */
export const STATE_SOURCES: Record<keyof StateSettings, { key: string; env: string; max?: number }> = {
  maxStates: { key: "maxSavedStates", env: "BETTERWRIGHT_MAX_SAVED_STATES" },
  maxStateBytes: { key: "savedStateMaxBytes", env: "BETTERWRIGHT_SAVED_STATE_MAX_BYTES", max: STATE_BYTES_CEILING },
  maxTotalStateBytes: { key: "savedStatesMaxTotalBytes", env: "BETTERWRIGHT_SAVED_STATES_MAX_TOTAL_BYTES" },
};

/** Settings that shape the daemon: two daemons with different values are different daemons. */
export interface DaemonSettings {
  browser: string | null;
  headless: boolean;
  policy: PolicySettings;
  sessionTtlSeconds: number;
  daemonIdleSeconds: number;
  artifacts: ArtifactSettings;
  limits: LimitSettings;
  states: StateSettings;
  /** Refuse to start rather than run the worker uncontained (see docs/security.md). */
  requireContainment: boolean;
  /** Remote browsers the sessions are placed on, and the guard offered to them (docs/remote-browsers.md). */
  remote: RemoteSettings;
  /** Snippets' page evaluation in an isolated world, the driver's known traces removed (docs/stealth.md). */
  stealth: boolean;
}

export interface Settings extends DaemonSettings {
  home: string;
  profile: string;
  session: string;
  timeoutMs: number;
  elementWaitMs: number; // an operation's wait for a target that matches nothing or is covered
  noDaemon: boolean;
}

export type SettingKey = keyof Settings | `policy.${keyof PolicySettings}`;

export interface FlagInput {
  home?: string;
  profile?: string;
  session?: string;
  browser?: string;
  headed?: boolean;
  timeoutSeconds?: number;
  noDaemon?: boolean;
  blockPrivateNetwork?: boolean;
  blockLoopback?: boolean;
  allowHost?: string[];
  blockHost?: string[];
  /** A policy preset (`public-web`, `default`); the other policy flags apply over it. */
  policy?: string;
  requireContainment?: boolean;
  /** Remote browser endpoints (`--browser-endpoint`, repeatable). */
  browserEndpoint?: string[];
  trustRemoteEgress?: boolean;
  stealth?: boolean;
}

export interface ResolvedConfig {
  settings: Settings;
  /** Daemon settings stated by a file, the environment or a flag (not defaults). */
  explicit: Partial<DaemonSettings>;
  /** Only the policy keys a file, the environment or a flag stated (`policy check` applies them over the daemon's). */
  statedPolicy?: Partial<PolicySettings>;
  /** A flag or the environment named the profile (`close --all` then stops that profile's daemon only). */
  profileStated?: boolean;
}

export const DEFAULTS = {
  timeoutMs: 30_000,
  sessionTtlSeconds: 900,
  daemonIdleSeconds: 60,
  maxTimeoutMs: MAX_TIMEOUT_MS,
} as const;

/** A preset's posture keys, set before the layer's own policy keys (which apply over it). */
function asPreset(value: unknown, source: Source): Pick<Layer, "allowLoopback" | "allowPrivateNetwork" | "onlyPorts"> {
  const name = typeof value === "string" ? value.trim() : value;
  if (!isPolicyPreset(name)) return fail(source, "policy", `expected one of ${POLICY_PRESET_NAMES.join(", ")}, got ${JSON.stringify(value)}`);
  return policyPreset(name);
}

/** One layer of settings, as any source states them. */
interface Layer {
  browser?: string;
  headless?: boolean;
  timeoutMs?: number;
  elementWaitMs?: number;
  sessionTtlSeconds?: number;
  daemonIdleSeconds?: number;
  allowLoopback?: boolean;
  allowPrivateNetwork?: boolean;
  allowHosts?: string[];
  blockHosts?: string[];
  onlyPorts?: number[];
  artifacts?: Partial<ArtifactSettings>;
  limits?: Partial<LimitSettings>;
  states?: Partial<StateSettings>;
  requireContainment?: boolean;
  remote?: RemoteLayer;
  stealth?: boolean;
}

const FILE_KEYS = new Set([
  "browser", "headless", "timeoutSeconds", "elementWaitSeconds", "sessionTtlSeconds", "daemonIdleSeconds",
  "allowLoopback", "allowPrivateNetwork", "allowHosts", "blockHosts", "policy", "requireContainment", "stealth", "profiles",
  ...REMOTE_FILE_KEYS,
  ...Object.values(ARTIFACT_SOURCES).map((s) => s.key),
  ...Object.values(LIMIT_SOURCES).map((s) => s.key),
  ...Object.values(STATE_SOURCES).map((s) => s.key),
]);

type Read = (key: string, env: string) => unknown;
type SourceOf = (key: string, env: string) => Source;

/** The whole-number settings of one group (artifact caps, limits) that a source states, or undefined if none. */
function countLayer<T extends object>(sources: Record<keyof T, { key: string; env: string; max?: number }>, unit: string, read: Read, source: SourceOf): Partial<T> | undefined {
  const out: Partial<Record<keyof T, number>> = {};
  for (const [field, { key, env, max }] of Object.entries(sources) as [keyof T, { key: string; env: string; max?: number }][]) {
    const raw = read(key, env);
    if (raw !== undefined && raw !== "") out[field] = asCount(raw, source(key, env), key, unit, max);
  }
  return Object.keys(out).length > 0 ? (out as Partial<T>) : undefined;
}

/** The artifact caps and the limits a source states, put on its layer. */
function addCounts(layer: Layer, read: Read, source: SourceOf): void {
  const artifacts = countLayer<ArtifactSettings>(ARTIFACT_SOURCES, "bytes", read, source);
  if (artifacts) layer.artifacts = artifacts;
  const limits = countLayer<LimitSettings>(LIMIT_SOURCES, "sessions, runs, calls or bytes", read, source);
  if (limits) layer.limits = limits;
  const states = countLayer<StateSettings>(STATE_SOURCES, "states or bytes", read, source);
  if (states) layer.states = states;
}

function layerFromObject(raw: Record<string, unknown>, source: Source): Layer {
  const layer: Layer = {};
  for (const key of Object.keys(raw)) {
    if (!FILE_KEYS.has(key)) fail(source, key, "unknown setting");
  }
  if (raw.browser !== undefined) layer.browser = asPath(raw.browser, source, "browser");
  if (raw.headless !== undefined) layer.headless = asBool(raw.headless, source, "headless");
  if (raw.policy !== undefined) Object.assign(layer, asPreset(raw.policy, source));
  if (raw.timeoutSeconds !== undefined) layer.timeoutMs = asMilliseconds(raw.timeoutSeconds, source, "timeoutSeconds");
  if (raw.elementWaitSeconds !== undefined) layer.elementWaitMs = asMilliseconds(raw.elementWaitSeconds, source, "elementWaitSeconds");
  if (raw.sessionTtlSeconds !== undefined) layer.sessionTtlSeconds = asSeconds(raw.sessionTtlSeconds, source, "sessionTtlSeconds");
  if (raw.daemonIdleSeconds !== undefined) layer.daemonIdleSeconds = asSeconds(raw.daemonIdleSeconds, source, "daemonIdleSeconds", { allowZero: true });
  if (raw.allowLoopback !== undefined) layer.allowLoopback = asBool(raw.allowLoopback, source, "allowLoopback");
  if (raw.allowPrivateNetwork !== undefined) layer.allowPrivateNetwork = asBool(raw.allowPrivateNetwork, source, "allowPrivateNetwork");
  if (raw.allowHosts !== undefined) layer.allowHosts = asHostList(raw.allowHosts, source, "allowHosts");
  if (raw.blockHosts !== undefined) layer.blockHosts = asHostList(raw.blockHosts, source, "blockHosts");
  if (raw.requireContainment !== undefined) layer.requireContainment = asBool(raw.requireContainment, source, "requireContainment");
  if (raw.stealth !== undefined) layer.stealth = asBool(raw.stealth, source, "stealth");
  addCounts(layer, (key) => raw[key], () => source);
  return withRemote(layer, remoteLayerFromObject(raw, source));
}

function withRemote(layer: Layer, remote: RemoteLayer): Layer {
  if (Object.keys(remote).length > 0) layer.remote = remote;
  return layer;
}

function readConfigFile(home: string, profile: string): Layer[] {
  const file = `${home}/config.json`;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    return fail(file, "config.json", `cannot be read: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return fail(file, "config.json", `is not valid JSON: ${(error as Error).message}`);
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return fail(file, "config.json", "must hold an object");
  const top = raw as Record<string, unknown>;
  const layers = [layerFromObject({ ...top, profiles: undefined }, file)];
  const profiles = top.profiles;
  if (profiles !== undefined) {
    if (profiles === null || typeof profiles !== "object" || Array.isArray(profiles)) return fail(file, "profiles", "must be an object");
    const section = (profiles as Record<string, unknown>)[profile];
    if (section !== undefined) {
      if (section === null || typeof section !== "object" || Array.isArray(section)) return fail(file, `profiles.${profile}`, "must be an object");
      layers.push(layerFromObject(section as Record<string, unknown>, `${file} profiles.${profile}`));
    }
  }
  return layers;
}

function layerFromEnv(env: NodeJS.ProcessEnv): Layer {
  const layer: Layer = {};
  const src = (name: string) => `environment ${name}`;
  addCounts(layer, (_key, name) => env[name], (_key, name) => src(name));
  if (env.BETTERWRIGHT_BROWSER) layer.browser = asPath(env.BETTERWRIGHT_BROWSER, src("BETTERWRIGHT_BROWSER"), "browser");
  if (env.BETTERWRIGHT_HEADED !== undefined && env.BETTERWRIGHT_HEADED !== "") {
    layer.headless = !asBool(env.BETTERWRIGHT_HEADED, src("BETTERWRIGHT_HEADED"), "headed");
  }
  if (env.BETTERWRIGHT_TIMEOUT_SECONDS) {
    layer.timeoutMs = asMilliseconds(env.BETTERWRIGHT_TIMEOUT_SECONDS, src("BETTERWRIGHT_TIMEOUT_SECONDS"), "timeout");
  }
  if (env.BETTERWRIGHT_ELEMENT_WAIT_SECONDS) layer.elementWaitMs = asMilliseconds(env.BETTERWRIGHT_ELEMENT_WAIT_SECONDS, src("BETTERWRIGHT_ELEMENT_WAIT_SECONDS"), "element wait");
  if (env.BETTERWRIGHT_SESSION_TTL_SECONDS) {
    layer.sessionTtlSeconds = asSeconds(env.BETTERWRIGHT_SESSION_TTL_SECONDS, src("BETTERWRIGHT_SESSION_TTL_SECONDS"), "session TTL");
  }
  if (env.BETTERWRIGHT_DAEMON_IDLE_SECONDS) {
    layer.daemonIdleSeconds = asSeconds(env.BETTERWRIGHT_DAEMON_IDLE_SECONDS, src("BETTERWRIGHT_DAEMON_IDLE_SECONDS"), "daemon idle time", { allowZero: true });
  }
  if (env.BETTERWRIGHT_POLICY) Object.assign(layer, asPreset(env.BETTERWRIGHT_POLICY, src("BETTERWRIGHT_POLICY")));
  if (env.BETTERWRIGHT_BLOCK_PRIVATE_NETWORK) {
    layer.allowPrivateNetwork = !asBool(env.BETTERWRIGHT_BLOCK_PRIVATE_NETWORK, src("BETTERWRIGHT_BLOCK_PRIVATE_NETWORK"), "block-private-network");
  }
  if (env.BETTERWRIGHT_BLOCK_LOOPBACK) {
    const block = asBool(env.BETTERWRIGHT_BLOCK_LOOPBACK, src("BETTERWRIGHT_BLOCK_LOOPBACK"), "block-loopback");
    layer.allowLoopback = !block;
    if (block) layer.allowPrivateNetwork = false;
  }
  if (env.BETTERWRIGHT_ALLOW_HOSTS) layer.allowHosts = asHostList(env.BETTERWRIGHT_ALLOW_HOSTS, src("BETTERWRIGHT_ALLOW_HOSTS"), "allowHosts");
  if (env.BETTERWRIGHT_BLOCK_HOSTS) layer.blockHosts = asHostList(env.BETTERWRIGHT_BLOCK_HOSTS, src("BETTERWRIGHT_BLOCK_HOSTS"), "blockHosts");
  if (env.BETTERWRIGHT_REQUIRE_CONTAINMENT) {
    layer.requireContainment = asBool(env.BETTERWRIGHT_REQUIRE_CONTAINMENT, src("BETTERWRIGHT_REQUIRE_CONTAINMENT"), "require-containment");
  }
  if (env.BETTERWRIGHT_STEALTH) layer.stealth = asBool(env.BETTERWRIGHT_STEALTH, src("BETTERWRIGHT_STEALTH"), "stealth");
  return withRemote(layer, remoteLayerFromEnv(env));
}

function layerFromFlags(flags: FlagInput): Layer {
  const layer: Layer = {};
  if (flags.browser !== undefined) layer.browser = asPath(flags.browser, "flag --browser", "browser");
  if (flags.headed) layer.headless = false;
  if (flags.timeoutSeconds !== undefined) layer.timeoutMs = asMilliseconds(flags.timeoutSeconds, "flag --timeout", "timeout");
  if (flags.policy !== undefined) Object.assign(layer, asPreset(flags.policy, "flag --policy"));
  // Blocking loopback implies blocking the private network: allowing it would re-open loopback.
  if (flags.blockLoopback) Object.assign(layer, { allowLoopback: false, allowPrivateNetwork: false });
  if (flags.blockPrivateNetwork) layer.allowPrivateNetwork = false;
  if (flags.allowHost?.length) layer.allowHosts = asHostList(flags.allowHost, "flag --allow-host", "allow-host");
  if (flags.blockHost?.length) layer.blockHosts = asHostList(flags.blockHost, "flag --block-host", "block-host");
  if (flags.requireContainment) layer.requireContainment = true;
  if (flags.stealth) layer.stealth = true;
  return withRemote(layer, remoteLayerFromFlags(flags));
}

function pickProfile(flags: FlagInput, env: NodeJS.ProcessEnv): string {
  const raw = flags.profile ?? (env.BETTERWRIGHT_PROFILE || undefined);
  return normalizeProfile(raw);
}

export function resolveConfig(options: { flags?: FlagInput; env?: NodeJS.ProcessEnv } = {}): ResolvedConfig {
  const flags = options.flags ?? {};
  const env = options.env ?? {};
  const homeRaw = flags.home ?? (env.BETTERWRIGHT_HOME || undefined) ?? defaultHome();
  const home = canonicalHome(asPath(homeRaw, flags.home !== undefined ? "flag --home" : "environment BETTERWRIGHT_HOME", "home"));
  const profile = pickProfile(flags, env);
  const session = validateName(flags.session ?? (env.BETTERWRIGHT_SESSION || DEFAULT_SESSION), "session");

  const layers = [...readConfigFile(home, profile), layerFromEnv(env), layerFromFlags(flags)];
  const merged: Layer = Object.assign({}, ...layers);
  const statedArtifacts: Partial<ArtifactSettings> = Object.assign({}, ...layers.map((l) => l.artifacts ?? {}));
  const statedLimits: Partial<LimitSettings> = Object.assign({}, ...layers.map((l) => l.limits ?? {}));
  const statedStates: Partial<StateSettings> = Object.assign({}, ...layers.map((l) => l.states ?? {}));
  const explicit: Partial<DaemonSettings> = {};
  const remote = mergeRemote(layers.map((l) => l.remote ?? {}));

  const policy: PolicySettings = {
    allowLoopback: merged.allowLoopback ?? true,
    allowPrivateNetwork: merged.allowPrivateNetwork ?? true,
    allowHosts: merged.allowHosts ?? [],
    blockHosts: merged.blockHosts ?? [],
    onlyPorts: merged.onlyPorts ?? [],
  };
  if (!policy.allowLoopback) policy.allowPrivateNetwork = false;
  const settings: Settings = {
    home,
    profile,
    session,
    browser: merged.browser ?? null,
    headless: merged.headless ?? true,
    policy,
    timeoutMs: merged.timeoutMs ?? DEFAULTS.timeoutMs,
    elementWaitMs: Math.min(merged.elementWaitMs ?? DEFAULT_ELEMENT_WAIT_MS, MAX_ELEMENT_WAIT_MS),
    sessionTtlSeconds: merged.sessionTtlSeconds ?? DEFAULTS.sessionTtlSeconds,
    daemonIdleSeconds: merged.daemonIdleSeconds ?? DEFAULTS.daemonIdleSeconds,
    artifacts: { ...ARTIFACT_DEFAULTS, ...statedArtifacts },
    limits: { ...LIMIT_DEFAULTS, ...statedLimits },
    states: { ...STATE_DEFAULTS, ...statedStates },
    requireContainment: merged.requireContainment ?? false,
    remote: remote.settings,
    stealth: merged.stealth ?? false,
    noDaemon: flags.noDaemon ?? (env.BETTERWRIGHT_NO_DAEMON ? asBool(env.BETTERWRIGHT_NO_DAEMON, "environment BETTERWRIGHT_NO_DAEMON", "no-daemon") : false),
  };
  if (merged.browser !== undefined) explicit.browser = settings.browser;
  if (merged.headless !== undefined) explicit.headless = settings.headless;
  if (POLICY_KEYS.some((k) => merged[k] !== undefined)) explicit.policy = policy;
  if (merged.sessionTtlSeconds !== undefined) explicit.sessionTtlSeconds = settings.sessionTtlSeconds;
  if (merged.daemonIdleSeconds !== undefined) explicit.daemonIdleSeconds = settings.daemonIdleSeconds;
  if (Object.keys(statedArtifacts).length > 0) explicit.artifacts = settings.artifacts;
  if (Object.keys(statedLimits).length > 0) explicit.limits = settings.limits;
  if (Object.keys(statedStates).length > 0) explicit.states = settings.states;
  if (merged.requireContainment !== undefined) explicit.requireContainment = settings.requireContainment;
  if (remote.stated) explicit.remote = settings.remote;
  if (merged.stealth !== undefined) explicit.stealth = settings.stealth;
  const statedPolicy: Partial<PolicySettings> = {};
  for (const key of POLICY_KEYS) {
    if (merged[key] !== undefined) Object.assign(statedPolicy, { [key]: merged[key] });
  }
  if (statedPolicy.allowLoopback === false) statedPolicy.allowPrivateNetwork = false;
  return { settings, explicit, statedPolicy, profileStated: (flags.profile ?? (env.BETTERWRIGHT_PROFILE || undefined)) !== undefined };
}

export function daemonSettingsOf(settings: Settings): DaemonSettings {
  const { browser, headless, policy, sessionTtlSeconds, daemonIdleSeconds, artifacts, limits, states, requireContainment, remote, stealth } = settings;
  return { browser, headless, policy, sessionTtlSeconds, daemonIdleSeconds, artifacts, limits, states, requireContainment, remote, stealth };
}

export { DEFAULT_PROFILE, LIMIT_DEFAULTS, LIMIT_SOURCES, type LimitSettings };
