import { describe, expect, it } from "vitest";
import { BwError } from "../../shared/protocol/errors.js";
import { proxyTarget } from "../../shared/guard/questions/index.js";
import { NetworkPolicy, parseHostPattern, type NetworkPolicyOptions } from "../../shared/guard/policy/index.js";

function expectInvalid(build: () => unknown): void {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(BwError);
    expect((error as BwError).code).toBe("INVALID_ARGUMENT");
    return;
  }
  throw new Error("expected INVALID_ARGUMENT");
}

describe("bad options throw INVALID_ARGUMENT", () => {
  const BAD: readonly [string, unknown][] = [
    ["null options", null],
    ["array options", []],
    ["string options", "hardened"],
    ["a misspelt switch", { allowPrivateNetworks: false }],
    ["allowLoopback as a string", { allowLoopback: "false" }],
    ["allowPrivateNetwork as a number", { allowPrivateNetwork: 0 }],
    ["allowHosts as a string", { allowHosts: "example.com" }],
    ["blockHosts as an object", { blockHosts: { host: "example.com" } }],
    ["a non-string entry", { allowHosts: [5] }],
    ["an empty entry", { allowHosts: [""] }],
    ["a URL", { allowHosts: ["https://example.com"] }],
    ["a path", { blockHosts: ["example.com/ads"] }],
    ["credentials", { allowHosts: ["user@example.com"] }],
    ["a wildcard", { allowHosts: ["*.example.com"] }],
    ["a leading dot", { allowHosts: [".example.com"] }],
    ["port 0", { allowHosts: ["example.com:0"] }],
    ["port 65536", { allowHosts: ["example.com:65536"] }],
    ["a named port", { allowHosts: ["example.com:http"] }],
    ["an empty port", { allowHosts: ["example.com:"] }],
    ["an empty label", { allowHosts: ["a..b"] }],
    ["an unclosed bracket", { allowHosts: ["[::1"] }],
    ["text after brackets", { allowHosts: ["[::1]8080"] }],
    ["a bad IPv4", { blockHosts: ["256.1.1.1"] }],
    ["a bad IPv6", { blockHosts: ["1::2::3"] }],
    ["a space", { blockHosts: ["exa mple.com"] }],
    ["custom as a string", { custom: "() => null" }],
    ["custom as an object", { custom: { check: () => null } }],
  ];
  it.each(BAD)("%s", (_name, options) => {
    expectInvalid(() => new NetworkPolicy(options as NetworkPolicyOptions));
  });

  it("names the option and the entry", () => {
    expect(() => new NetworkPolicy({ allowHosts: ["example.com:0"] })).toThrow(/allowHosts entry "example.com:0"/);
  });
});

describe("host entries are normalised once", () => {
  // [entry, canonical]
  const ENTRIES: readonly [string, string][] = [
    ["Example.COM", "example.com"],
    ["example.com.", "example.com"],
    [" example.com:8443 ", "example.com:8443"],
    ["0x7f.1:8080", "127.0.0.1:8080"],
    ["2130706433", "127.0.0.1"],
    ["[::1]:3000", "[::1]:3000"],
    ["::1", "[::1]"],
    ["[0:0:0:0:0:0:0:1]", "[::1]"],
    ["::ffff:127.0.0.1", "[::ffff:7f00:1]"],
    ["Äbc.com", "xn--bc-uia.com"],
    ["staging.internal:443", "staging.internal:443"],
  ];
  it.each(ENTRIES)("%j → %s", (entry, canonical) => {
    expect(parseHostPattern(entry, "allowHosts").text).toBe(canonical);
    expect(new NetworkPolicy({ allowHosts: [entry] }).allowHosts).toEqual([canonical]);
  });
});

describe("serialisation for the daemon", () => {
  it("round-trips a stock policy through JSON", () => {
    const policy = new NetworkPolicy({
      allowPrivateNetwork: false,
      allowLoopback: true,
      allowHosts: ["Staging.Internal:8443", "0x7f.1:3000"],
      blockHosts: ["ads.example.com"],
    });
    const wire = JSON.parse(JSON.stringify(policy)) as unknown;
    expect(wire).toEqual({
      allowLoopback: true,
      allowPrivateNetwork: false,
      allowHosts: ["staging.internal:8443", "127.0.0.1:3000"],
      blockHosts: ["ads.example.com"],
      onlyPorts: [],
    });
    const rebuilt = NetworkPolicy.fromJSON(wire);
    expect(rebuilt.toOptions()).toEqual(policy.toOptions());
    expect(rebuilt.checkBuiltIn("https://staging.internal:8443/")).toEqual(policy.checkBuiltIn("https://staging.internal:8443/"));
  });

  it("writes the defaults explicitly", () => {
    expect(new NetworkPolicy().toOptions()).toEqual({ allowLoopback: true, allowPrivateNetwork: true, allowHosts: [], blockHosts: [], onlyPorts: [] });
  });

  it("refuses to serialise a hook, rather than silently dropping it", () => {
    const policy = new NetworkPolicy({ custom: () => null });
    expectInvalid(() => policy.toOptions());
    expectInvalid(() => JSON.stringify(policy));
    expect(policy.describe()).toMatchObject({ custom: true, allowLoopback: true });
  });

  it.each([
    ["a hook key", { custom: null }],
    ["an unknown key", { allowEverything: true }],
    ["a non-object", "[]"],
    ["null", null],
    ["bad entries", { allowHosts: ["https://x"] }],
  ])("fromJSON refuses %s", (_name, value) => {
    expectInvalid(() => NetworkPolicy.fromJSON(value));
  });

  it("exposes frozen, canonical lists", () => {
    const policy = new NetworkPolicy({ allowHosts: ["A.com"] });
    expect(Object.isFrozen(policy.allowHosts)).toBe(true);
    expect(() => (policy.allowHosts as string[]).push("b.com")).toThrow();
  });
});

describe("cacheable: only a stock policy", () => {
  class Tweaked extends NetworkPolicy {}
  it.each([
    ["a stock policy", new NetworkPolicy(), true],
    ["a hardened stock policy", new NetworkPolicy({ allowPrivateNetwork: false, allowHosts: ["a.com"] }), true],
    ["custom: null", new NetworkPolicy({ custom: null }), true],
    ["a policy with a hook", new NetworkPolicy({ custom: () => null }), false],
    ["a subclass", new Tweaked(), false],
  ] as const)("%s → %s", (_name, policy, expected) => {
    expect(policy.cacheable).toBe(expected);
  });
});

describe("proxyTarget: how the proxy phrases its question", () => {
  // [host, port, url, canonical host]
  const TARGETS: readonly [string, number, string, string][] = [
    ["example.com", 443, "https://example.com/", "example.com"],
    ["Example.COM.", 80, "http://example.com/", "example.com"],
    ["0x7f.1", 8080, "http://127.0.0.1:8080/", "127.0.0.1"],
    ["::1", 3000, "http://[::1]:3000/", "::1"],
    ["[::1]", 443, "https://[::1]/", "::1"],
    ["fe80::1%eth0", 80, "http://[fe80::1]/", "fe80::1"],
    ["::169.254.169.254", 80, "http://[::a9fe:a9fe]/", "::a9fe:a9fe"],
  ];
  it.each(TARGETS)("%s:%d", (host, port, url, canonical) => {
    const target = proxyTarget(host, port);
    expect(target.url).toBe(url);
    expect(target.host.host).toBe(canonical);
    expect(new URL(target.url).hostname.replace(/^\[|\]$/g, "")).toBe(canonical);
  });

  it.each([
    ["evil.com/x@169.254.169.254", 80],
    ["169.254.169.254@evil.com", 80],
    ["a b", 80],
    ["example.com", 0],
    ["example.com", 65536],
    ["example.com", 80.5],
  ] as const)("refuses %s:%d", (host, port) => {
    expectInvalid(() => proxyTarget(host, port));
  });
});
