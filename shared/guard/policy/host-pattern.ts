// allowHosts / blockHosts entries: a host (exact, or a parent domain of the
// target) with an optional port. Entries are validated and normalised once, so
// `0x7f.1:80` and `127.0.0.1:80` are the same entry and a typo fails loudly.
import { BwError } from "../../protocol/errors.js";
import { hostForUrl, normalizeHost, type NormalizedHost } from "../questions/host-normalize.js";

export interface HostPattern {
  readonly host: NormalizedHost;
  /** Null matches every port. */
  readonly port: number | null;
  /** Canonical spelling: `host`, `host:port`, `[v6]:port`. */
  readonly text: string;
}

const PORT_TEXT = /^[0-9]{1,5}$/;

function invalid(option: string, entry: unknown, problem: string): BwError {
  return new BwError("INVALID_ARGUMENT", `${option} entry ${JSON.stringify(entry)}: ${problem}`);
}

function parsePort(text: string): number | null {
  if (!PORT_TEXT.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : null;
}

function splitEntry(entry: string): { hostText: string; portText: string | undefined } | string {
  if (entry.startsWith("[")) {
    const close = entry.indexOf("]");
    if (close === -1) return "bracketed IPv6 address is not closed";
    const rest = entry.slice(close + 1);
    if (rest === "") return { hostText: entry.slice(0, close + 1), portText: undefined };
    if (!rest.startsWith(":")) return "unexpected text after the bracketed address";
    return { hostText: entry.slice(0, close + 1), portText: rest.slice(1) };
  }
  const colons = entry.split(":").length - 1;
  // Two or more colons can only be a bare IPv6 address; a port needs brackets then.
  if (colons >= 2) return { hostText: entry, portText: undefined };
  if (colons === 1) {
    const at = entry.indexOf(":");
    return { hostText: entry.slice(0, at), portText: entry.slice(at + 1) };
  }
  return { hostText: entry, portText: undefined };
}

/** Parse one entry; throws INVALID_ARGUMENT naming the option and the entry. */
export function parseHostPattern(entry: unknown, option: string): HostPattern {
  if (typeof entry !== "string") throw invalid(option, entry, "must be a string");
  const trimmed = entry.trim();
  if (trimmed.length === 0) throw invalid(option, entry, "is empty");
  if (trimmed.includes("/") || trimmed.includes("@")) {
    throw invalid(option, entry, "must be a host with an optional :port, not a URL");
  }
  if (trimmed.includes("*") || trimmed.startsWith(".")) {
    throw invalid(option, entry, "wildcards are not supported; an entry already matches its subdomains");
  }
  const split = splitEntry(trimmed);
  if (typeof split === "string") throw invalid(option, entry, split);
  const parsed = normalizeHost(split.hostText);
  if (!parsed.ok) throw invalid(option, entry, parsed.reason);
  let port: number | null = null;
  if (split.portText !== undefined) {
    port = parsePort(split.portText);
    if (port === null) throw invalid(option, entry, "port must be a number from 1 to 65535");
  }
  const hostText = hostForUrl(parsed.value);
  return Object.freeze({ host: parsed.value, port, text: port === null ? hostText : `${hostText}:${port}` });
}

/** Parse an option's list; throws INVALID_ARGUMENT when it is not an array of valid entries. */
export function parseHostPatterns(entries: unknown, option: string): readonly HostPattern[] {
  if (entries === undefined) return Object.freeze([]);
  if (!Array.isArray(entries)) throw new BwError("INVALID_ARGUMENT", `${option} must be an array of host strings`);
  return Object.freeze(entries.map((entry) => parseHostPattern(entry, option)));
}

/** An IPv4-mapped IPv6 address is the same endpoint as its IPv4 address. */
function comparable(host: NormalizedHost): string {
  const b = host.bytes;
  if (host.kind === "ipv6" && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) {
    return b.slice(12).join(".");
  }
  return host.host;
}

export function matchesHostPattern(pattern: HostPattern, host: NormalizedHost, port: number): boolean {
  if (pattern.port !== null && pattern.port !== port) return false;
  if (pattern.host.kind === "name") {
    if (host.kind !== "name") return false;
    return host.host === pattern.host.host || host.host.endsWith(`.${pattern.host.host}`);
  }
  if (host.kind === "name") return false;
  return comparable(host) === comparable(pattern.host);
}

/** The first pattern matching any of the hosts, if one does. */
export function findMatchingPattern(
  patterns: readonly HostPattern[],
  hosts: readonly NormalizedHost[],
  port: number,
): HostPattern | undefined {
  return patterns.find((pattern) => hosts.some((host) => matchesHostPattern(pattern, host, port)));
}
