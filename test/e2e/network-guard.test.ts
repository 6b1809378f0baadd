// The network guard end to end: the built CLI, its daemon, the worker and real
// Chromium, all inside a network namespace that has only loopback (plus the
// metadata address on lo, with a server that counts what reaches it). The
// fixture prints what happened; a broken guard shows up as traffic that arrived.
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";
import { loopbackNamespaceUnavailable, runInLoopbackNamespace } from "../helpers/loopback-namespace.js";
import { describeNeeding } from "../helpers/needs.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/network-guard-fixture.mjs", import.meta.url));
const SETUP = "ip link set lo up && ip addr add 169.254.169.254/32 dev lo && ip addr add 93.184.216.34/32 dev lo && ip addr add 10.7.7.7/32 dev lo";

function runInNamespace(mode: string): Promise<any> {
  return runInLoopbackNamespace(FIXTURE, [CLI, mode], SETUP, 110_000);
}

// The same checks with stealth mode on: its isolated-world evaluation and launch flags change nothing the guard holds.
describeNeeding(loopbackNamespaceUnavailable(), "the network guard through real Chromium, in a loopback-only namespace", () => describe.each(["default", "stealth"])("%s mode", (mode) => {
  let r: any;
  const LOOPBACK_BLOCKED = /127\.0\.0\.1 is a loopback host and loopback is blocked/;

  beforeAll(async () => {
    r = await runInNamespace(mode);
    expect(r.fixtureError).toBeUndefined();
  }, 115_000);

  it("answers policy check from the daemon without starting a browser", () => {
    expect(r.policyCheck).toMatchObject({ exit: 1, allowed: false, policy: { allowLoopback: false, allowPrivateNetwork: false } });
    expect(r.policyCheck.reason).toMatch(LOOPBACK_BLOCKED);
    expect(r.afterPolicyCheck.daemons).toHaveLength(1);
    expect(r.afterPolicyCheck.daemons[0].browser.running).toBe(false);
    // The dry run's flags did not reconfigure the daemon.
    expect(r.afterPolicyCheck.daemons[0].settings.policy.allowLoopback).toBe(true);
    expect(r.policyCheckHardened).toMatchObject({ exit: 1, allowed: false });
  });

  it("loads the allowed host and refuses a navigation to a second loopback port with BLOCKED_URL and the reason", () => {
    expect(r.allowed).toMatchObject({ exit: 0, ok: true, result: "allowed" });
    expect(r.allowed.blocked).toBeUndefined();
    expect(r.navigation).toMatchObject({ exit: 1, ok: false, error: { code: "BLOCKED_URL" } });
    expect(r.navigation.error.message).toContain(`http://127.0.0.1:${r.forbiddenPort}/`);
    expect(r.navigation.error.message).toMatch(LOOPBACK_BLOCKED);
    // A stock policy is enforced at the proxy alone (routing is for custom hooks: docs/network-policy.md).
    expect(r.navigation.blocked).toEqual([expect.objectContaining({ url: `http://127.0.0.1:${r.forbiddenPort}/`, layer: "proxy" })]);
    // Caught inside the snippet, the error carries the code too.
    expect(r.caught.result).toMatchObject({ code: "BLOCKED_URL" });
  });

  it("blocks fetch, <img>, <iframe>, WebSocket and a redirect to the blocked host, and lists each in `blocked`", () => {
    const B = `127.0.0.1:${r.forbiddenPort}`;
    expect(r.fetch.result).toMatch(/^failed/);
    // The proxy sees host and port only, so each refusal is listed by host.
    expect(r.fetch.blocked).toContainEqual(expect.objectContaining({ url: `http://${B}/`, layer: "proxy" }));
    expect(r.img.result).toBe(0);
    expect(r.img.blocked).toContainEqual(expect.objectContaining({ url: `http://${B}/`, layer: "proxy" }));
    expect(r.iframe.result).toBe("iframe");
    expect(r.iframe.blocked).toContainEqual(expect.objectContaining({ url: `http://${B}/`, layer: "proxy" }));
    expect(r.websocket.result).toBe("error");
    expect(r.websocket.blocked).toContainEqual(expect.objectContaining({ url: `http://${B}/`, layer: "proxy" }));
    // Routing sees only the first URL of a redirect; the proxy refuses the hop.
    expect(r.redirect).toMatchObject({ exit: 1, error: { code: "BLOCKED_URL" } });
    expect(r.redirect.blocked).toContainEqual(expect.objectContaining({ url: `http://${B}/`, layer: "proxy" }));
    expect(r.request.result).toBe("undefined");
  });

  it("let nothing reach the blocked server until the default posture loaded it on purpose", () => {
    expect(r.forbiddenBeforeDefault).toEqual({ requests: [], upgrades: 0, connections: 0 });
    expect(r.defaultLoopback).toMatchObject({ ok: true, result: "forbidden" });
    // Full Chromium (stealth mode's) also asks the page it loaded on purpose for its icon.
    expect(r.forbiddenSeen.requests.filter((u: string) => u !== "/favicon.ico")).toEqual(["/"]);
  });

  it("blocks the metadata address in the default posture, and nothing reaches it", () => {
    expect(r.metadata).toMatchObject({ exit: 1, error: { code: "BLOCKED_URL" } });
    expect(r.metadata.error.message).toMatch(/169\.254\.169\.254 is a cloud metadata endpoint/);
    expect(r.metadataFetch.result, JSON.stringify(r.metadataFetch.error)).toBe("failed");
    expect(r.metadataSeen).toEqual({ requests: [], upgrades: 0, connections: 0 });
  });

  it("keeps an isolated session (its own browser context) behind the same guard", () => {
    expect(r.isolatedAllowed).toMatchObject({ exit: 0, ok: true, result: "allowed" });
    expect(r.isolatedNavigation).toMatchObject({ exit: 1, ok: false, error: { code: "BLOCKED_URL" } });
    expect(r.isolatedNavigation.error.message).toMatch(LOOPBACK_BLOCKED);
    expect(r.isolatedNavigation.blocked).toEqual([expect.objectContaining({ url: `http://127.0.0.1:${r.forbiddenPort}/`, layer: "proxy" })]);
    expect(r.isolatedFetch.result).toBe("failed");
    expect(r.isolatedRequest.result).toBe("undefined");
    // The metadata floor holds in the default posture too; nothing reached either server (checked above and below).
    expect(r.isolatedMetadata, JSON.stringify(r.isolatedMetadata.error)).toMatchObject({ ok: true, result: { fetched: "failed", goto: "BLOCKED_URL" } });
  });

  it("public-web: a public address on port 80 loads; another port, loopback, a private address and metadata are refused, and none of them is reached", () => {
    const w = r.publicWeb;
    expect(w.public80, JSON.stringify(w.public80)).toMatchObject({ exit: 0, ok: true, result: "loaded public" });
    expect(w.publicOtherPort.result).toMatch(/^BLOCKED_URL .*only ports 80, 443/);
    expect(w.loopback.result).toMatch(/^BLOCKED_URL .*loopback is blocked/);
    expect(w.private.result).toMatch(/^BLOCKED_URL .*private networks are blocked/);
    expect(w.metadata.result).toMatch(/^BLOCKED_URL .*cloud metadata endpoint/);
    expect(w.fetches.result).toEqual(["failed", "failed", "failed", "failed"]);
    expect(w.check).toMatchObject({ exit: 1, allowed: false, policy: { onlyPorts: [80, 443], allowLoopback: false } });
    expect(w.opBlocked).toMatchObject({ exit: 1, ok: false, error: { code: "BLOCKED_URL" } });
    expect(w.opUnresolved).toMatchObject({ exit: 1, ok: false, error: { code: "DNS_UNAVAILABLE", message: expect.stringContaining("nothing-here.example.com") } });
    expect(w.opUnresolved.blocked).toBeUndefined();
    expect(w.snippetUnresolved).toMatchObject({ exit: 1, ok: false, error: { code: "DNS_UNAVAILABLE" } });
    expect(w.opRefused).toMatchObject({ ok: false, error: { code: "NAVIGATION_FAILED" } });
    expect(r.publicOtherSeen).toEqual({ requests: [], upgrades: 0, connections: 0 });
    expect(r.privateSeen).toEqual({ requests: [], upgrades: 0, connections: 0 });
  });

  it("serve keeps to the public web by default: a public address opens; loopback, private, metadata and other ports are 400 BLOCKED_URL, an unresolvable name 502 DNS_UNAVAILABLE", () => {
    const s = r.serve;
    expect(s.health).toEqual({ status: 200, json: { status: "ok" } });
    expect(s.open).toMatchObject({ status: 201, json: { title: "public", status: "active" } });
    for (const name of ["loopback", "private", "metadata", "otherPort"]) expect(s[name], name).toMatchObject({ status: 400, json: { error: { code: "BLOCKED_URL" } } });
    expect(s.unresolved).toMatchObject({ status: 502, json: { error: { code: "DNS_UNAVAILABLE" } } });
    expect(s.read).toMatchObject({ status: 200, json: { title: "public", truncated: false } });
    expect(s.exit).toBe(0);
    expect(s.tokenPrinted).toBe(false);
  });

  it("sends no WebRTC or QUIC datagram to a UDP listener on 127.0.0.1", () => {
    expect(r.webrtc.ok).toBe(true);
    expect(r.webrtc.result.candidates).toEqual([]);
    expect(r.webrtc.result.webtransport).not.toBe("ready");
    expect(r.udpSeen).toBe(0);
  });
}));
