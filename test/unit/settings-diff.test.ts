import { describe, expect, it } from "vitest";
import { ARTIFACT_DEFAULTS, type DaemonSettings } from "../../shared/config.js";
import { mergeSettings, settingsDifferences } from "../../shared/settings-diff.js";

const running: DaemonSettings = {
  browser: null,
  headless: true,
  policy: { allowLoopback: true, allowPrivateNetwork: false, allowHosts: [], blockHosts: ["ads.example"] },
  sessionTtlSeconds: 900,
  daemonIdleSeconds: 60,
  artifacts: ARTIFACT_DEFAULTS,
};

describe("settings a call states against the running daemon's", () => {
  it("finds no difference when the call states nothing, or only what the daemon already has", () => {
    expect(settingsDifferences(running, {})).toEqual([]);
    expect(settingsDifferences(running, { headless: true, policy: { ...running.policy, blockHosts: ["ads.example"] } })).toEqual([]);
  });

  it("names each differing setting with both values", () => {
    const diffs = settingsDifferences(running, { headless: false, browser: "/opt/chrome", sessionTtlSeconds: 900 });
    expect(diffs).toHaveLength(2);
    expect(diffs.find((d) => d.startsWith("headless"))).toContain("true");
    expect(diffs.find((d) => d.startsWith("headless"))).toContain("false");
    expect(diffs.find((d) => d.startsWith("browser"))).toContain("/opt/chrome");
  });

  it("names each policy key that differs, so loosening any part of it is a difference", () => {
    const diffs = settingsDifferences(running, { policy: { ...running.policy, allowPrivateNetwork: true } });
    expect(diffs).toHaveLength(1);
    expect(diffs[0]).toMatch(/^policy\.allowPrivateNetwork: /);
  });

  it("merges by keeping unstated settings and taking stated ones", () => {
    const merged = mergeSettings(running, { headless: false });
    expect(merged).toEqual({ ...running, headless: false });
    expect(merged.policy).toEqual(running.policy);
    expect(mergeSettings(running, {})).toEqual(running);
  });
});

describe("policy keys are stated one by one", () => {
  const hardened = {
    browser: null, headless: true, sessionTtlSeconds: 900, daemonIdleSeconds: 60,
    policy: { allowLoopback: true, allowPrivateNetwork: false, allowHosts: [], blockHosts: [] },
  } as unknown as Parameters<typeof mergeSettings>[0];

  it("a call naming only blockHosts differs in that key alone and keeps the rest of a hardened policy", () => {
    expect(settingsDifferences(hardened, { policy: { blockHosts: ["ads.example"] } })).toEqual([
      'policy.blockHosts: daemon has [], this call wants ["ads.example"]',
    ]);
    expect(mergeSettings(hardened, { policy: { blockHosts: ["ads.example"] } }).policy).toEqual({
      allowLoopback: true, allowPrivateNetwork: false, allowHosts: [], blockHosts: ["ads.example"],
    });
  });

  it("blocking loopback over an open daemon also blocks the private network", () => {
    const open = { ...hardened, policy: { ...hardened.policy, allowPrivateNetwork: true } };
    expect(mergeSettings(open, { policy: { allowLoopback: false } }).policy.allowPrivateNetwork).toBe(false);
  });
});
