import { describe, expect, it, vi } from "vitest";
import { MAX_REASON_LENGTH, NetworkPolicy, type CustomHook, type RequestDetails } from "../../shared/guard/policy/index.js";

const HARDENED = { allowPrivateNetwork: false, allowLoopback: false } as const;
const NAVIGATION: RequestDetails = { layer: "route", method: "POST", resourceType: "document", isNavigation: true };

describe("the custom hook overrides ordinary decisions", () => {
  // [options besides the hook, url, hook answer, allowed]
  const OVERRIDES: readonly [object, string, ReturnType<CustomHook>, boolean][] = [
    [{ blockHosts: ["ads.example.com"] }, "https://ads.example.com/", { allowed: true }, true],
    [HARDENED, "http://10.0.0.1/", { allowed: true }, true],
    [HARDENED, "http://127.0.0.1/", { allowed: true, reason: "dev server" }, true],
    [{}, "https://example.com/", { allowed: false, reason: "not today" }, false],
    [{ allowHosts: ["example.com"] }, "https://example.com/", { allowed: false }, false],
    [{}, "https://example.com/", null, true],
    [{}, "https://example.com/", undefined, true],
    [HARDENED, "http://10.0.0.1/", null, false],
    [{ blockHosts: ["example.com"] }, "https://example.com/", undefined, false],
  ];
  it.each(OVERRIDES)("%j %s hook=%j → %s", async (options, url, answer, allowed) => {
    const decision = await new NetworkPolicy({ ...options, custom: () => answer }).check(url, NAVIGATION);
    expect(decision.allowed).toBe(allowed);
  });

  it("keeps the hook's reason, or names the hook when it gives none", async () => {
    const withReason = new NetworkPolicy({ custom: () => ({ allowed: false, reason: "no non-GET navigations" }) });
    expect(await withReason.check("https://example.com/", NAVIGATION)).toEqual({ allowed: false, reason: "no non-GET navigations" });
    const without = new NetworkPolicy({ custom: () => ({ allowed: false }) });
    expect((await without.check("https://example.com/", NAVIGATION)).reason).toMatch(/custom policy hook/);
  });

  it("bounds a long reason", async () => {
    const policy = new NetworkPolicy({ custom: () => ({ allowed: false, reason: "x".repeat(10_000) }) });
    expect((await policy.check("https://example.com/", NAVIGATION)).reason.length).toBeLessThanOrEqual(MAX_REASON_LENGTH);
  });

  it("awaits an async hook", async () => {
    const policy = new NetworkPolicy({
      custom: async (url) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return url.includes("/admin") ? { allowed: false, reason: "admin pages are off limits" } : null;
      },
    });
    expect((await policy.check("https://example.com/admin", NAVIGATION)).allowed).toBe(false);
    expect((await policy.check("https://example.com/", NAVIGATION)).allowed).toBe(true);
  });

  it("receives the canonical URL and a frozen copy of the details, never the caller's object", async () => {
    const seen: [string, RequestDetails][] = [];
    const policy = new NetworkPolicy({ custom: (url, details) => void seen.push([url, details]) });
    const details = { ...NAVIGATION, extra: "dropped" } as RequestDetails;
    await policy.check("HTTP://Example.COM./a?b#c", details);
    expect(seen).toEqual([["http://example.com./a?b#c", NAVIGATION]]);
    expect(Object.isFrozen(seen[0]?.[1])).toBe(true);
    expect(seen[0]?.[1]).not.toBe(details);
  });

  it("gets the CLI layer when no details are given", async () => {
    const custom = vi.fn(() => null);
    await new NetworkPolicy({ custom }).check("https://example.com/");
    expect(custom).toHaveBeenCalledWith("https://example.com/", { layer: "cli" });
  });

  it("is ignored by checkBuiltIn", () => {
    const custom = vi.fn(() => ({ allowed: false }));
    expect(new NetworkPolicy({ custom }).checkBuiltIn("https://example.com/").allowed).toBe(true);
    expect(custom).not.toHaveBeenCalled();
  });
});

describe("a hook that fails denies (fail-closed)", () => {
  const FAILURES: readonly [string, CustomHook][] = [
    ["throws", () => {
      throw new Error("database down");
    }],
    ["rejects", async () => {
      throw new TypeError("boom");
    }],
    ["throws a non-error", () => {
      throw "plain string";
    }],
    ["returns a string", () => "yes" as never],
    ["returns true", () => true as never],
    ["returns allowed as a string", () => ({ allowed: "true" }) as never],
    ["returns a numeric reason", () => ({ allowed: true, reason: 5 }) as never],
    ["returns an object without allowed", () => ({ reason: "hmm" }) as never],
    ["returns a decision whose getter throws", () =>
      ({
        get allowed(): boolean {
          throw new Error("getter");
        },
      }) as never],
  ];
  it.each(FAILURES)("when it %s", async (_name, custom) => {
    const decision = await new NetworkPolicy({ custom }).check("https://example.com/", NAVIGATION);
    expect(decision.allowed).toBe(false);
    expect(decision.reason).toMatch(/custom policy hook/);
  });

  it("names the error in the reason", async () => {
    const policy = new NetworkPolicy({
      custom: () => {
        throw new Error("database down");
      },
    });
    expect((await policy.check("https://example.com/", NAVIGATION)).reason).toMatch(/database down/);
  });

  it("denies when the details are malformed, without asking the hook", async () => {
    const custom = vi.fn(() => ({ allowed: true }));
    const policy = new NetworkPolicy({ custom });
    for (const details of [{ layer: "kernel" }, { layer: "route", isNavigation: "yes" }, null, "route"]) {
      expect((await policy.check("https://example.com/", details as never)).allowed).toBe(false);
    }
    expect(custom).not.toHaveBeenCalled();
  });

  it("check never rejects, whatever it is handed", async () => {
    const policy = new NetworkPolicy();
    for (const url of [undefined, null, 42, {}, Symbol("x")]) {
      await expect(policy.check(url as never)).resolves.toMatchObject({ allowed: false });
    }
  });
});

describe("resolved addresses (the proxy's second question)", () => {
  const staging = new NetworkPolicy({ ...HARDENED, allowHosts: ["staging.internal:8443"], blockHosts: ["ads.example.com"] });
  // [url, resolvedFrom, allowed]
  const RESOLVED: readonly [string, string | undefined, boolean][] = [
    ["https://10.0.0.5:8443/", "staging.internal", true],
    ["https://10.0.0.5:8443/", "STAGING.internal.", true],
    ["https://10.0.0.5:8443/", undefined, false],
    ["https://10.0.0.5:8443/", "evil.example.com", false],
    ["https://10.0.0.5:9000/", "staging.internal", false],
    ["https://93.184.216.34/", "ads.example.com", false],
    ["https://93.184.216.34/", "example.com", true],
    ["https://127.0.0.1/", "example.com", false],
    ["https://93.184.216.34/", "db.internal", false],
    ["https://93.184.216.34/", "not a host", false],
  ];
  it.each(RESOLVED)("%s from %s → %s", async (url, resolvedFrom, allowed) => {
    const details: RequestDetails = resolvedFrom === undefined ? { layer: "proxy" } : { layer: "proxy", resolvedFrom };
    expect((await staging.check(url, details)).allowed).toBe(allowed);
  });

  it("names both hosts in the reason", () => {
    const decision = staging.checkBuiltIn("https://10.0.0.5:9000/", { layer: "proxy", resolvedFrom: "staging.internal" });
    expect(decision.reason).toMatch(/10\.0\.0\.5 \(resolved from staging\.internal\)/);
  });
});
