// Policy settings from every source: validated and made canonical at config
// time, the environment variables, the library option, and the RPC validators.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyPolicyOption, policySettingsOf } from "../../client/library/policy-option.js";
import { BetterWright, NetworkPolicy } from "../../client/index.js";
import { resolveConfig } from "../../shared/config.js";
import { BwError, ERROR_CODES } from "../../shared/protocol/errors.js";
import { GuardCheck, PolicyCheck } from "../../shared/protocol/methods/index.js";

const homes: string[] = [];
function home(config?: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), "bw-policy-config-"));
  homes.push(dir);
  if (config !== undefined) writeFileSync(path.join(dir, "config.json"), JSON.stringify(config));
  return dir;
}
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function invalid(fn: () => unknown): BwError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BwError);
    expect((error as BwError).code).toBe("INVALID_ARGUMENT");
    expect(ERROR_CODES[(error as BwError).code].exit).toBe(2);
    return error as BwError;
  }
  throw new Error("expected INVALID_ARGUMENT");
}

describe("policy settings at config time", () => {
  it("reads the policy from the environment", () => {
    const { settings, explicit, statedPolicy } = resolveConfig({
      env: { BETTERWRIGHT_HOME: home(), BETTERWRIGHT_BLOCK_LOOPBACK: "1", BETTERWRIGHT_ALLOW_HOSTS: "staging.internal:8443, 127.0.0.1:3000", BETTERWRIGHT_BLOCK_HOSTS: "Ads.Example." },
    });
    expect(settings.policy).toEqual({ allowLoopback: false, allowPrivateNetwork: false, allowHosts: ["staging.internal:8443", "127.0.0.1:3000"], blockHosts: ["ads.example"], onlyPorts: [] });
    expect(explicit.policy).toEqual(settings.policy);
    // onlyPorts was not stated: it is left out, as any unstated key.
    expect(statedPolicy).toEqual({ ...settings.policy, onlyPorts: undefined });
  });

  it("keeps only the stated keys for policy check, and lets flags beat the environment", () => {
    const { settings, statedPolicy } = resolveConfig({
      env: { BETTERWRIGHT_HOME: home(), BETTERWRIGHT_BLOCK_PRIVATE_NETWORK: "true" },
      flags: { blockHost: ["x.test"] },
    });
    expect(statedPolicy).toEqual({ allowPrivateNetwork: false, blockHosts: ["x.test"] });
    expect(settings.policy.allowLoopback).toBe(true);
    expect(resolveConfig({ env: { BETTERWRIGHT_HOME: home() } }).statedPolicy).toEqual({});
    expect(resolveConfig({ env: { BETTERWRIGHT_HOME: home(), BETTERWRIGHT_BLOCK_PRIVATE_NETWORK: "0" } }).settings.policy.allowPrivateNetwork).toBe(true);
  });

  it("makes host entries canonical, so two spellings of one policy are one daemon", () => {
    const a = resolveConfig({ env: { BETTERWRIGHT_HOME: home() }, flags: { allowHost: ["0x7f.1:80", "[0:0::1]:8080"] } });
    expect(a.settings.policy.allowHosts).toEqual(["127.0.0.1:80", "[::1]:8080"]);
  });

  it("refuses a bad host entry from any source, naming the source", () => {
    expect(invalid(() => resolveConfig({ env: { BETTERWRIGHT_HOME: home() }, flags: { allowHost: ["http://x.test/"] } })).message).toMatch(/flag --allow-host/);
    expect(invalid(() => resolveConfig({ env: { BETTERWRIGHT_HOME: home(), BETTERWRIGHT_BLOCK_HOSTS: "*.ads.test" } })).message).toMatch(/BETTERWRIGHT_BLOCK_HOSTS/);
    expect(invalid(() => resolveConfig({ env: { BETTERWRIGHT_HOME: home({ allowHosts: ["a.test:99999"] }) } })).message).toMatch(/config\.json/);
    expect(invalid(() => resolveConfig({ env: { BETTERWRIGHT_HOME: home(), BETTERWRIGHT_BLOCK_LOOPBACK: "maybe" } })).message).toMatch(/BETTERWRIGHT_BLOCK_LOOPBACK/);
  });
});

describe("the library's policy option", () => {
  it("turns a NetworkPolicy or its options into explicit daemon settings", () => {
    expect(policySettingsOf(new NetworkPolicy({ allowPrivateNetwork: false, allowHosts: ["LOCALHOST:3000"] }))).toEqual({
      allowLoopback: true, allowPrivateNetwork: false, allowHosts: ["localhost:3000"], blockHosts: [], onlyPorts: [],
    });
    expect(policySettingsOf({ blockHosts: ["ads.test"] })).toEqual({ allowLoopback: true, allowPrivateNetwork: true, allowHosts: [], blockHosts: ["ads.test"], onlyPorts: [] });
    const bw = new BetterWright({ home: home(), env: {}, policy: new NetworkPolicy({ allowLoopback: false, allowPrivateNetwork: false }) });
    expect(bw.profile).toBe("default");
  });

  it("never sends a policy with a custom hook, or a subclass, to a daemon: it runs in this process", () => {
    expect(invalid(() => policySettingsOf(new NetworkPolicy({ custom: () => null }))).message).toMatch(/custom hook/);
    class Mine extends NetworkPolicy {}
    invalid(() => policySettingsOf(new Mine()));
    const config = resolveConfig({ env: { BETTERWRIGHT_HOME: home() } });
    const hooked = new NetworkPolicy({ allowPrivateNetwork: false, custom: () => null });
    expect(applyPolicyOption(config, hooked)).toBe(hooked);
    expect(config.settings.noDaemon).toBe(true);
    expect(config.settings.policy).toEqual({ allowLoopback: true, allowPrivateNetwork: false, allowHosts: [], blockHosts: [], onlyPorts: [] });
    const plain = resolveConfig({ env: { BETTERWRIGHT_HOME: home() } });
    expect(applyPolicyOption(plain, new NetworkPolicy({ blockHosts: ["x.test"] }))).toBeUndefined();
    expect(plain.settings.noDaemon).toBe(false);
    expect(plain.explicit.policy?.blockHosts).toEqual(["x.test"]);
    expect(invalid(() => new BetterWright({ home: home(), env: {}, daemon: true, policy: hooked })).message).toMatch(/cannot run in the profile's daemon/);
    invalid(() => new BetterWright({ home: home(), env: {}, policy: { allowHosts: ["a/b"] } }));
  });
});

describe("guard protocol validators", () => {
  it("accepts a guard.check from each layer and refuses unknown layers, fields and oversize URLs", () => {
    expect(GuardCheck.params({ url: "https://a.test/", details: { layer: "proxy", resolvedFrom: "a.test" } })).toEqual({ url: "https://a.test/", details: { layer: "proxy", resolvedFrom: "a.test" } });
    expect(GuardCheck.params({ url: "https://a.test/", details: { layer: "route", method: "GET", resourceType: "image", isNavigation: false } }).details.resourceType).toBe("image");
    invalid(() => GuardCheck.params({ url: "https://a.test/", details: { layer: "elsewhere" } }));
    invalid(() => GuardCheck.params({ url: "https://a.test/", details: { layer: "route", extra: 1 } }));
    invalid(() => GuardCheck.params({ url: `https://a.test/${"x".repeat(20_000)}`, details: { layer: "route" } }));
    invalid(() => GuardCheck.params({ url: "", details: { layer: "route" } }));
  });

  it("accepts a policy.check with partial overrides and refuses a hook or unknown keys", () => {
    expect(PolicyCheck.params({ url: "http://x.test/", policy: { allowLoopback: false }, resolve: true })).toEqual({ url: "http://x.test/", policy: { allowLoopback: false }, resolve: true });
    invalid(() => PolicyCheck.params({ url: "http://x.test/", policy: { custom: "() => true" } }));
    invalid(() => PolicyCheck.params({ url: "http://x.test/", policy: { allowHosts: "a.test" } }));
  });
});
