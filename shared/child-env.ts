// What each process betterwright starts inherits of its parent's environment:
// an allowlist per process, never the whole environment, so that a caller's
// cloud keys, tokens and the front doors' BETTERWRIGHT_TOKEN stay where they
// were set. Settings travel in the daemon's bootstrap and worker.init, so no
// process below the client reads a BETTERWRIGHT_* variable. Pure.

type Env = Readonly<Record<string, string | undefined>>;

/** What every Node process and Chromium needs to find programs and speak the user's language and time. */
const BASE = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ"] as const;
/** Every LC_* locale category. */
const LOCALE = /^LC_[A-Z_]+$/;
/** Node's own settings for every Node process the user starts (flags, the compile cache). */
const NODE = ["NODE_OPTIONS", "NODE_COMPILE_CACHE"] as const;
/** Where the platform keeps a user's folders: browser discovery and the short socket path derive from them. */
const USER_DIRS = ["XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "TMPDIR"] as const;
/** A headed Chromium's way to the screen, its fonts and its session bus. */
const DISPLAY = ["DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "XDG_SESSION_TYPE", "DBUS_SESSION_BUS_ADDRESS"] as const;
const FONTS = ["FONTCONFIG_FILE", "FONTCONFIG_PATH"] as const;
/** Only for a process that opens TLS itself (remote wss:// or https endpoints): Node parses it at every start. */
const CA_BUNDLE = "NODE_EXTRA_CA_CERTS";

function pick(env: Env, names: readonly string[], pattern?: RegExp): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (names.includes(name) || (pattern !== undefined && pattern.test(name))) out[name] = value;
  }
  return out;
}

export interface WorkerEnvNeeds {
  /** Opens TLS itself: keeps NODE_EXTRA_CA_CERTS. */
  tls: boolean;
}

export interface DaemonEnvNeeds extends WorkerEnvNeeds {
  /** The variables remote endpoints' headers name (`{env:NAME}`): the daemon fills them in, and nothing else reads them. */
  headerVariables: readonly string[];
}

/**
 * The worker's environment: what Node, Playwright and a headed Chromium need.
 * The display variables are kept whatever the mode: the daemon decides
 * headless or headed per worker.init, and the worker hands them on only when headed.
 */
export function workerEnvironment(env: Env, needs: WorkerEnvNeeds): Record<string, string> {
  return pick(env, [...BASE, ...NODE, ...USER_DIRS, ...DISPLAY, ...FONTS, ...(needs.tls ? [CA_BUNDLE] : [])], LOCALE);
}

/** The daemon's: the worker's, and the variables its remote endpoints' headers name. */
export function daemonEnvironment(env: Env, needs: DaemonEnvNeeds): Record<string, string> {
  return { ...workerEnvironment(env, needs), ...pick(env, needs.headerVariables) };
}

/** Chromium's: no Node settings, the display only when headed, and its own HOME and temp folders (given by the caller). */
export function browserEnvironment(env: Env, needs: { headed: boolean; own: Record<string, string> }): Record<string, string> {
  return { ...pick(env, [...BASE, ...FONTS, ...(needs.headed ? DISPLAY : [])], LOCALE), ...needs.own };
}
