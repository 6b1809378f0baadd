import { describe, expect, it, vi } from "vitest";
import { BwError } from "../../shared/protocol/errors.js";
import {
  CachedGuard,
  DecisionCache,
  decisionCacheKey,
  GUARD_CACHE_MAX_TTL_MS,
  type GuardAnswer,
  type RequestDetails,
} from "../../shared/guard/questions/index.js";
import { answerGuardCheck, NetworkPolicy, type PolicyLike } from "../../shared/guard/policy/index.js";

const SCRIPT: RequestDetails = { layer: "route", method: "GET", resourceType: "script" };
const PROXY: RequestDetails = { layer: "proxy" };

function fakeClock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => void (time += ms) };
}

describe("decisionCacheKey: only host-scoped checks may be cached", () => {
  // [url, details, key or undefined]
  const KEYS: readonly [string, RequestDetails, string | undefined][] = [
    ["https://example.com/a.js", SCRIPT, "https://example.com:443"],
    ["https://example.com:443/b.js", SCRIPT, "https://example.com:443"],
    ["https://EXAMPLE.com/c.js", { layer: "route", resourceType: "image" }, "https://example.com:443"],
    ["http://example.com/", PROXY, "http://example.com:80"],
    ["http://example.com:8080/", PROXY, "http://example.com:8080"],
    ["http://0x7f.1:3000/", PROXY, "http://127.0.0.1:3000"],
    ["http://10.0.0.5:8443/", { layer: "proxy", resolvedFrom: "Staging.Internal." }, "http://10.0.0.5:8443 from staging.internal"],
    ["https://example.com/", { layer: "route", resourceType: "document" }, undefined],
    ["https://example.com/", { layer: "route", resourceType: "script", isNavigation: true }, undefined],
    ["https://example.com/file.zip", { layer: "route", resourceType: "download" }, undefined],
    ["https://example.com/ws", { layer: "route", resourceType: "websocket" }, undefined],
    ["wss://example.com/ws", PROXY, undefined],
    ["ws://example.com/ws", SCRIPT, undefined],
    ["data:text/plain,hi", SCRIPT, undefined],
    ["about:blank", SCRIPT, undefined],
    ["not a url", SCRIPT, undefined],
    ["http://10.0.0.5/", { layer: "proxy", resolvedFrom: "not a host" }, undefined],
    ["https://example.com/", { layer: "nowhere" } as never, undefined],
  ];
  it.each(KEYS)("%s %j → %s", (url, details, key) => {
    expect(decisionCacheKey(url, details)).toBe(key);
  });
});

describe("DecisionCache", () => {
  it("holds an entry for less than ttlMs, then forgets it", () => {
    const clock = fakeClock();
    const cache = new DecisionCache({ now: clock.now });
    cache.set("k", { allowed: true, reason: "r" });
    clock.advance(GUARD_CACHE_MAX_TTL_MS - 1);
    expect(cache.get("k")).toEqual({ allowed: true, reason: "r" });
    clock.advance(1);
    expect(cache.get("k")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("forgets an entry when the clock goes backwards", () => {
    const clock = fakeClock();
    const cache = new DecisionCache({ now: clock.now });
    cache.set("k", { allowed: true, reason: "r" });
    clock.advance(-1);
    expect(cache.get("k")).toBeUndefined();
  });

  it("evicts the oldest entry past maxEntries", () => {
    const cache = new DecisionCache({ now: () => 0, maxEntries: 2 });
    for (const key of ["a", "b", "c"]) cache.set(key, { allowed: true, reason: key });
    expect([cache.get("a"), cache.get("b")?.reason, cache.get("c")?.reason]).toEqual([undefined, "b", "c"]);
  });

  it("stores a frozen copy", () => {
    const cache = new DecisionCache({ now: () => 0 });
    const decision = { allowed: true, reason: "r" };
    cache.set("k", decision);
    decision.allowed = false;
    expect(cache.get("k")).toEqual({ allowed: true, reason: "r" });
    expect(Object.isFrozen(cache.get("k"))).toBe(true);
  });

  it.each([0, -1, 5_001, 1.5, Number.NaN])("refuses ttlMs %s (the cap is 5 s)", (ttlMs) => {
    expect(() => new DecisionCache({ ttlMs })).toThrow(BwError);
  });
});

/** A guard whose `ask` is a real policy behind answerGuardCheck, counting questions. */
function guardFor(policy: PolicyLike, clock = fakeClock()): { guard: CachedGuard; ask: ReturnType<typeof vi.fn> } & ReturnType<typeof fakeClock> {
  const ask = vi.fn((url: string, details: RequestDetails) => answerGuardCheck(policy, url, details));
  return { guard: new CachedGuard({ ask, now: clock.now }), ask, ...clock };
}

describe("CachedGuard with a stock policy", () => {
  it("asks at most once per host per 5 s, and again after", async () => {
    const { guard, ask, advance } = guardFor(new NetworkPolicy());
    for (let i = 0; i < 50; i++) expect((await guard.check(`https://cdn.example.com/${i}.js`, SCRIPT)).allowed).toBe(true);
    expect(ask).toHaveBeenCalledTimes(1);
    advance(GUARD_CACHE_MAX_TTL_MS);
    await guard.check("https://cdn.example.com/again.js", SCRIPT);
    expect(ask).toHaveBeenCalledTimes(2);
  });

  it("caches denials too", async () => {
    const { guard, ask } = guardFor(new NetworkPolicy({ blockHosts: ["ads.example.com"] }));
    for (let i = 0; i < 3; i++) expect((await guard.check("https://ads.example.com/x.js", SCRIPT)).allowed).toBe(false);
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it("shares one question among concurrent checks of one host", async () => {
    const { guard, ask } = guardFor(new NetworkPolicy());
    const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => guard.check(`https://a.example/${i}.png`, SCRIPT)));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it.each([
    ["a navigation", "https://example.com/", { layer: "route", resourceType: "document", isNavigation: true }],
    ["a document", "https://example.com/frame", { layer: "route", resourceType: "document" }],
    ["a download", "https://example.com/f.zip", { layer: "route", resourceType: "download" }],
    ["a WebSocket", "wss://example.com/ws", { layer: "route", resourceType: "websocket" }],
  ] as const)("always asks for %s", async (_name, url, details) => {
    const { guard, ask } = guardFor(new NetworkPolicy());
    for (let i = 0; i < 3; i++) await guard.check(url, details);
    expect(ask).toHaveBeenCalledTimes(3);
  });
});

describe("CachedGuard never caches what it must not", () => {
  it("asks a custom hook for every request", async () => {
    const custom = vi.fn(() => null);
    const { guard } = guardFor(new NetworkPolicy({ custom }));
    for (let i = 0; i < 5; i++) await guard.check(`https://example.com/${i}.js`, SCRIPT);
    await Promise.all(Array.from({ length: 5 }, () => guard.check("https://example.com/x.js", SCRIPT)));
    expect(custom).toHaveBeenCalledTimes(10);
  });

  it("asks a subclass and a bare object with check every time", async () => {
    class Mine extends NetworkPolicy {}
    const bare: PolicyLike = { check: () => ({ allowed: true, reason: "ok" }) };
    for (const policy of [new Mine(), bare]) {
      const { guard, ask } = guardFor(policy);
      for (let i = 0; i < 3; i++) await guard.check("https://example.com/x.js", SCRIPT);
      expect(ask).toHaveBeenCalledTimes(3);
    }
  });

  it("flushes when an answer says the policy is no longer cacheable (a hook was installed)", async () => {
    const clock = fakeClock();
    let answer: GuardAnswer = { allowed: true, reason: "stock", cacheable: true };
    const ask = vi.fn(async () => answer);
    const guard = new CachedGuard({ ask, now: clock.now });
    await guard.check("https://a.example/1.js", SCRIPT);
    await guard.check("https://b.example/1.js", SCRIPT);
    expect(guard.size).toBe(2);
    answer = { allowed: false, reason: "hook says no", cacheable: false };
    await guard.check("https://c.example/", { layer: "route", resourceType: "document", isNavigation: true });
    expect(guard.size).toBe(0);
    expect(await guard.check("https://a.example/2.js", SCRIPT)).toEqual({ allowed: false, reason: "hook says no" });
  });

  it("does not store an answer asked before a flush", async () => {
    let release: (value: GuardAnswer) => void = () => undefined;
    const ask = vi.fn(() => new Promise<GuardAnswer>((resolve) => (release = resolve)));
    const guard = new CachedGuard({ ask, now: () => 0 });
    const pending = guard.check("https://a.example/1.js", SCRIPT);
    guard.flush();
    release({ allowed: true, reason: "stale", cacheable: true });
    expect((await pending).allowed).toBe(true);
    expect(guard.size).toBe(0);
  });

  const RPC_FAILURES: readonly [string, () => Promise<unknown>, RegExp][] = [
    ["rejects", () => Promise.reject(new Error("pipe closed")), /guard check failed: Error: pipe closed/],
    [
      "throws synchronously",
      () => {
        throw new Error("no peer");
      },
      /guard check failed/,
    ],
    ["answers nothing", async () => undefined, /malformed/],
    ["answers a string", async () => "allowed", /malformed/],
    ["answers allowed as a string", async () => ({ allowed: "true", cacheable: true }), /malformed/],
  ];
  it.each(RPC_FAILURES)("denies, uncached, when the RPC %s", async (_name, failing, reason) => {
    const ask = vi.fn(failing);
    const guard = new CachedGuard({ ask, now: () => 0 });
    for (let i = 0; i < 2; i++) {
      const decision = await guard.check("https://example.com/x.js", SCRIPT);
      expect(decision.allowed).toBe(false);
      expect(decision.reason).toMatch(reason);
    }
    expect(ask).toHaveBeenCalledTimes(2);
    expect(guard.size).toBe(0);
  });

  it("treats anything but a literal true as not cacheable", async () => {
    const ask = vi.fn(async () => ({ allowed: true, reason: "r", cacheable: "yes" }));
    const guard = new CachedGuard({ ask, now: () => 0 });
    await guard.check("https://example.com/1.js", SCRIPT);
    await guard.check("https://example.com/2.js", SCRIPT);
    expect(ask).toHaveBeenCalledTimes(2);
  });

  it("needs an ask function", () => {
    expect(() => new CachedGuard({} as never)).toThrow(BwError);
  });
});

describe("answerGuardCheck (daemon side)", () => {
  it.each([
    ["a stock policy", new NetworkPolicy(), true],
    ["a policy with a hook", new NetworkPolicy({ custom: () => null }), false],
    ["a bare object", { check: () => ({ allowed: true, reason: "ok" }) }, false],
  ] as const)("marks %s cacheable=%s", async (_name, policy, cacheable) => {
    expect(await answerGuardCheck(policy, "https://example.com/", SCRIPT)).toMatchObject({ allowed: true, cacheable });
  });

  it.each([
    ["throws", { check: () => { throw new Error("bad"); } }],
    ["rejects", { check: () => Promise.reject(new Error("bad")) }],
    ["returns nothing", { check: () => undefined as never }],
    ["returns garbage", { check: () => ({ allowed: 1 }) as never }],
  ] as const)("denies, uncacheable, when the policy %s", async (_name, policy) => {
    expect(await answerGuardCheck(policy, "https://example.com/", SCRIPT)).toMatchObject({ allowed: false, cacheable: false });
  });
});
