// The settings of `betterwright serve` (the HTTP front door): its bounds, from
// the reference API's, each configurable by flag or environment, and its
// token. The environment is handed in, as to the one config module.
import { asCount, asSeconds, fail } from "../../../shared/config-values.js";

const MiB = 1024 * 1024;

/** `betterwright serve` (the HTTP front door): its bounds, from the reference API's, each configurable. */
export interface ServeSettings {
  /** BETTERWRIGHT_TOKEN when set (else serve/token in the home); never logged or printed. */
  token: string | undefined;
  /** Sessions open at once; one more is SESSION_LIMIT (409). */
  maxActiveSessions: number;
  /** Sessions whose state is kept between opens; a new one past it is SESSION_LIMIT. */
  maxSavedSessions: number;
  /** An open session unused this long is saved and closed. */
  idleCloseSeconds: number;
  /** What a navigation (open, navigate) may take. */
  navigationTimeoutSeconds: number;
  /** PDFs kept per session, and the size of each. */
  maxDownloads: number;
  maxDownloadBytes: number;
}

export const MIN_SERVE_TOKEN_CHARS = 32;
export const SERVE_DEFAULTS: Omit<ServeSettings, "token"> = {
  maxActiveSessions: 3,
  maxSavedSessions: 20,
  idleCloseSeconds: 30 * 60,
  navigationTimeoutSeconds: 20,
  maxDownloads: 20,
  maxDownloadBytes: 10 * MiB,
};
type ServeKey = keyof typeof SERVE_DEFAULTS;
/** The flag (camelCase of `--max-sessions`…) and environment variable of each bound. */
export const SERVE_SOURCES: Record<ServeKey, { flag: string; env: string; unit: "count" | "seconds" }> = {
  maxActiveSessions: { flag: "max-sessions", env: "BETTERWRIGHT_SERVE_MAX_SESSIONS", unit: "count" },
  maxSavedSessions: { flag: "max-saved-sessions", env: "BETTERWRIGHT_SERVE_MAX_SAVED_SESSIONS", unit: "count" },
  idleCloseSeconds: { flag: "idle-close", env: "BETTERWRIGHT_SERVE_IDLE_CLOSE_SECONDS", unit: "seconds" },
  navigationTimeoutSeconds: { flag: "navigation-timeout", env: "BETTERWRIGHT_SERVE_NAVIGATION_TIMEOUT_SECONDS", unit: "seconds" },
  maxDownloads: { flag: "max-downloads", env: "BETTERWRIGHT_SERVE_MAX_DOWNLOADS", unit: "count" },
  maxDownloadBytes: { flag: "max-download-bytes", env: "BETTERWRIGHT_SERVE_MAX_DOWNLOAD_BYTES", unit: "count" },
};

/** A bearer token: at least 32 printable characters, no spaces. */
export function checkServeToken(token: string, source: string): string {
  const trimmed = token.trim();
  if (trimmed.length < MIN_SERVE_TOKEN_CHARS || !/^[\x21-\x7e]+$/.test(trimmed)) {
    return fail(source, "token", `must be at least ${MIN_SERVE_TOKEN_CHARS} printable characters without spaces`);
  }
  return trimmed;
}

/** serve's settings: defaults < environment < flags (keyed by flag name). */
export function resolveServeSettings(options: { flags?: Partial<Record<string, unknown>>; env?: NodeJS.ProcessEnv } = {}): ServeSettings {
  const flags = options.flags ?? {};
  const env = options.env ?? {};
  const out: ServeSettings = { token: undefined, ...SERVE_DEFAULTS };
  for (const key of Object.keys(SERVE_SOURCES) as ServeKey[]) {
    const { flag, env: name, unit } = SERVE_SOURCES[key];
    const [raw, source] = flags[flag] !== undefined ? [flags[flag], `flag --${flag}`] : [env[name] || undefined, `environment ${name}`];
    if (raw === undefined) continue;
    out[key] = unit === "seconds" ? asSeconds(raw, source, flag) : asCount(raw, source, flag, unit === "count" ? "items" : unit);
  }
  if (env.BETTERWRIGHT_TOKEN) out.token = checkServeToken(env.BETTERWRIGHT_TOKEN, "environment BETTERWRIGHT_TOKEN");
  return out;
}
