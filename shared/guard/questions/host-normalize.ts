// Turns any spelling of a host (URL hostname, SOCKS domain, HTTP CONNECT
// authority, allowHosts entry) into one canonical form, so that every later
// comparison is between canonical strings. Anything ambiguous is refused:
// a host we cannot read is a host we must not let through.
import { createRequire } from "node:module";
import { domainToASCII } from "node:url";
import type ipaddrModule from "ipaddr.js";

// Loaded on first use (require caches it): the CLI's warm path imports this
// module but rarely normalises an address, and ipaddr.js costs ~20 ms to load.
const load = createRequire(import.meta.url);
const ipaddr = {
  get IPv4(): typeof ipaddrModule.IPv4 {
    return (load("ipaddr.js") as typeof ipaddrModule).IPv4;
  },
  get IPv6(): typeof ipaddrModule.IPv6 {
    return (load("ipaddr.js") as typeof ipaddrModule).IPv6;
  },
};

export type HostKind = "ipv4" | "ipv6" | "name";

export interface NormalizedHost {
  readonly kind: HostKind;
  /** Lower-case name without trailing dot, dotted-quad IPv4, or compressed IPv6 without brackets or zone. */
  readonly host: string;
  /** Sixteen bytes for IPv6, four for IPv4, empty for names. */
  readonly bytes: readonly number[];
}

export type HostParse = { ok: true; value: NormalizedHost } | { ok: false; reason: string };

const MAX_HOST_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
// Longer than any real host plus brackets and a zone id: bounds the work done on hostile input.
const MAX_INPUT_LENGTH = 320;
// WHATWG and inet_aton both read a host whose last label is a number as an IPv4 address.
const NUMERIC_LABEL = /^(?:0x[0-9a-f]*|[0-9]+)$/;
// Underscore appears in real hostnames (and Chromium accepts it); nothing else outside LDH does.
const NAME_LABEL = /^[a-z0-9_-]+$/;
const ZONE_ID = /^[a-z0-9._~%-]+$/;
// Inside IPv6 only strict dotted decimal is an address (RFC 4291, WHATWG): no hex, octal or short forms.
const OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
const DOTTED_QUAD = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);

function fail(reason: string): HostParse {
  return { ok: false, reason };
}

function ok(kind: HostKind, host: string, bytes: readonly number[]): HostParse {
  return { ok: true, value: Object.freeze({ kind, host, bytes: Object.freeze([...bytes]) }) };
}

function parseIPv6(text: string): HostParse {
  let address = text;
  const zoneAt = address.indexOf("%");
  if (zoneAt !== -1) {
    // A zone id picks an interface, not a different address: dropping it keeps the classification honest.
    const zone = address.slice(zoneAt + 1);
    if (!ZONE_ID.test(zone)) return fail("IPv6 zone id is malformed");
    address = address.slice(0, zoneAt);
  }
  if (address.includes(".")) {
    // ipaddr.js rewrites `::a.b.c.d` as the mapped `::ffff:a.b.c.d`, a different address;
    // spelling the tail as two hextets ourselves keeps the address we dial the address we judged.
    const at = address.lastIndexOf(":");
    const tail = address.slice(at + 1);
    if (!DOTTED_QUAD.test(tail)) return fail("IPv6 address has a malformed embedded IPv4 address");
    const [a, b, c, d] = tail.split(".").map(Number) as [number, number, number, number];
    address = `${address.slice(0, at + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  if (!ipaddr.IPv6.isValid(address)) return fail("not a valid IPv6 address");
  const parsed = ipaddr.IPv6.parse(address);
  return ok("ipv6", parsed.toString(), parsed.toByteArray());
}

function parseIPv4(text: string): HostParse {
  // ipaddr.js reads the inet_aton forms (one to four parts, octal, hex) that browsers and libc accept.
  if (!ipaddr.IPv4.isValid(text)) return fail("ends in a number but is not a valid IPv4 address");
  const parsed = ipaddr.IPv4.parse(text);
  return ok("ipv4", parsed.toString(), parsed.toByteArray());
}

function endsInNumber(name: string): boolean {
  const labels = name.split(".");
  return NUMERIC_LABEL.test(labels[labels.length - 1] ?? "");
}

function parseName(text: string): HostParse {
  let name = text;
  if (name.endsWith(".")) name = name.slice(0, -1);
  if (name.length === 0) return fail("host is empty");
  if (endsInNumber(name)) return parseIPv4(name);
  // Only non-ASCII input needs IDNA; it can map full-width digits to an IPv4 address, hence the re-check.
  if (!/^[\x21-\x7e]*$/.test(name)) {
    name = domainToASCII(name);
    if (name.length === 0) return fail("not a valid internationalised domain name");
    if (name.endsWith(".")) name = name.slice(0, -1);
    if (endsInNumber(name)) return parseIPv4(name);
  }
  if (name.length > MAX_HOST_LENGTH) return fail(`host is longer than ${MAX_HOST_LENGTH} characters`);
  for (const label of name.split(".")) {
    if (label.length === 0) return fail("host has an empty label");
    if (label.length > MAX_LABEL_LENGTH) return fail(`host has a label longer than ${MAX_LABEL_LENGTH} characters`);
    if (!NAME_LABEL.test(label)) return fail("host contains characters not allowed in a hostname");
  }
  if (name.split(".").some((label) => label.startsWith("xn--")) && domainToASCII(name) !== name) {
    return fail("host has an invalid punycode label");
  }
  return ok("name", name, []);
}

/** Canonical form of a host in any spelling, or why it cannot be read. */
export function normalizeHost(input: unknown): HostParse {
  if (typeof input !== "string" || input.length === 0) return fail("host is empty");
  if (input.length > MAX_INPUT_LENGTH) return fail("host is too long");
  const text = input.toLowerCase();
  if (text.startsWith("[")) {
    if (!text.endsWith("]")) return fail("bracketed IPv6 address is not closed");
    return parseIPv6(text.slice(1, -1));
  }
  if (text.includes(":")) return parseIPv6(text);
  return parseName(text);
}

/** The host as it appears in a URL authority: IPv6 in brackets. */
export function hostForUrl(host: NormalizedHost): string {
  return host.kind === "ipv6" ? `[${host.host}]` : host.host;
}
