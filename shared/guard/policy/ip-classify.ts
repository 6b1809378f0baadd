// Which network a canonical host lives on. The metadata floor is decided here,
// so every IPv6 form that carries an IPv4 address (mapped, compatible, SIIT,
// NAT64, 6to4, Teredo) is classified by the address it carries as well.
import { normalizeHost, type NormalizedHost } from "../questions/host-normalize.js";

export type HostClass = "metadata" | "loopback" | "private" | "public";

export interface HostClassification extends NormalizedHost {
  readonly class: HostClass;
  /** The IPv4 address an IPv6 form carries, when that decided or could have decided the class. */
  readonly embeddedIPv4?: string;
}

export type HostVerdict = ({ ok: true } & HostClassification) | { ok: false; reason: string };

/** Cloud instance-metadata services: the floor no option, allowlist or hook can lift. */
export const METADATA_IPV4: readonly string[] = Object.freeze([
  "169.254.169.254", // AWS, GCP, Azure, OCI, DigitalOcean, OpenStack and most others
  "169.254.170.2", // AWS ECS task credentials
  "169.254.170.23", // AWS EKS Pod Identity credentials
  "100.100.100.200", // Alibaba Cloud
  "169.254.0.23", // Tencent Cloud
  "168.63.129.16", // Azure WireServer (hands out extension settings)
]);

/** IPv6 metadata ranges as [prefix, bits]; AWS serves its services across fd00:ec2::/32. */
export const METADATA_IPV6: readonly (readonly [string, number])[] = Object.freeze([
  Object.freeze(["fd00:ec2::", 32] as const),
  Object.freeze(["fd20:ce::254", 128] as const), // GCP metadata on IPv6-only VMs
]);

/** Metadata hostnames; their subdomains are covered too. */
export const METADATA_HOSTNAMES: readonly string[] = Object.freeze(["metadata.google.internal", "metadata.goog"]);

/** Names the system resolver maps to loopback (RFC 6761 and the default /etc/hosts). */
export const LOOPBACK_HOSTNAMES: readonly string[] = Object.freeze([
  "localhost",
  "localhost.localdomain",
  "ip6-localhost",
  "ip6-loopback",
]);

/** Suffixes only an intranet resolves (their subdomains are private; single-label names are too). */
export const PRIVATE_NAME_SUFFIXES: readonly string[] = Object.freeze([
  "internal",
  "local",
  "lan",
  "home.arpa",
  "localdomain",
  "intranet",
  "corp",
  "home",
  "private",
]);

type Range = readonly [bytes: readonly number[], bits: number];

function v4(text: string, bits: number): Range {
  return [text.split(".").map(Number), bits];
}

const LOOPBACK_V4: readonly Range[] = [v4("127.0.0.0", 8)];
// 0/8 is "this host" on Linux, so it reaches local services; counting it private keeps it behind the stricter switch.
const PRIVATE_V4: readonly Range[] = [
  v4("0.0.0.0", 8),
  v4("10.0.0.0", 8),
  v4("100.64.0.0", 10),
  v4("169.254.0.0", 16),
  v4("172.16.0.0", 12),
  v4("192.0.0.0", 24),
  v4("192.0.2.0", 24),
  v4("192.168.0.0", 16),
  v4("198.18.0.0", 15),
  v4("198.51.100.0", 24),
  v4("203.0.113.0", 24),
  v4("224.0.0.0", 4),
  v4("240.0.0.0", 4),
];

function v6(hextets: readonly number[], bits: number): Range {
  const bytes: number[] = [];
  for (let i = 0; i < 8; i++) bytes.push(((hextets[i] ?? 0) >> 8) & 0xff, (hextets[i] ?? 0) & 0xff);
  return [bytes, bits];
}

const PRIVATE_V6: readonly Range[] = [
  v6([0xfc00], 7), // unique local
  v6([0xfe80], 10), // link-local
  v6([0xfec0], 10), // site-local (deprecated, still routed by some stacks)
  v6([0xff00], 8), // multicast
  v6([0x0100], 64), // discard-only
  v6([0x2001, 0x0db8], 32), // documentation
  v6([0x3fff], 20), // documentation (RFC 9637)
  v6([0x2001, 0x0002, 0], 48), // benchmarking
  v6([0x0064, 0xff9b, 0x0001], 48), // local-use NAT64: translates to whatever the operator chose
];

function inRange(bytes: readonly number[], [base, bits]: Range): boolean {
  if (bytes.length !== base.length) return false;
  for (let i = 0; i < bytes.length && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((base[i] ?? 0) & mask)) return false;
  }
  return true;
}

const STRICTNESS: readonly HostClass[] = ["public", "loopback", "private", "metadata"];

/** The stricter of two classes: a host is as dangerous as the worst network it can reach. */
export function stricterClass(a: HostClass, b: HostClass): HostClass {
  return STRICTNESS.indexOf(a) >= STRICTNESS.indexOf(b) ? a : b;
}

function classifyIPv4Bytes(bytes: readonly number[]): HostClass {
  const text = bytes.join(".");
  if (METADATA_IPV4.includes(text)) return "metadata";
  if (LOOPBACK_V4.some((range) => inRange(bytes, range))) return "loopback";
  if (PRIVATE_V4.some((range) => inRange(bytes, range))) return "private";
  return "public";
}

const allZero = (bytes: readonly number[]): boolean => bytes.every((b) => b === 0);
const isPrefix = (bytes: readonly number[], prefix: readonly number[]): boolean => prefix.every((b, i) => bytes[i] === b);

/** Every IPv4 address an IPv6 address may deliver to, by the transition scheme its prefix names. */
export function embeddedIPv4Candidates(bytes: readonly number[]): number[][] {
  const tail = bytes.slice(12, 16);
  const out: number[][] = [];
  const head10 = bytes.slice(0, 10);
  if (allZero(head10) && bytes[10] === 0xff && bytes[11] === 0xff) out.push(tail); // ::ffff:0:0/96 mapped
  if (allZero(bytes.slice(0, 12))) out.push(tail); // ::/96 compatible
  if (allZero(bytes.slice(0, 8)) && bytes[8] === 0xff && bytes[9] === 0xff && allZero(bytes.slice(10, 12))) {
    out.push(tail); // ::ffff:0:0:0/96 SIIT
  }
  if (isPrefix(bytes, [0x00, 0x64, 0xff, 0x9b]) && allZero(bytes.slice(4, 12))) out.push(tail); // 64:ff9b::/96
  if (isPrefix(bytes, [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01])) {
    // RFC 6052 layouts for the prefix lengths a local-use NAT64 may use; bits 64-71 are always zero.
    out.push(tail);
    if (bytes[8] === 0) {
      if (allZero(bytes.slice(11))) out.push([bytes[6]!, bytes[7]!, bytes[9]!, bytes[10]!]);
      if (allZero(bytes.slice(12))) out.push([bytes[7]!, bytes[9]!, bytes[10]!, bytes[11]!]);
      if (allZero(bytes.slice(13))) out.push(bytes.slice(9, 13));
    }
  }
  if (bytes[0] === 0x20 && bytes[1] === 0x02) out.push(bytes.slice(2, 6)); // 2002::/16 6to4
  if (isPrefix(bytes, [0x20, 0x01, 0x00, 0x00])) {
    out.push(bytes.slice(4, 8)); // Teredo server
    out.push(tail.map((b) => b ^ 0xff)); // Teredo client, stored inverted
  }
  return out;
}

// Parsed from the exported table, so the table stays the single source; on
// first use, because parsing loads ipaddr.js and most importers (the CLI's warm
// path) never classify an IPv6 address. A cache of constants, never changed.
let metadataV6: readonly Range[] | undefined;
const metadataRangesV6 = (): readonly Range[] => (metadataV6 ??= METADATA_IPV6.map(([prefix, bits]) => [v6Bytes(prefix), bits] as const));

function v6Bytes(text: string): number[] {
  const parsed = normalizeHost(text);
  if (!parsed.ok || parsed.value.kind !== "ipv6") throw new Error(`bad built-in IPv6 constant ${text}`);
  return [...parsed.value.bytes];
}

function classifyIPv6(host: NormalizedHost): HostClassification {
  const { bytes } = host;
  if (metadataRangesV6().some((range) => inRange(bytes, range))) return { ...host, class: "metadata" };
  // ::1 and :: sit inside ::/96 too; decide them first so loopback stays loopback.
  if (allZero(bytes.slice(0, 15)) && bytes[15] === 1) return { ...host, class: "loopback" };
  if (allZero(bytes)) return { ...host, class: "private" };
  const own: HostClass = PRIVATE_V6.some((range) => inRange(bytes, range)) ? "private" : "public";
  let worst: { class: HostClass; address: string } | undefined;
  for (const candidate of embeddedIPv4Candidates(bytes)) {
    const carried = classifyIPv4Bytes(candidate);
    if (worst === undefined || STRICTNESS.indexOf(carried) > STRICTNESS.indexOf(worst.class)) {
      worst = { class: carried, address: candidate.join(".") };
    }
  }
  if (worst === undefined) return { ...host, class: own };
  return { ...host, class: stricterClass(own, worst.class), embeddedIPv4: worst.address };
}

function matchesNameList(name: string, list: readonly string[]): boolean {
  return list.some((entry) => name === entry || name.endsWith(`.${entry}`));
}

function classifyName(host: NormalizedHost): HostClassification {
  const name = host.host;
  if (matchesNameList(name, METADATA_HOSTNAMES)) return { ...host, class: "metadata" };
  if (LOOPBACK_HOSTNAMES.includes(name) || name.endsWith(".localhost")) return { ...host, class: "loopback" };
  // A single-label name is completed by the resolver's search domains, i.e. the intranet.
  if (!name.includes(".") || matchesNameList(name, PRIVATE_NAME_SUFFIXES)) return { ...host, class: "private" };
  return { ...host, class: "public" };
}

/** Class of an already-normalised host. */
export function classifyNormalizedHost(host: NormalizedHost): HostClassification {
  if (host.kind === "ipv4") return { ...host, class: classifyIPv4Bytes(host.bytes) };
  if (host.kind === "ipv6") return classifyIPv6(host);
  return classifyName(host);
}

/** Normalise then classify a host in any spelling. */
export function classifyHost(input: unknown): HostVerdict {
  const parsed = normalizeHost(input);
  if (!parsed.ok) return parsed;
  return { ok: true, ...classifyNormalizedHost(parsed.value) };
}

/** True when the host, in whatever spelling, is a cloud metadata endpoint. */
export function isMetadataHost(input: unknown): boolean {
  const verdict = classifyHost(input);
  return verdict.ok && verdict.class === "metadata";
}
