// How a session is made: shared (the profile's persistent context) or isolated
// (a browser context of its own) with its own settings and, optionally, a
// saved state to start from. Pure: the checks every caller runs (CLI flags,
// socket params, library options) and how two specs differ.
import { BwError } from "./protocol/errors.js";

export interface Viewport {
  width: number;
  height: number;
}

/** A position, granted to one origin only. */
export interface Geolocation {
  latitude: number;
  longitude: number;
  origin: string;
}

export interface SessionSettings {
  viewport?: Viewport;
  deviceScaleFactor?: number;
  /** A BCP 47 language tag, canonical (`en-US`). */
  locale?: string;
  /** An IANA time zone, as ICU names it (`Europe/Berlin`). */
  timezone?: string;
  colorScheme?: "light" | "dark";
  /** `prefers-reduced-motion: reduce`. */
  reducedMotion?: boolean;
  userAgent?: string;
  geolocation?: Geolocation;
}

export interface SessionSpec {
  isolated: boolean;
  settings: SessionSettings;
  /** The saved state an isolated session started from. */
  state?: string;
}

export const SHARED_SPEC: SessionSpec = { isolated: false, settings: {} };

export const VIEWPORT_RANGE = { min: 100, max: 8192 } as const;
export const DEVICE_SCALE_RANGE = { min: 0.25, max: 5 } as const;
export const MAX_USER_AGENT_CHARS = 512;
const MAX_LOCALE_CHARS = 64;
const MAX_TIMEZONE_CHARS = 64;
const MAX_ORIGIN_CHARS = 512;

type LabelKey = keyof SessionSettings | "geolocationOrigin";
/** What each setting is called where it came from, so an error names what the caller typed. */
export type SettingLabels = Record<LabelKey, string>;

export const FLAG_LABELS: SettingLabels = {
  viewport: "--viewport",
  deviceScaleFactor: "--device-scale",
  locale: "--locale",
  timezone: "--timezone",
  colorScheme: "--color-scheme",
  reducedMotion: "--reduced-motion",
  userAgent: "--user-agent",
  geolocation: "--geolocation",
  geolocationOrigin: "--geolocation-origin",
};

/** Labels for a settings object at `path` of a request (`params.settings.locale`). */
export function fieldLabels(path: string): SettingLabels {
  const labels = {} as SettingLabels;
  for (const key of Object.keys(FLAG_LABELS) as LabelKey[]) {
    labels[key] = key === "geolocationOrigin" ? `${path}.geolocation.origin` : `${path}.${key}`;
  }
  return labels;
}

function invalid(label: string, problem: string): never {
  throw new BwError("INVALID_ARGUMENT", `${label}: ${problem}`);
}

function numberIn(value: unknown, label: string, min: number, max: number, integer = false): number {
  if (typeof value !== "number" || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    return invalid(label, `expected ${integer ? "a whole number" : "a number"} from ${min} to ${max}`);
  }
  if (value < min || value > max) invalid(label, `${value} is out of range (${min} to ${max})`);
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function onlyKeys(value: Record<string, unknown>, keys: readonly string[], label: string): void {
  for (const key of Object.keys(value)) if (!keys.includes(key)) invalid(label, `unknown field ${JSON.stringify(key.slice(0, 64))}`);
}

export function checkViewport(value: unknown, label: string): Viewport {
  if (!isRecord(value)) return invalid(label, "expected { width, height }");
  onlyKeys(value, ["width", "height"], label);
  const { min, max } = VIEWPORT_RANGE;
  return { width: numberIn(value.width, `${label} width`, min, max, true), height: numberIn(value.height, `${label} height`, min, max, true) };
}

/** A BCP 47 tag, in its canonical spelling (`EN-us` → `en-US`). */
export function checkLocale(value: unknown, label: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LOCALE_CHARS) return invalid(label, "expected a BCP 47 language tag such as en-US");
  try {
    const [canonical] = Intl.getCanonicalLocales(value);
    if (canonical !== undefined) return canonical;
  } catch {
    // reported below
  }
  return invalid(label, `${JSON.stringify(value)} is not a BCP 47 language tag (such as en-US or de-DE)`);
}

/**
 * An IANA zone name ICU knows, as ICU spells it. Chromium silently ignores a
 * zone it does not know, so a typo must fail here. Offsets (`+01:00`) are not
 * zone names.
 */
export function checkTimezone(value: unknown, label: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_TIMEZONE_CHARS || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) {
    return invalid(label, "expected an IANA time zone such as Europe/Berlin");
  }
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return invalid(label, `${JSON.stringify(value)} is not an IANA time zone (such as Europe/Berlin or UTC)`);
  }
}

/** Printable ASCII only: it becomes a header value. */
export function checkUserAgent(value: unknown, label: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_USER_AGENT_CHARS || !/^[\x20-\x7e]+$/.test(value)) {
    return invalid(label, `expected 1 to ${MAX_USER_AGENT_CHARS} printable ASCII characters`);
  }
  return value;
}

/** `scheme://host[:port]` of an http(s) site, nothing more. */
export function checkOrigin(value: unknown, label: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_ORIGIN_CHARS) return invalid(label, "expected an origin such as https://example.com");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return invalid(label, `${JSON.stringify(value)} is not a URL; expected an origin such as https://example.com`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") invalid(label, "the origin must be http or https");
  if (url.username !== "" || url.password !== "" || url.pathname !== "/" || url.search !== "" || url.hash !== "" || /\/./.test(value.replace(/^[a-z]+:\/\//i, ""))) {
    invalid(label, "expected an origin only (scheme://host[:port]), no path, query or credentials");
  }
  return url.origin;
}

export function checkGeolocation(value: unknown, labels: Pick<SettingLabels, "geolocation" | "geolocationOrigin">): Geolocation {
  if (!isRecord(value)) return invalid(labels.geolocation, "expected { latitude, longitude, origin }");
  onlyKeys(value, ["latitude", "longitude", "origin"], labels.geolocation);
  const latitude = numberIn(value.latitude, `${labels.geolocation} latitude`, -90, 90);
  const longitude = numberIn(value.longitude, `${labels.geolocation} longitude`, -180, 180);
  if (value.origin === undefined) invalid(labels.geolocationOrigin, `is required with ${labels.geolocation}: the position is granted to that origin only`);
  return { latitude, longitude, origin: checkOrigin(value.origin, labels.geolocationOrigin) };
}

const SETTING_KEYS: readonly (keyof SessionSettings)[] = ["viewport", "deviceScaleFactor", "locale", "timezone", "colorScheme", "reducedMotion", "userAgent", "geolocation"];

/** A settings object with every value checked and canonical; `labels` name the fields in errors. */
export function checkSessionSettings(value: unknown, labels: SettingLabels, whole = "settings"): SessionSettings {
  if (!isRecord(value)) return invalid(whole, "expected an object");
  onlyKeys(value, SETTING_KEYS, whole);
  const out: SessionSettings = {};
  if (value.viewport !== undefined) out.viewport = checkViewport(value.viewport, labels.viewport);
  if (value.deviceScaleFactor !== undefined) out.deviceScaleFactor = numberIn(value.deviceScaleFactor, labels.deviceScaleFactor, DEVICE_SCALE_RANGE.min, DEVICE_SCALE_RANGE.max);
  if (value.locale !== undefined) out.locale = checkLocale(value.locale, labels.locale);
  if (value.timezone !== undefined) out.timezone = checkTimezone(value.timezone, labels.timezone);
  if (value.colorScheme !== undefined) {
    if (value.colorScheme !== "light" && value.colorScheme !== "dark") invalid(labels.colorScheme, "expected light or dark");
    out.colorScheme = value.colorScheme;
  }
  if (value.reducedMotion !== undefined) {
    if (typeof value.reducedMotion !== "boolean") invalid(labels.reducedMotion, "expected true or false");
    if (value.reducedMotion) out.reducedMotion = true;
  }
  if (value.userAgent !== undefined) out.userAgent = checkUserAgent(value.userAgent, labels.userAgent);
  if (value.geolocation !== undefined) out.geolocation = checkGeolocation(value.geolocation, labels);
  return out;
}

/** What the parts of a create call are called where it came from (socket params, CLI flags). */
export interface SpecLabels {
  isolated: string;
  state: string;
  settings: SettingLabels;
}

export const FLAG_SPEC_LABELS: SpecLabels = { isolated: "--isolated", state: "--state", settings: FLAG_LABELS };
const PARAM_SPEC_LABELS: SpecLabels = { isolated: "params.isolated", state: "params.state", settings: fieldLabels("params.settings") };

/** The spec a create call asks for. Settings and a saved state need an isolated session: a shared one uses the profile's context as it is. */
export function specOf(request: { isolated?: boolean | undefined; settings?: SessionSettings | undefined; state?: string | undefined }, labels: SpecLabels = PARAM_SPEC_LABELS): SessionSpec {
  const settings = request.settings ?? {};
  const isolated = request.isolated === true;
  const keys = Object.keys(settings) as (keyof SessionSettings)[];
  if (!isolated && keys.length > 0) {
    invalid(keys.map((key) => labels.settings[key]).join(", "), `needs ${labels.isolated}: a shared session uses the profile's browser context and its settings`);
  }
  if (!isolated && request.state !== undefined) invalid(labels.state, `a saved state seeds an isolated session only; add ${labels.isolated}`);
  return request.state === undefined ? { isolated, settings } : { isolated, settings, state: request.state };
}

function shown(key: keyof SessionSettings, settings: SessionSettings): string {
  const value = settings[key];
  if (value === undefined) return "none";
  if (key === "viewport") return `${settings.viewport!.width}x${settings.viewport!.height}`;
  if (key === "geolocation") {
    const g = settings.geolocation!;
    return `${g.latitude},${g.longitude} for ${g.origin}`;
  }
  return JSON.stringify(value);
}

/** How `want` differs from the session as it is, one phrase per difference; empty when they are the same. */
export function specDifferences(have: SessionSpec, want: SessionSpec): string[] {
  const diffs: string[] = [];
  const kind = (spec: SessionSpec) => (spec.isolated ? "isolated" : "shared");
  if (have.isolated !== want.isolated) diffs.push(`the session is ${kind(have)}, this call wants it ${kind(want)}`);
  for (const key of SETTING_KEYS) {
    const a = shown(key, have.settings);
    const b = shown(key, want.settings);
    if (a !== b) diffs.push(`${key}: the session has ${a}, this call wants ${b}`);
  }
  if ((have.state ?? null) !== (want.state ?? null)) {
    diffs.push(`state: the session started from ${have.state === undefined ? "no saved state" : JSON.stringify(have.state)}, this call wants ${want.state === undefined ? "none" : JSON.stringify(want.state)}`);
  }
  return diffs;
}

/** One line for listings: `isolated 1280x800 de-DE Europe/Berlin dark`. */
export function describeSpec(spec: SessionSpec): string {
  if (!spec.isolated) return "shared";
  const parts = ["isolated"];
  for (const key of SETTING_KEYS) if (spec.settings[key] !== undefined) parts.push(`${key}=${shown(key, spec.settings)}`);
  if (spec.state !== undefined) parts.push(`from state ${spec.state}`);
  return parts.join(" ");
}
