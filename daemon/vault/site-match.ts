// Which saved credential may be offered on which page. Pure: no I/O, no state.
// Invariant: a login never crosses registrable domains (private PSL suffixes
// such as github.io count as suffixes), an https login is never offered over
// http, and localhost / IP / single-label hosts match only their exact host.
import { createRequire } from "node:module";
import type { parse as parseType } from "tldts";
import { BwError } from "../../shared/protocol/errors.js";

// tldts (the public-suffix list) costs ~80 ms to load; the daemon needs it only
// when a vault call matches a site, so it loads on first use (require caches it).
const load = createRequire(import.meta.url);
const parse: typeof parseType = (...args) => (load("tldts") as { parse: typeof parseType }).parse(...args);

export type SiteScheme = "http" | "https";

/**
 * How a host is compared:
 * - `domain`: by registrable domain (eTLD+1, private suffixes included);
 * - `ip`: an IPv4 or IPv6 literal, by exact address;
 * - `host`: localhost, `*.localhost` and single-label intranet names, by exact name
 *   (they have no registrable domain to share).
 */
export type SiteKind = "domain" | "ip" | "host";

export interface Site {
  scheme: SiteScheme;
  /** Lowercase, punycoded, no trailing dot; IPv6 without brackets. */
  host: string;
  /** Only a non-default port; undefined means "not stated". */
  port?: number;
  kind: SiteKind;
  /** Registrable domain when kind is `domain`, else null. */
  domain: string | null;
}

const MAX_SITE_INPUT_CHARS = 2048;
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * Parses a URL (`https://host[:port]/anything`) or a bare host (`host[:port]`,
 * which means https: give a URL to save an http site). Only http and https
 * are sites; a public suffix on its own (`com`, `github.io`) is not.
 * Throws INVALID_ARGUMENT.
 */
export function parseSite(input: string): Site {
  const site = tryParseSite(input);
  if (site === null) {
    throw new BwError("INVALID_ARGUMENT", "site must be an http(s) URL or a host name, e.g. https://example.com");
  }
  return site;
}

/** Like parseSite but returns null for anything that is not a site (about:blank, file:, garbage). */
export function tryParseSite(input: unknown): Site | null {
  if (typeof input !== "string") return null;
  const text = input.trim();
  if (text === "" || text.length > MAX_SITE_INPUT_CHARS || /\s/.test(text)) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  // A bare host has no userinfo; "mailto:x@example.com" must not read as user "mailto:x".
  if (!hasScheme && /@/.test(text.split(/[/?#]/, 1)[0] ?? "")) return null;
  let url: URL;
  try {
    url = new URL(hasScheme ? text : `https://${text}`);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const scheme: SiteScheme = url.protocol === "https:" ? "https" : "http";
  const port = url.port === "" ? undefined : Number(url.port);
  let host = url.hostname.toLowerCase();
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  else if (host.endsWith(".")) host = host.slice(0, -1);
  if (host === "") return null;

  const info = parse(host, { allowPrivateDomains: true });
  if (info.isIp === true) return withPort({ scheme, host, kind: "ip", domain: null }, port);
  if (host.length > 253 || !host.split(".").every((label) => LABEL.test(label))) return null;
  if (host === "localhost" || host.endsWith(".localhost") || !host.includes(".")) {
    // A listed suffix on its own (e.g. `com`) names no site; an unlisted single label
    // (e.g. `router`) is an intranet host.
    if (info.isIcann === true) return null;
    return withPort({ scheme, host, kind: "host", domain: null }, port);
  }
  if (info.domain === null || info.domain === undefined) return null; // a bare public suffix
  return withPort({ scheme, host, kind: "domain", domain: info.domain }, port);
}

function withPort(site: Site, port: number | undefined): Site {
  if (port !== undefined) site.port = port;
  return site;
}

/** The canonical string stored in the vault: `scheme://host[:port]`. */
export function formatSite(site: Site): string {
  const host = site.host.includes(":") ? `[${site.host}]` : site.host;
  return `${site.scheme}://${host}${site.port === undefined ? "" : `:${site.port}`}`;
}

/** Canonical form of a user-supplied site; throws INVALID_ARGUMENT on garbage. */
export function normalizeSite(input: string): string {
  return formatSite(parseSite(input));
}

/**
 * 0 when `saved` must not be offered on `page`; otherwise a rank where higher is
 * a closer match (same host, same scheme, same port), for ordering candidates.
 *
 * Scheme rule: an https credential is never offered on http (it would travel in
 * clear text to whoever controls the network); an http credential may be
 * offered on https of the same site, since that exposes it to no one new.
 * Port rule: a port stated on the saved site must match; no port matches any.
 */
export function siteMatchScore(saved: Site | string, page: Site | string): number {
  const s = typeof saved === "string" ? tryParseSite(saved) : saved;
  const p = typeof page === "string" ? tryParseSite(page) : page;
  if (s === null || p === null) return 0;
  if (s.scheme === "https" && p.scheme !== "https") return 0;
  if (s.port !== undefined && s.port !== p.port) return 0;
  const sameHost = s.host === p.host;
  if (s.kind === "domain") {
    if (p.kind !== "domain" || s.domain !== p.domain) return 0;
  } else if (s.kind !== p.kind || !sameHost) {
    return 0;
  }
  return 1 + (sameHost ? 4 : 0) + (s.scheme === p.scheme ? 2 : 0) + (s.port === p.port ? 1 : 0);
}

export function siteMatches(saved: Site | string, page: Site | string): boolean {
  return siteMatchScore(saved, page) > 0;
}
