// Remote browsers in settings (docs/remote-browsers.md): the endpoints a
// profile's sessions are placed on, whether a browser that cannot be made to
// use the guard may be used anyway, and where the daemon offers remote
// browsers its guard proxy. Pure: config.ts reads the sources and calls these.
// Secrets never appear here as values: a header states where its value comes
// from (`{env:NAME}`, `{vault:ID}`), and the daemon fills it in.
import { asBool, asCount, fail, type Source } from "./config-values.js";

/** How betterwright talks to an endpoint: a Playwright browser server, or Chrome DevTools Protocol. */
export type EndpointKind = "playwright" | "cdp";

export interface BrowserEndpoint {
  /** As stated (`ws://…`, `wss://…`, `cdp+http://…`, `cdp+ws://…`); never holds credentials. */
  url: string;
  kind: EndpointKind;
  /** Headers sent when connecting; values may name secrets as `{env:NAME}` or `{vault:ID}`. */
  headers: Record<string, string>;
  /** Sessions placed on it at most. */
  maxSessions: number;
}

export interface RemoteSettings {
  endpoints: BrowserEndpoint[];
  /** Use endpoints whose egress the guard cannot hold (CDP); every envelope then says GUARD_NOT_ENFORCED. */
  trustRemoteEgress: boolean;
  /** Where the daemon listens for remote browsers' connections (`host:port`; port 0 picks one). */
  guardListen: string;
  /** The `host:port` remote browsers dial to reach it, when the listening address is not it (0.0.0.0, NAT). */
  guardAdvertise?: string;
}

export const MAX_ENDPOINTS = 32;
export const DEFAULT_ENDPOINT_SESSIONS = 32;
export const REMOTE_DEFAULTS: RemoteSettings = { endpoints: [], trustRemoteEgress: false, guardListen: "127.0.0.1:0" };

const SCHEMES: Record<string, EndpointKind> = { "ws:": "playwright", "wss:": "playwright", "cdp+http:": "cdp", "cdp+https:": "cdp", "cdp+ws:": "cdp", "cdp+wss:": "cdp" };
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,64}$/;
/** A header value: printable text, with `{env:NAME}` / `{vault:ID}` placeholders. */
const HEADER_VALUE = /^[\x20-\x7e]{0,4096}$/;
const PLACEHOLDER = /\{(env|vault):([^}]*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const VAULT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** Headers the connection itself sets; stating them would break or smuggle the handshake. */
const RESERVED_HEADERS = new Set(["host", "connection", "upgrade", "content-length", "transfer-encoding", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "proxy-authorization"]);
/** Playwright's own connection headers: `x-playwright-proxy` would expose this machine's network to the remote browser. */
const isReserved = (name: string) => RESERVED_HEADERS.has(name.toLowerCase()) || name.toLowerCase().startsWith("x-playwright-");

/** One endpoint URL: a known scheme, a host, no credentials (they would sit in argv and logs). */
export function parseEndpointUrl(value: unknown, source: Source, what = "browserEndpoints"): { url: string; kind: EndpointKind } {
  if (typeof value !== "string" || value.trim() === "") return fail(source, what, "expected an endpoint URL (ws://, wss://, cdp+http://, cdp+ws://)");
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(source, what, `${JSON.stringify(text.slice(0, 200))} is not a URL`);
  }
  const kind = SCHEMES[url.protocol];
  if (!kind) return fail(source, what, `${url.protocol} is not an endpoint scheme; use ws:// or wss:// (a Playwright browser server) or cdp+http:// / cdp+ws:// (Chrome DevTools Protocol)`);
  if (url.username !== "" || url.password !== "") {
    return fail(source, what, "an endpoint URL must not hold credentials; send them as a header whose value names {env:NAME} or {vault:ID}");
  }
  if (url.hostname === "") return fail(source, what, "the endpoint URL has no host");
  if (url.hash !== "") return fail(source, what, "the endpoint URL must not have a #fragment");
  return { url: url.href, kind };
}

/** `host:port`, for the guard's listening and advertised addresses. */
export function parseHostPort(value: unknown, source: Source, what: string, { allowZero }: { allowZero: boolean }): string {
  if (typeof value !== "string") return fail(source, what, "expected host:port");
  const text = value.trim();
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$/.exec(text);
  const port = match ? Number(match[2]) : -1;
  if (!match || port > 65535 || (port === 0 && !allowZero)) return fail(source, what, `expected host:port, got ${JSON.stringify(text.slice(0, 100))}`);
  return text;
}

function parseHeaders(value: unknown, source: Source, what: string): Record<string, string> {
  if (value === undefined) return {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) return fail(source, what, "expected an object of header names to values");
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    if (!HEADER_NAME.test(name)) return fail(source, `${what}.${name.slice(0, 64)}`, "not a header name");
    if (isReserved(name)) return fail(source, `${what}.${name}`, "is set by the connection itself");
    if (typeof raw !== "string" || !HEADER_VALUE.test(raw)) return fail(source, `${what}.${name}`, "expected printable text");
    for (const [, kind, ref] of raw.matchAll(PLACEHOLDER)) {
      if (kind === "env" && !ENV_NAME.test(ref!)) return fail(source, `${what}.${name}`, `{env:${ref}} does not name an environment variable`);
      if (kind === "vault" && !VAULT_ID.test(ref!)) return fail(source, `${what}.${name}`, `{vault:${ref}} does not name a vault entry id`);
    }
    out[name] = raw;
  }
  return out;
}

/** One entry of `browserEndpoints`: a URL, or `{ url, headers?, maxSessions? }`. */
export function parseEndpoint(value: unknown, source: Source, what: string): BrowserEndpoint {
  if (typeof value === "string") return { ...parseEndpointUrl(value, source, what), headers: {}, maxSessions: DEFAULT_ENDPOINT_SESSIONS };
  if (value === null || typeof value !== "object" || Array.isArray(value)) return fail(source, what, "expected a URL or { url, headers, maxSessions }");
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!["url", "headers", "maxSessions"].includes(key)) fail(source, `${what}.${key}`, "unknown setting");
  }
  return {
    ...parseEndpointUrl(raw.url, source, `${what}.url`),
    headers: parseHeaders(raw.headers, source, `${what}.headers`),
    maxSessions: raw.maxSessions === undefined ? DEFAULT_ENDPOINT_SESSIONS : asCount(raw.maxSessions, source, `${what}.maxSessions`, "sessions", 10_000),
  };
}

export function parseEndpoints(value: unknown, source: Source, what = "browserEndpoints"): BrowserEndpoint[] {
  const list = typeof value === "string" ? value.split(/[\s,]+/).filter(Boolean) : value;
  if (!Array.isArray(list)) return fail(source, what, "expected a list of endpoints");
  if (list.length > MAX_ENDPOINTS) return fail(source, what, `at most ${MAX_ENDPOINTS} endpoints`);
  const endpoints = list.map((entry, i) => parseEndpoint(entry, source, `${what}[${i}]`));
  const seen = new Set<string>();
  for (const endpoint of endpoints) {
    if (seen.has(endpoint.url)) return fail(source, what, `${endpoint.url} is listed twice`);
    seen.add(endpoint.url);
  }
  return endpoints;
}

/** The remote settings a config file layer states (keys it does not state stay undefined). */
export interface RemoteLayer {
  endpoints?: BrowserEndpoint[];
  trustRemoteEgress?: boolean;
  guardListen?: string;
  guardAdvertise?: string;
}

export const REMOTE_FILE_KEYS = ["browserEndpoints", "trustRemoteEgress", "remoteGuardListen", "remoteGuardAdvertise"] as const;

export function remoteLayerFromObject(raw: Record<string, unknown>, source: Source): RemoteLayer {
  const layer: RemoteLayer = {};
  if (raw.browserEndpoints !== undefined) layer.endpoints = parseEndpoints(raw.browserEndpoints, source);
  if (raw.trustRemoteEgress !== undefined) layer.trustRemoteEgress = asBool(raw.trustRemoteEgress, source, "trustRemoteEgress");
  if (raw.remoteGuardListen !== undefined) layer.guardListen = parseHostPort(raw.remoteGuardListen, source, "remoteGuardListen", { allowZero: true });
  if (raw.remoteGuardAdvertise !== undefined) layer.guardAdvertise = parseHostPort(raw.remoteGuardAdvertise, source, "remoteGuardAdvertise", { allowZero: false });
  return layer;
}

export function remoteLayerFromEnv(env: NodeJS.ProcessEnv): RemoteLayer {
  const src = (name: string) => `environment ${name}`;
  return remoteLayerFromObject({
    browserEndpoints: env.BETTERWRIGHT_BROWSER_ENDPOINTS || undefined,
    trustRemoteEgress: env.BETTERWRIGHT_TRUST_REMOTE_EGRESS || undefined,
    remoteGuardListen: env.BETTERWRIGHT_REMOTE_GUARD_LISTEN || undefined,
    remoteGuardAdvertise: env.BETTERWRIGHT_REMOTE_GUARD_ADVERTISE || undefined,
  }, src("BETTERWRIGHT_BROWSER_ENDPOINTS etc."));
}

export function remoteLayerFromFlags(flags: { browserEndpoint?: string[]; trustRemoteEgress?: boolean }): RemoteLayer {
  const layer: RemoteLayer = {};
  if (flags.browserEndpoint?.length) layer.endpoints = parseEndpoints(flags.browserEndpoint, "flag --browser-endpoint", "browser-endpoint");
  if (flags.trustRemoteEgress) layer.trustRemoteEgress = true;
  return layer;
}

/** Later layers win, key by key. */
export function mergeRemote(layers: RemoteLayer[]): { settings: RemoteSettings; stated: boolean } {
  const merged: RemoteLayer = Object.assign({}, ...layers.map((l) => Object.fromEntries(Object.entries(l).filter(([, v]) => v !== undefined))));
  const settings: RemoteSettings = {
    endpoints: merged.endpoints ?? REMOTE_DEFAULTS.endpoints,
    trustRemoteEgress: merged.trustRemoteEgress ?? REMOTE_DEFAULTS.trustRemoteEgress,
    guardListen: merged.guardListen ?? REMOTE_DEFAULTS.guardListen,
    ...(merged.guardAdvertise !== undefined ? { guardAdvertise: merged.guardAdvertise } : {}),
  };
  if (/^(0\.0\.0\.0|\[::\]):/.test(settings.guardListen) && settings.guardAdvertise === undefined) {
    fail("settings", "remoteGuardAdvertise", `remoteGuardListen ${settings.guardListen} listens on every interface, which a remote browser cannot dial: say which host:port it should use`);
  }
  return { settings, stated: Object.keys(merged).length > 0 };
}

/** The header values with every `{env:…}` and `{vault:…}` filled in; a missing one is named (not its value). */
export async function fillHeaders(headers: Record<string, string>, env: NodeJS.ProcessEnv, vault: (id: string) => Promise<string>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, template] of Object.entries(headers)) {
    let value = "";
    let last = 0;
    for (const match of template.matchAll(PLACEHOLDER)) {
      value += template.slice(last, match.index);
      const [, kind, ref] = match;
      if (kind === "env") {
        const found = env[ref!];
        if (found === undefined || found === "") throw new Error(`header ${name} names the environment variable ${ref}, which is not set in the daemon's environment`);
        value += found;
      } else {
        value += await vault(ref!);
      }
      last = match.index! + match[0].length;
    }
    value += template.slice(last);
    if (/[\r\n\0]/.test(value)) throw new Error(`header ${name}'s value holds a line break`);
    out[name] = value;
  }
  return out;
}

/** The environment variables the endpoints' headers name (`{env:NAME}`): the daemon's environment keeps these. */
export function headerVariables(remote: RemoteSettings | undefined): string[] {
  const names = new Set<string>();
  for (const endpoint of remote?.endpoints ?? []) {
    for (const template of Object.values(endpoint.headers)) {
      for (const [, kind, ref] of template.matchAll(PLACEHOLDER)) if (kind === "env") names.add(ref!);
    }
  }
  return [...names];
}

/** Whether the worker opens TLS itself (a wss:// or https endpoint), so Node needs the extra CA bundle it was given. */
export function remoteUsesTls(remote: RemoteSettings | undefined): boolean {
  return (remote?.endpoints ?? []).some((e) => /^(cdp\+)?(wss|https):/.test(e.url));
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { "ws:": 80, "wss:": 443, "http:": 80, "https:": 443 };

/** The host and port an endpoint URL names (`cdp+` dropped, IPv6 brackets removed), and its transport scheme. */
export function endpointAddress(url: string): { host: string; port: number; protocol: string } {
  const target = new URL(url.replace(/^cdp\+/, ""));
  const host = target.hostname.replace(/^\[(.*)\]$/, "$1");
  return { host, port: target.port === "" ? DEFAULT_PORTS[target.protocol] ?? 80 : Number(target.port), protocol: target.protocol };
}

/** A checked `host:port` (parseHostPort) as its parts. */
export function splitHostPort(text: string): { host: string; port: number } {
  const colon = text.lastIndexOf(":");
  return { host: text.slice(0, colon).replace(/^\[(.*)\]$/, "$1"), port: Number(text.slice(colon + 1)) };
}
