import { describe, expect, it } from "vitest";
import {
  classifyHost,
  isMetadataHost,
  METADATA_HOSTNAMES,
  METADATA_IPV4,
  normalizeHost,
  stricterClass,
  type HostClass,
} from "../../shared/guard/policy/index.js";

// [spelling, canonical host] — every spelling must land on the metadata floor.
const METADATA_SPELLINGS: readonly [string, string][] = [
  ["169.254.169.254", "169.254.169.254"],
  ["169.254.169.254.", "169.254.169.254"],
  ["0xA9FEA9FE", "169.254.169.254"],
  ["0Xa9fea9fe", "169.254.169.254"],
  ["2852039166", "169.254.169.254"],
  ["0251.0376.0251.0376", "169.254.169.254"],
  ["00000251.0376.0251.0376", "169.254.169.254"],
  ["0xa9.0xfe.0xa9.0xfe", "169.254.169.254"],
  ["0251.0xfe.43518", "169.254.169.254"],
  ["169.254.43518", "169.254.169.254"],
  ["169.16689662", "169.254.169.254"],
  ["025177524776", "169.254.169.254"],
  ["１６９．２５４．１６９．２５４", "169.254.169.254"],
  ["[::ffff:169.254.169.254]", "::ffff:a9fe:a9fe"],
  ["::ffff:169.254.169.254", "::ffff:a9fe:a9fe"],
  ["[::ffff:a9fe:a9fe]", "::ffff:a9fe:a9fe"],
  ["[::FFFF:A9FE:A9FE]", "::ffff:a9fe:a9fe"],
  ["[0:0:0:0:0:ffff:a9fe:a9fe]", "::ffff:a9fe:a9fe"],
  ["[::ffff:169.254.169.254%eth0]", "::ffff:a9fe:a9fe"],
  ["[::169.254.169.254]", "::a9fe:a9fe"],
  ["[::a9fe:a9fe]", "::a9fe:a9fe"],
  ["[::ffff:0:a9fe:a9fe]", "::ffff:0:a9fe:a9fe"],
  ["[64:ff9b::a9fe:a9fe]", "64:ff9b::a9fe:a9fe"],
  ["[64:ff9b::169.254.169.254]", "64:ff9b::a9fe:a9fe"],
  ["[64:ff9b:1::a9fe:a9fe]", "64:ff9b:1::a9fe:a9fe"],
  ["[64:ff9b:1:a9fe:a9:fe00::]", "64:ff9b:1:a9fe:a9:fe00::"],
  ["[2002:a9fe:a9fe::]", "2002:a9fe:a9fe::"],
  ["[2002:a9fe:a9fe:1234::1]", "2002:a9fe:a9fe:1234::1"],
  ["[2001:0:4136:e378:8000:63bf:5601:5601]", "2001:0:4136:e378:8000:63bf:5601:5601"],
  ["[fd00:ec2::254]", "fd00:ec2::254"],
  ["[FD00:0EC2:0000::0254]", "fd00:ec2::254"],
  ["fd00:ec2::254", "fd00:ec2::254"],
  ["[fd00:ec2::254%eth0]", "fd00:ec2::254"],
  ["fd00:ec2::254%25eth0", "fd00:ec2::254"],
  ["[fd00:ec2::23]", "fd00:ec2::23"],
  ["[fd20:ce::254]", "fd20:ce::254"],
  ["metadata.google.internal", "metadata.google.internal"],
  ["METADATA.google.internal.", "metadata.google.internal"],
  ["computeMetadata.metadata.google.internal", "computemetadata.metadata.google.internal"],
  ["metadata.goog", "metadata.goog"],
  ["METADATA.GOOG.", "metadata.goog"],
  ["100.100.100.200", "100.100.100.200"],
  ["0x646464c8", "100.100.100.200"],
  ["1684301000", "100.100.100.200"],
  ["[::ffff:100.100.100.200]", "::ffff:6464:64c8"],
  ["169.254.170.2", "169.254.170.2"],
  ["0xa9feaa02", "169.254.170.2"],
  ["[64:ff9b::169.254.170.2]", "64:ff9b::a9fe:aa02"],
  ["169.254.170.23", "169.254.170.23"],
];

describe("metadata floor: every spelling classifies as metadata", () => {
  it.each(METADATA_SPELLINGS)("%s", (spelling, canonical) => {
    const verdict = classifyHost(spelling);
    expect(verdict).toMatchObject({ ok: true, class: "metadata", host: canonical });
    expect(isMetadataHost(spelling)).toBe(true);
  });

  it.each(METADATA_IPV4.map((address) => [address]))("the table's own %s, and its mapped form", (address) => {
    expect(classifyHost(address)).toMatchObject({ class: "metadata" });
    expect(classifyHost(`[::ffff:${address}]`)).toMatchObject({ class: "metadata", embeddedIPv4: address });
  });

  it.each(METADATA_HOSTNAMES.map((name) => [name]))("the table's own %s, upper-case with a trailing dot", (name) => {
    expect(classifyHost(`${name.toUpperCase()}.`)).toMatchObject({ class: "metadata" });
  });

  it("reports the carried IPv4 address", () => {
    expect(classifyHost("[2002:a9fe:a9fe::]")).toMatchObject({ embeddedIPv4: "169.254.169.254" });
    expect(classifyHost("[2001:0:4136:e378:8000:63bf:5601:5601]")).toMatchObject({ embeddedIPv4: "169.254.169.254" });
  });
});

const CLASS_TABLE: readonly [string, HostClass][] = [
  // loopback
  ["127.0.0.1", "loopback"],
  ["127.1", "loopback"],
  ["127.0.0.1.", "loopback"],
  ["0x7f.1", "loopback"],
  ["0x7f000001", "loopback"],
  ["2130706433", "loopback"],
  ["017700000001", "loopback"],
  ["0177.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["[::1]", "loopback"],
  ["::1", "loopback"],
  ["[0:0:0:0:0:0:0:1]", "loopback"],
  ["[::ffff:127.0.0.1]", "loopback"],
  ["[::ffff:7f00:1]", "loopback"],
  ["[64:ff9b::7f00:1]", "loopback"],
  ["[2002:7f00:1::]", "loopback"],
  ["localhost", "loopback"],
  ["LOCALHOST.", "loopback"],
  ["app.localhost", "loopback"],
  ["ip6-localhost", "loopback"],
  // private, link-local, CGNAT, "this host", special-purpose
  ["10.0.0.1", "private"],
  ["012.0.0.1", "private"],
  ["0xa000001", "private"],
  ["167772161", "private"],
  ["10.1", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["0xc0a80101", "private"],
  ["3232235777", "private"],
  ["192.168.257", "private"],
  ["169.254.1.1", "private"],
  ["169.254.169.253", "private"],
  ["100.64.0.1", "private"],
  ["100.127.255.255", "private"],
  ["0.0.0.0", "private"],
  ["0", "private"],
  ["0x0", "private"],
  ["[::]", "private"],
  ["[::2]", "private"],
  ["224.0.0.1", "private"],
  ["255.255.255.255", "private"],
  ["198.18.0.1", "private"],
  ["192.0.2.1", "private"],
  ["[fc00::1]", "private"],
  ["[fd12:3456::1]", "private"],
  ["[fe80::1]", "private"],
  ["[fe80::1%eth0]", "private"],
  ["fe80::1%25en0", "private"],
  ["[febf::1]", "private"],
  ["[fec0::1]", "private"],
  ["[ff02::1]", "private"],
  ["[2001:db8::1]", "private"],
  ["[::ffff:10.0.0.1]", "private"],
  ["[::ffff:192.168.0.1]", "private"],
  ["[::ffff:c0a8:1]", "private"],
  ["[64:ff9b::a00:1]", "private"],
  ["[64:ff9b:1::808:808]", "private"],
  ["[2002:c0a8:101::]", "private"],
  ["[2002:a9fe:101::]", "private"],
  ["router", "private"],
  ["printer.local", "private"],
  ["db.internal", "private"],
  ["DB.INTERNAL.", "private"],
  ["nas.lan", "private"],
  ["nas.home.arpa", "private"],
  ["google.internal", "private"],
  // public
  ["1.1.1.1", "public"],
  ["8.8.8.8", "public"],
  ["0x08080808", "public"],
  ["134744072", "public"],
  ["11.0.0.1", "public"],
  ["172.15.255.255", "public"],
  ["172.32.0.1", "public"],
  ["100.63.255.255", "public"],
  ["100.128.0.1", "public"],
  ["169.255.0.1", "public"],
  ["192.169.0.1", "public"],
  ["[2606:4700::1111]", "public"],
  ["[::ffff:8.8.8.8]", "public"],
  ["[64:ff9b::808:808]", "public"],
  ["[2002:808:808::]", "public"],
  ["example.com", "public"],
  ["EXAMPLE.COM.", "public"],
  ["a_b.example.com", "public"],
  ["localhost.example.com", "public"],
  ["notlocalhost.com", "public"],
  ["metadata.google.internal.example.com", "public"],
  ["metadata.goog.example.com", "public"],
  ["xn--bc-uia.com", "public"],
  ["Äbc.com", "public"],
];

describe("loopback, private and public ranges in every spelling", () => {
  it.each(CLASS_TABLE)("%s is %s", (spelling, expected) => {
    expect(classifyHost(spelling)).toMatchObject({ ok: true, class: expected });
  });
});

const MALFORMED: readonly string[] = [
  "",
  ".",
  "..",
  "a..b",
  ".example.com",
  "example.com..",
  "1.2.3.4.5",
  "256.1.1.1",
  "1.2.3.256",
  "019.1.1.1",
  "08.1.1.1",
  "4294967296",
  "0x100000000",
  "0x",
  "example.123",
  "exa mple.com",
  "a$b.com",
  "a/b",
  "evil.com@169.254.169.254",
  "169.254.169.254@evil.com",
  "[::1",
  "[::1]x",
  "[example.com]",
  "1::2::3",
  "::ffff:1.2.3",
  "::ffff:0xa9.0xfe.0xa9.0xfe",
  "::ffff:169.254.169.0254",
  "::ffff:1.2.3.4.5",
  "1.2.3.4::",
  "fe80::1%",
  "fe80::1%eth 0",
  "example.com%eth0",
  "xn--zz.com",
  `${"a".repeat(64)}.com`,
  `${"a.".repeat(130)}com`,
  "exam\u0000ple.com",
];

describe("hosts that cannot be read are refused, never guessed", () => {
  it.each(MALFORMED.map((host) => [host]))("%j", (host) => {
    const verdict = classifyHost(host);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason.length).toBeGreaterThan(0);
    expect(isMetadataHost(host)).toBe(false);
  });

  it("refuses non-strings", () => {
    for (const value of [undefined, null, 42, {}, ["127.0.0.1"]]) expect(classifyHost(value).ok).toBe(false);
  });
});

// The URL layer parses hosts with WHATWG rules; the proxy layer with ours. They must agree.
const WHATWG_PARITY: readonly string[] = [
  "0xA9FEA9FE",
  "2852039166",
  "0251.0376.0251.0376",
  "169.254.43518",
  "169.16689662",
  "0x7f.1",
  "127.1",
  "017700000001",
  "10.1",
  "192.168.257",
  "1.2.3.4.",
  "[::ffff:169.254.169.254]",
  "[::169.254.169.254]",
  "[64:ff9b::169.254.169.254]",
  "[FD00:0EC2::0254]",
  "[0:0:0:0:0:0:0:1]",
  "EXAMPLE.com",
  "Äbc.com",
  "１６９．２５４．１６９．２５４",
];

describe("normalisation agrees with the WHATWG URL parser", () => {
  it.each(WHATWG_PARITY.map((host) => [host]))("%s", (host) => {
    const whatwg = new URL(`http://${host}/`).hostname.replace(/^\[|\]$/g, "");
    const ours = normalizeHost(host);
    expect(ours.ok && ours.value.host).toBe(whatwg);
  });
});

describe("stricterClass", () => {
  it.each([
    ["public", "loopback", "loopback"],
    ["loopback", "private", "private"],
    ["private", "metadata", "metadata"],
    ["metadata", "public", "metadata"],
    ["public", "public", "public"],
  ] as const)("%s vs %s is %s", (a, b, expected) => {
    expect(stricterClass(a, b)).toBe(expected);
    expect(stricterClass(b, a)).toBe(expected);
  });
});
