// The one place settings are merged: defaults < config.json (top level, then
// its `profiles.<name>` section) < environment < flags. Nothing else reads
// process.env; callers hand it in. A bad value names where it came from.
import { readFileSync } from "node:fs";
import { BwError } from "./errors.js";
import { DEFAULT_PROFILE, DEFAULT_SESSION, normalizeProfile, validateName } from "./names.js";
import { canonicalHome, defaultHome } from "./paths.js";

export interface PolicySettings {
  allowLoopback: boolean;
  allowPrivateNetwork: boolean;
  allowHosts: string[];
  blockHosts: string[];
}

/** Settings that shape the daemon: two daemons with different values are different daemons. */
export interface DaemonSettings {
  browser: string | null;
  headless: boolean;
  policy: PolicySettings;
  sessionTtlSeconds: number;
  daemonIdleSeconds: number;
}

export interface Settings extends DaemonSettings {
  home: string;
  profile: string;
  session: string;
  timeoutMs: number;
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
}

export interface ResolvedConfig {
  settings: Settings;
  /** Daemon settings stated by a file, the environment or a flag (not defaults). */
  explicit: Partial<DaemonSettings>;
}

export const DEFAULTS = {
  timeoutMs: 30_000,
  sessionTtlSeconds: 900,
  daemonIdleSeconds: 60,
  maxTimeoutMs: 24 * 60 * 60 * 1000,
} as const;

type Source = string;

function fail(source: Source, what: string, problem: string): never {
  throw new BwError("INVALID_ARGUMENT", `${what} (${source}): ${problem}`);
}

function asBool(value: unknown, source: Source, what: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    const v = value.trim().toLowerCase();
    if (["1", "true", "yes", "on"].includes(v)) return true;
    if (["0", "false", "no", "off", ""].includes(v)) return false;
  }
  return fail(source, what, `expected a boolean, got ${JSON.stringify(value)}`);
}

function asSeconds(value: unknown, source: Source, what: string, { allowZero = false } = {}): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    return fail(source, what, `expected a positive number of seconds, got ${typeof value === "string" ? JSON.stringify(value) : String(value)}`);
  }
  if (n * 1000 > DEFAULTS.maxTimeoutMs) return fail(source, what, "must be at most one day");
  return n;
}

function asStringList(value: unknown, source: Source, what: string): string[] {
  if (typeof value === "string") return value.split(",").map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.map((v) => v.trim()).filter(Boolean);
  return fail(source, what, "expected a list of host names");
}

function asPath(value: unknown, source: Source, what: string): string {
  if (typeof value !== "string" || value.trim() === "" || value.includes("\0")) {
    return fail(source, what, "expected a path");
  }
  return value;
}

/** One layer of settings, as any source states them. */
interface Layer {
  browser?: string;
  headless?: boolean;
  timeoutMs?: number;
  sessionTtlSeconds?: number;
  daemonIdleSeconds?: number;
  allowLoopback?: boolean;
  allowPrivateNetwork?: boolean;
  allowHosts?: string[];
  blockHosts?: string[];
}

const FILE_KEYS = new Set([
  "browser", "headless", "timeoutSeconds", "sessionTtlSeconds", "daemonIdleSeconds",
  "allowLoopback", "allowPrivateNetwork", "allowHosts", "blockHosts", "profiles",
]);

function layerFromObject(raw: Record<string, unknown>, source: Source): Layer {
  const layer: Layer = {};
  for (const key of Object.keys(raw)) {
    if (!FILE_KEYS.has(key)) fail(source, key, "unknown setting");
  }
  if (raw.browser !== undefined) layer.browser = asPath(raw.browser, source, "browser");
  if (raw.headless !== undefined) layer.headless = asBool(raw.headless, source, "headless");
  if (raw.timeoutSeconds !== undefined) layer.timeoutMs = asSeconds(raw.timeoutSeconds, source, "timeoutSeconds") * 1000;
  if (raw.sessionTtlSeconds !== undefined) layer.sessionTtlSeconds = asSeconds(raw.sessionTtlSeconds, source, "sessionTtlSeconds");
  if (raw.daemonIdleSeconds !== undefined) layer.daemonIdleSeconds = asSeconds(raw.daemonIdleSeconds, source, "daemonIdleSeconds", { allowZero: true });
  if (raw.allowLoopback !== undefined) layer.allowLoopback = asBool(raw.allowLoopback, source, "allowLoopback");
  if (raw.allowPrivateNetwork !== undefined) layer.allowPrivateNetwork = asBool(raw.allowPrivateNetwork, source, "allowPrivateNetwork");
  if (raw.allowHosts !== undefined) layer.allowHosts = asStringList(raw.allowHosts, source, "allowHosts");
  if (raw.blockHosts !== undefined) layer.blockHosts = asStringList(raw.blockHosts, source, "blockHosts");
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
  if (env.BETTERWRIGHT_BROWSER) layer.browser = asPath(env.BETTERWRIGHT_BROWSER, src("BETTERWRIGHT_BROWSER"), "browser");
  if (env.BETTERWRIGHT_HEADED !== undefined && env.BETTERWRIGHT_HEADED !== "") {
    layer.headless = !asBool(env.BETTERWRIGHT_HEADED, src("BETTERWRIGHT_HEADED"), "headed");
  }
  if (env.BETTERWRIGHT_TIMEOUT_SECONDS) {
    layer.timeoutMs = asSeconds(env.BETTERWRIGHT_TIMEOUT_SECONDS, src("BETTERWRIGHT_TIMEOUT_SECONDS"), "timeout") * 1000;
  }
  if (env.BETTERWRIGHT_SESSION_TTL_SECONDS) {
    layer.sessionTtlSeconds = asSeconds(env.BETTERWRIGHT_SESSION_TTL_SECONDS, src("BETTERWRIGHT_SESSION_TTL_SECONDS"), "session TTL");
  }
  if (env.BETTERWRIGHT_DAEMON_IDLE_SECONDS) {
    layer.daemonIdleSeconds = asSeconds(env.BETTERWRIGHT_DAEMON_IDLE_SECONDS, src("BETTERWRIGHT_DAEMON_IDLE_SECONDS"), "daemon idle time", { allowZero: true });
  }
  return layer;
}

function layerFromFlags(flags: FlagInput): Layer {
  const layer: Layer = {};
  if (flags.browser !== undefined) layer.browser = asPath(flags.browser, "flag --browser", "browser");
  if (flags.headed) layer.headless = false;
  if (flags.timeoutSeconds !== undefined) layer.timeoutMs = asSeconds(flags.timeoutSeconds, "flag --timeout", "timeout") * 1000;
  // Blocking loopback implies blocking the private network: allowing it would re-open loopback.
  if (flags.blockLoopback) Object.assign(layer, { allowLoopback: false, allowPrivateNetwork: false });
  if (flags.blockPrivateNetwork) layer.allowPrivateNetwork = false;
  if (flags.allowHost?.length) layer.allowHosts = asStringList(flags.allowHost, "flag --allow-host", "allow-host");
  if (flags.blockHost?.length) layer.blockHosts = asStringList(flags.blockHost, "flag --block-host", "block-host");
  return layer;
}

function pickProfile(flags: FlagInput, env: NodeJS.ProcessEnv): string {
  const raw = flags.profile ?? (env.BETTERWRIGHT_PROFILE || undefined);
  return normalizeProfile(raw);
}

export function resolveConfig(options: { flags?: FlagInput; env?: NodeJS.ProcessEnv } = {}): ResolvedConfig {
  const flags = options.flags ?? {};
  const env = options.env ?? {};
  const homeRaw = flags.home ?? (env.BETTERWRIGHT_HOME || undefined) ?? defaultHome();
  const home = canonicalHome(asPath(homeRaw, flags.home ? "flag --home" : "environment BETTERWRIGHT_HOME", "home"));
  const profile = pickProfile(flags, env);
  const session = validateName(flags.session ?? (env.BETTERWRIGHT_SESSION || DEFAULT_SESSION), "session");

  const layers = [...readConfigFile(home, profile), layerFromEnv(env), layerFromFlags(flags)];
  const merged: Layer = Object.assign({}, ...layers);
  const explicit: Partial<DaemonSettings> = {};

  const policy: PolicySettings = {
    allowLoopback: merged.allowLoopback ?? true,
    allowPrivateNetwork: merged.allowPrivateNetwork ?? true,
    allowHosts: merged.allowHosts ?? [],
    blockHosts: merged.blockHosts ?? [],
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
    sessionTtlSeconds: merged.sessionTtlSeconds ?? DEFAULTS.sessionTtlSeconds,
    daemonIdleSeconds: merged.daemonIdleSeconds ?? DEFAULTS.daemonIdleSeconds,
    noDaemon: flags.noDaemon ?? (env.BETTERWRIGHT_NO_DAEMON ? asBool(env.BETTERWRIGHT_NO_DAEMON, "environment BETTERWRIGHT_NO_DAEMON", "no-daemon") : false),
  };
  if (merged.browser !== undefined) explicit.browser = settings.browser;
  if (merged.headless !== undefined) explicit.headless = settings.headless;
  if (["allowLoopback", "allowPrivateNetwork", "allowHosts", "blockHosts"].some((k) => k in merged)) explicit.policy = policy;
  if (merged.sessionTtlSeconds !== undefined) explicit.sessionTtlSeconds = settings.sessionTtlSeconds;
  if (merged.daemonIdleSeconds !== undefined) explicit.daemonIdleSeconds = settings.daemonIdleSeconds;
  return { settings, explicit };
}

export function daemonSettingsOf(settings: Settings): DaemonSettings {
  const { browser, headless, policy, sessionTtlSeconds, daemonIdleSeconds } = settings;
  return { browser, headless, policy, sessionTtlSeconds, daemonIdleSeconds };
}

export { DEFAULT_PROFILE };
