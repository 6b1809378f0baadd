import { describe, expect, it } from "vitest";
import { applyOverrides, GuardService, policyFromSettings } from "../../daemon/guard/guard-service.js";
import type { PolicySettings } from "../../shared/config.js";
import { BwError } from "../../shared/protocol/errors.js";
import { NetworkPolicy } from "../../shared/guard/policy/index.js";

const DEFAULT: PolicySettings = { allowLoopback: true, allowPrivateNetwork: true, allowHosts: [], blockHosts: [], onlyPorts: [] };
const HARDENED: PolicySettings = { allowLoopback: false, allowPrivateNetwork: false, allowHosts: [], blockHosts: [], onlyPorts: [] };

function resolver(table: Record<string, string[] | Error>) {
  const asked: string[] = [];
  return {
    asked,
    resolve: async (host: string) => {
      asked.push(host);
      const entry = table[host];
      if (entry === undefined) throw new Error(`ENOTFOUND ${host}`);
      if (entry instanceof Error) throw entry;
      return entry;
    },
  };
}

describe("GuardService.check: the worker's question", () => {
  it("answers a stock policy's decision as cacheable, and logs denials", async () => {
    const lines: string[] = [];
    const service = new GuardService(HARDENED, { log: (l) => lines.push(l) });
    expect(await service.check("https://example.com/a.js", { layer: "route", resourceType: "script" })).toEqual({
      allowed: true, reason: "example.com is a public host", cacheable: true,
    });
    const denied = await service.check("http://127.0.0.1:8080/", { layer: "proxy" });
    expect(denied).toMatchObject({ allowed: false, cacheable: true });
    expect(denied.reason).toMatch(/loopback is blocked/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("http://127.0.0.1:8080/");
  });

  it("counts the questions it answered and the denials (daemon.status)", async () => {
    const service = new GuardService(HARDENED);
    expect(service.counts).toEqual({ checks: 0, denied: 0, connects: 0 });
    await service.check("https://example.com/", { layer: "proxy" });
    await service.check("http://169.254.169.254/latest/meta-data/", { layer: "proxy" });
    await service.dryRun("http://10.0.0.1/");
    expect(service.counts).toEqual({ checks: 2, denied: 1, connects: 0 });
  });

  it("never marks a hooked policy's answers cacheable, and a throwing hook denies", async () => {
    const service = new GuardService(new NetworkPolicy({ custom: (url) => { if (url.includes("boom")) throw new Error("hook broke"); return null; } }));
    expect(await service.check("https://example.com/", { layer: "route" })).toMatchObject({ allowed: true, cacheable: false });
    const broken = await service.check("https://boom.example/", { layer: "route" });
    expect(broken).toMatchObject({ allowed: false, cacheable: false });
    expect(broken.reason).toMatch(/hook failed/);
  });

  it("refuses bad settings with INVALID_ARGUMENT before serving anything", () => {
    expect(() => new GuardService({ ...DEFAULT, allowHosts: ["http://x.test/"] })).toThrow(BwError);
    expect(() => policyFromSettings({ ...DEFAULT, blockHosts: ["*.ads.test"] })).toThrow(/wildcards/);
    expect(() => policyFromSettings({ ...DEFAULT, allowHosts: ["a b"] })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });
});

describe("GuardService.dryRun: policy check", () => {
  it("answers with the daemon's policy when no overrides are given", async () => {
    const service = new GuardService(DEFAULT);
    const result = await service.dryRun("http://169.254.169.254/latest/meta-data/");
    expect(result).toMatchObject({ allowed: false, urlDecision: { allowed: false }, policy: DEFAULT });
    expect(result.reason).toMatch(/metadata/);
    expect(result.resolved).toBeUndefined();
  });

  it("applies overrides over the daemon's policy for this answer only", async () => {
    const service = new GuardService(DEFAULT);
    const hardened = await service.dryRun("http://localhost:3000/", { overrides: { allowLoopback: false } });
    expect(hardened.allowed).toBe(false);
    expect(hardened.policy).toEqual(HARDENED);
    expect((await service.dryRun("http://localhost:3000/")).allowed).toBe(true);
    const blockHost = await service.dryRun("https://ads.example/x", { overrides: { blockHosts: ["example"] } });
    expect(blockHost.allowed).toBe(false);
    expect(blockHost.policy.allowLoopback).toBe(true);
  });

  it("judges every address the host resolves to, as the proxy does", async () => {
    const dns = resolver({ "rebind.test": ["203.0.113.9", "8.8.8.8", "169.254.169.254"], "ok.test": ["8.8.4.4", "2001:4860:4860::8888"] });
    const service = new GuardService(DEFAULT, { resolve: dns.resolve });
    const ok = await service.dryRun("https://ok.test/", { resolve: true });
    expect(ok.allowed).toBe(true);
    expect(ok.resolved).toEqual({
      host: "ok.test",
      addresses: [
        { address: "8.8.4.4", allowed: true, reason: expect.stringMatching(/resolved from ok\.test/) },
        { address: "2001:4860:4860::8888", allowed: true, reason: expect.any(String) },
      ],
    });
    const rebind = await service.dryRun("https://rebind.test/", { resolve: true });
    expect(rebind.urlDecision.allowed).toBe(true);
    expect(rebind.allowed).toBe(false);
    expect(rebind.reason).toMatch(/^rebind\.test resolved to 169\.254\.169\.254: .*metadata/);
    expect(rebind.resolved?.addresses.map((a) => a.allowed)).toEqual([true, true, false]);
  });

  it("holds a resolved private address to the hardened posture, and reports a failed lookup without guessing", async () => {
    const dns = resolver({ "intranet.example": ["10.1.2.3"], "gone.example": new Error("ENOTFOUND gone.example") });
    const service = new GuardService(HARDENED, { resolve: dns.resolve });
    const intranet = await service.dryRun("http://intranet.example/", { resolve: true });
    expect(intranet.allowed).toBe(false);
    expect(intranet.resolved?.addresses[0]).toMatchObject({ address: "10.1.2.3", allowed: false });
    const gone = await service.dryRun("http://gone.example/", { resolve: true });
    expect(gone.resolved).toMatchObject({ host: "gone.example", addresses: [] });
    expect(gone.resolved?.error).toMatch(/could not resolve gone\.example/);
  });

  it("does not resolve literals, denied URLs or URLs that load nothing", async () => {
    const dns = resolver({});
    const service = new GuardService(HARDENED, { resolve: dns.resolve });
    await service.dryRun("http://8.8.8.8/", { resolve: true });
    await service.dryRun("http://[2001:db8::1]/", { resolve: true });
    await service.dryRun("http://localhost/", { resolve: true });
    await service.dryRun("data:text/plain,hi", { resolve: true });
    await service.dryRun("file:///etc/passwd", { resolve: true });
    expect(dns.asked).toEqual([]);
  });

  it("bounds a resolver that never answers", async () => {
    const service = new GuardService(DEFAULT, { resolve: () => new Promise(() => {}), resolveTimeoutMs: 20 });
    const result = await service.dryRun("https://slow.example/", { resolve: true });
    expect(result.resolved?.error).toMatch(/timed out/);
  });
});

describe("applyOverrides", () => {
  it("keeps unstated keys, and blocking loopback blocks the private network too", () => {
    expect(applyOverrides(DEFAULT, undefined)).toEqual(DEFAULT);
    expect(applyOverrides(DEFAULT, { allowLoopback: false })).toEqual(HARDENED);
    expect(applyOverrides(HARDENED, { allowHosts: ["a.test"] })).toEqual({ ...HARDENED, allowHosts: ["a.test"] });
    expect(applyOverrides({ ...DEFAULT, blockHosts: ["x.test"] }, { allowPrivateNetwork: false })).toEqual({ ...DEFAULT, allowPrivateNetwork: false, blockHosts: ["x.test"] });
  });
});
