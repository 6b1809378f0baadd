// The named egress presets: what public-web lets through and refuses, how a
// preset is stated from every source, and that other policy flags apply over it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { policySettingsOf } from "../../client/library/policy-option.js";
import { resolveConfig } from "../../shared/config.js";
import { BwError } from "../../shared/protocol/errors.js";
import { NetworkPolicy, POLICY_PRESETS, policyPreset, postureName } from "../../shared/guard/policy/index.js";

const homes: string[] = [];
function home(config?: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), "bw-presets-"));
  homes.push(dir);
  if (config !== undefined) writeFileSync(path.join(dir, "config.json"), JSON.stringify(config));
  return dir;
}
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as BwError).code;
  }
  return "none";
}

describe("the public-web preset", () => {
  const web = NetworkPolicy.preset("public-web");

  it.each([
    ["http://example.com/", true],
    ["https://example.com/", true],
    ["https://example.com:443/x", true],
    ["ws://example.com/", true],
    ["wss://93.184.216.34/", true],
    ["http://example.com:8080/", false],
    ["https://example.com:8443/", false],
    ["http://93.184.216.34:22/", false],
    ["http://127.0.0.1/", false],
    ["http://localhost/", false],
    ["http://[::1]/", false],
    ["http://10.0.0.5/", false],
    ["http://192.168.1.1/", false],
    ["http://172.16.0.1/", false],
    ["http://100.64.0.1/", false],
    ["http://printer.local/", false],
    ["http://intranet/", false],
    ["http://169.254.169.254/", false],
    ["http://metadata.google.internal/", false],
    ["http://0xa9fea9fe/", false],
    ["file:///etc/passwd", false],
  ])("%s → allowed %s", (url, allowed) => {
    expect(web.checkBuiltIn(url).allowed).toBe(allowed);
  });

  it("says why: the host's class first, then the port", () => {
    expect(web.checkBuiltIn("http://127.0.0.1:3000/").reason).toMatch(/loopback is blocked/);
    expect(web.checkBuiltIn("http://10.1.2.3:8080/").reason).toMatch(/private networks are blocked/);
    expect(web.checkBuiltIn("http://example.com:8080/").reason).toMatch(/port 8080 .* only ports 80, 443/);
  });

  it("says how to lift a refusal a person can lift: --allow-host with the name asked for and its port", () => {
    expect(web.checkBuiltIn("http://localhost:4567/").reason).toMatch(/--allow-host localhost:4567 \(allowHosts\)$/);
    expect(web.checkBuiltIn("https://127.0.0.1/", { layer: "proxy", resolvedFrom: "intranet.test" }).reason).toMatch(/--allow-host intranet\.test:443 /);
    expect(web.checkBuiltIn("http://example.com:8080/").reason).toMatch(/--allow-host example\.com:8080 /);
    const lifted = new NetworkPolicy({ ...web.describe(), allowHosts: ["localhost:4567"] });
    expect(lifted.checkBuiltIn("http://localhost:4567/").allowed).toBe(true);
    expect(web.checkBuiltIn("http://169.254.169.254/").reason).not.toContain("--allow-host");
  });

  it("judges every resolved address: a public name resolving to a private or loopback address is refused", () => {
    expect(web.checkBuiltIn("https://10.0.0.7/", { layer: "proxy", resolvedFrom: "example.com" }).allowed).toBe(false);
    expect(web.checkBuiltIn("https://127.0.0.1/", { layer: "proxy", resolvedFrom: "example.com" }).allowed).toBe(false);
    expect(web.checkBuiltIn("https://93.184.216.34/", { layer: "proxy", resolvedFrom: "example.com" }).allowed).toBe(true);
  });

  it("lets an allowHosts entry open its own host and port, but never the metadata floor", () => {
    const local = NetworkPolicy.preset("public-web", { allowHosts: ["127.0.0.1:3000", "169.254.169.254"] });
    expect(local.checkBuiltIn("http://127.0.0.1:3000/").allowed).toBe(true);
    expect(local.checkBuiltIn("http://127.0.0.1:3001/").allowed).toBe(false);
    expect(local.checkBuiltIn("http://169.254.169.254/").allowed).toBe(false);
    expect(local.onlyPorts).toEqual([80, 443]);
  });

  it("refuses a bad onlyPorts list and an unknown preset", () => {
    expect(code(() => new NetworkPolicy({ onlyPorts: [0] }))).toBe("INVALID_ARGUMENT");
    expect(code(() => new NetworkPolicy({ onlyPorts: [1.5] }))).toBe("INVALID_ARGUMENT");
    expect(code(() => new NetworkPolicy({ onlyPorts: "80" as never }))).toBe("INVALID_ARGUMENT");
    expect(code(() => policyPreset("open-web"))).toBe("INVALID_ARGUMENT");
  });

  it("names postures for people, host exceptions aside", () => {
    expect(postureName(policyPreset("public-web"))).toBe("public-web");
    expect(postureName({ ...policyPreset("public-web"), onlyPorts: [443, 80] })).toBe("public-web");
    expect(postureName(policyPreset("default"))).toBe("default");
    expect(postureName({ allowLoopback: true, allowPrivateNetwork: false, onlyPorts: [] })).toBe("custom");
  });
});

describe("stating a preset", () => {
  it("from a flag, with the other policy flags applied over it", () => {
    const { settings, statedPolicy } = resolveConfig({ env: { BETTERWRIGHT_HOME: home() }, flags: { policy: "public-web", allowHost: ["127.0.0.1:3000"] } });
    expect(settings.policy).toEqual({ ...POLICY_PRESETS["public-web"], allowHosts: ["127.0.0.1:3000"], blockHosts: [] });
    expect(statedPolicy).toMatchObject({ allowLoopback: false, allowPrivateNetwork: false, onlyPorts: [80, 443] });
  });

  it("from the environment and config.json; flags beat the environment, which beats the file", () => {
    const file = home({ policy: "public-web" });
    expect(resolveConfig({ env: { BETTERWRIGHT_HOME: file } }).settings.policy.onlyPorts).toEqual([80, 443]);
    expect(resolveConfig({ env: { BETTERWRIGHT_HOME: file, BETTERWRIGHT_POLICY: "default" } }).settings.policy).toMatchObject(POLICY_PRESETS.default);
    const both = resolveConfig({ env: { BETTERWRIGHT_HOME: home(), BETTERWRIGHT_POLICY: "default" }, flags: { policy: "public-web" } });
    expect(both.settings.policy).toMatchObject(POLICY_PRESETS["public-web"]);
    // A policy key stated in the same layer applies over that layer's preset.
    const loopback = resolveConfig({ env: { BETTERWRIGHT_HOME: home({ policy: "default", allowPrivateNetwork: false }) } });
    expect(loopback.settings.policy).toMatchObject({ allowLoopback: true, allowPrivateNetwork: false, onlyPorts: [] });
  });

  it("fails with INVALID_ARGUMENT naming where a bad preset came from", () => {
    for (const [input, where] of [
      [{ flags: { policy: "wide-open" } }, "flag --policy"],
      [{ env: { BETTERWRIGHT_POLICY: "wide-open" } }, "BETTERWRIGHT_POLICY"],
    ] as const) {
      try {
        resolveConfig({ ...input, env: { BETTERWRIGHT_HOME: home(), ...("env" in input ? input.env : {}) } });
        throw new Error("expected a failure");
      } catch (error) {
        expect((error as BwError).code).toBe("INVALID_ARGUMENT");
        expect((error as BwError).message).toContain(where);
        expect((error as BwError).message).toContain("public-web");
      }
    }
  });

  it("from the library, by name", () => {
    expect(policySettingsOf("public-web")).toEqual({ ...POLICY_PRESETS["public-web"], allowHosts: [], blockHosts: [] });
    expect(code(() => policySettingsOf("nope" as never))).toBe("INVALID_ARGUMENT");
  });
});
