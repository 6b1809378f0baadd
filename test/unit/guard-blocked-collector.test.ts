import { describe, expect, it } from "vitest";
import { BlockedCollector, MAX_BLOCKED_ENTRIES } from "../../daemon/browser-worker/guard/blocked-collector.js";
import { unreachableReason } from "../../daemon/browser-worker/guard/unreachable.js";
import { BwError } from "../../shared/protocol/errors.js";

const NAV = { url: "http://10.0.0.1/", layer: "route", reason: "private networks are blocked", resourceType: "document", method: "GET", isNavigation: true } as const;
const HOP = { url: "http://10.0.0.2/", layer: "proxy", reason: "private networks are blocked" } as const;

describe("BlockedCollector: the envelope's blocked list", () => {
  it("is absent when nothing was refused", () => {
    expect(new BlockedCollector().outcome()).toEqual({});
  });

  it("keeps one entry per layer and URL with a count, bounded", () => {
    const c = new BlockedCollector();
    c.add(NAV);
    c.add(NAV);
    c.add({ ...NAV, layer: "proxy" });
    for (let i = 0; i < MAX_BLOCKED_ENTRIES + 20; i++) c.add({ url: `http://10.0.0.1/img/${i}.png`, layer: "route", reason: "r", resourceType: "image" });
    const { blocked } = c.outcome();
    expect(blocked).toHaveLength(MAX_BLOCKED_ENTRIES);
    expect(blocked![0]).toEqual({ ...NAV, count: 2 });
    expect(blocked![1]).toMatchObject({ layer: "proxy", count: 1 });
  });
});

describe("BlockedCollector.guardCall: a navigation the guard refused fails with BLOCKED_URL", () => {
  it("explains a routing abort by the navigation it refused since the call began", async () => {
    const c = new BlockedCollector();
    const failure = c.guardCall(async () => {
      c.add(NAV);
      throw new Error("page.goto: net::ERR_BLOCKED_BY_CLIENT at http://10.0.0.1/");
    });
    await expect(failure).rejects.toMatchObject({ code: "BLOCKED_URL", message: `the network policy blocked http://10.0.0.1/: ${NAV.reason}` });
    const error = await failure.catch((e: BwError) => e);
    expect(c.codeFor(error.message)).toBe("BLOCKED_URL");
  });

  it("explains a refused proxy connection (a redirect hop) by the proxy's refusal", async () => {
    const c = new BlockedCollector();
    const failure = c.guardCall(async () => {
      c.add(HOP);
      throw new Error("page.goto: net::ERR_SOCKS_CONNECTION_FAILED at http://allowed.test/redirect");
    });
    await expect(failure).rejects.toMatchObject({ code: "BLOCKED_URL", message: expect.stringContaining("http://10.0.0.2/") });
  });

  it("leaves other failures alone: no refusal since the call began, an unrelated error, or a mismatched layer", async () => {
    const c = new BlockedCollector();
    c.add(NAV);
    const stale = new Error("page.goto: net::ERR_BLOCKED_BY_CLIENT at http://10.0.0.1/");
    await expect(c.guardCall(async () => { throw stale; })).rejects.toBe(stale);
    const refused = new Error("page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/");
    await expect(c.guardCall(async () => { c.add(NAV); throw refused; })).rejects.toBe(refused);
    const socks = new Error("page.goto: net::ERR_SOCKS_CONNECTION_FAILED at http://x.test/");
    await expect(c.guardCall(async () => { c.add(NAV); throw socks; })).rejects.toBe(socks);
    const own = new BwError("SNIPPET_TIMEOUT", "over");
    await expect(c.guardCall(async () => { c.add(HOP); throw own; })).rejects.toBe(own);
    expect(c.codeFor("page.goto: net::ERR_BLOCKED_BY_CLIENT at http://10.0.0.1/")).toBeUndefined();
  });

  it("explains a proxy failure with no refusal but a host that did not resolve as DNS_UNAVAILABLE, never listed in blocked", async () => {
    const c = new BlockedCollector();
    const unresolved = { url: "http://nothing.example/", layer: "proxy", reason: "could not resolve nothing.example: ENOTFOUND", unresolved: true } as const;
    const failure = c.guardCall(async () => {
      c.add(unresolved);
      throw new Error("page.goto: net::ERR_SOCKS_CONNECTION_FAILED at http://nothing.example/");
    });
    await expect(failure).rejects.toMatchObject({ code: "DNS_UNAVAILABLE", message: expect.stringContaining("could not resolve nothing.example") });
    const error = await failure.catch((e: BwError) => e);
    expect(c.codeFor(error.message)).toBe("DNS_UNAVAILABLE");
    expect(c.outcome()).toEqual({});
    // A policy refusal in the same call is the better explanation.
    const both = c.guardCall(async () => {
      c.add(unresolved);
      c.add(HOP);
      throw new Error("page.goto: net::ERR_SOCKS_CONNECTION_FAILED at http://10.0.0.2/");
    });
    await expect(both).rejects.toMatchObject({ code: "BLOCKED_URL" });
  });

  it("explains a proxy failure whose approved address did not answer as NAVIGATION_FAILED in the network's words, never listed", async () => {
    const c = new BlockedCollector();
    const unreachable = { url: "http://127.0.0.1:4999/", layer: "proxy", reason: unreachableReason("refused", "127.0.0.1:4999"), unreachable: true } as const;
    const failure = c.guardCall(async () => {
      c.add(unreachable);
      throw new Error("page.goto: net::ERR_SOCKS_CONNECTION_FAILED at http://127.0.0.1:4999/");
    });
    await expect(failure).rejects.toMatchObject({ code: "NAVIGATION_FAILED", message: "connection refused to 127.0.0.1:4999 (nothing is listening there)" });
    const error = await failure.catch((e: BwError) => e);
    expect(error.message).not.toMatch(/SOCKS|proxy/i);
    expect(c.codeFor(error.message)).toBe("NAVIGATION_FAILED");
    expect(c.outcome()).toEqual({});
  });

  it("passes results through", async () => {
    expect(await new BlockedCollector().guardCall(async () => 42)).toBe(42);
  });
});
