// Remote browsers end to end: the built CLI and its daemon place sessions on
// two Playwright browser servers (launchServer on 127.0.0.1, standing in for
// two hosts), inside a network namespace that has only loopback (plus the
// metadata address on lo, with a server that counts what reaches it). The
// remote browsers' only way out is the daemon's guard proxy.
import { fileURLToPath } from "node:url";
import { beforeAll, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";
import { loopbackNamespaceUnavailable, runInLoopbackNamespace } from "../helpers/loopback-namespace.js";
import { describeNeeding } from "../helpers/needs.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/remote-browsers-fixture.mjs", import.meta.url));
const REPO = fileURLToPath(new URL("../..", import.meta.url));
const SETUP = "ip link set lo up && ip addr add 169.254.169.254/32 dev lo";

function runInNamespace(): Promise<any> {
  return runInLoopbackNamespace(FIXTURE, [CLI, REPO], SETUP, 170_000);
}

describeNeeding(loopbackNamespaceUnavailable(), "sessions on remote browser servers, guarded, in a loopback-only namespace", () => {
  let r: any;

  beforeAll(async () => {
    r = await runInNamespace();
    expect(r.fixtureError).toBeUndefined();
  }, 175_000);

  it("runs snippets on the remote hosts and spreads sessions across both", () => {
    expect(r.first).toMatchObject({ exit: 0, ok: true, result: "allowed" });
    expect(r.second).toMatchObject({ exit: 0, ok: true, result: "allowed" });
    expect(r.hosts).toContain(r.placed.r1);
    expect(r.hosts).toContain(r.placed.r2);
    expect(r.placed.r1).not.toBe(r.placed.r2);
  });

  it("refuses the forbidden loopback server and the metadata address, and lists each refusal", () => {
    expect(r.navigation).toMatchObject({ exit: 1, ok: false, error: { code: "BLOCKED_URL" } });
    expect(r.navigation.blocked?.length).toBeGreaterThan(0);
    expect(r.fetch).toMatchObject({ ok: true, result: "failed" });
    expect(r.metadata).toMatchObject({ ok: false, error: { code: "BLOCKED_URL" } });
    expect(r.metadataFetch).toMatchObject({ ok: true, result: "failed" });
    expect(r.forbiddenSeen).toEqual({ requests: 0, connections: 0 });
    expect(r.metadataSeen).toEqual({ requests: 0, connections: 0 });
  });

  it("reaches the allowed server only through the daemon's guard proxy", () => {
    // Plain HTTP through the guard proxy goes out with `Connection: close`; a direct connection would keep alive.
    expect(r.connectionHeaders.length).toBeGreaterThan(0);
    expect(new Set(r.connectionHeaders)).toEqual(new Set(["close"]));
    // The daemon made those connections: its guard counted them (no local browser runs).
    expect(r.status.guard.connects).toBeGreaterThan(0);
    expect(r.webrtc).toMatchObject({ ok: true, result: "undefined" });
  });

  it("keeps a remote screenshot and a remote download in the local artifact store, under its caps", () => {
    expect(r.screenshot).toMatchObject({ ok: true, result: { kind: "screenshot", bytes: expect.any(Number) } });
    expect(r.screenshot.artifacts).toContainEqual(expect.objectContaining({ kind: "screenshot" }));
    expect(r.download, JSON.stringify(r.download)).toMatchObject({ ok: true, result: {
      small: { status: "accepted", suggestedFilename: "x.txt", bytes: 5 },
      big: { status: "rejected", reason: "QUOTA_EXCEEDED", suggestedFilename: "big.bin" },
    } });
    expect(r.downloadText).toBe("hello");
    expect(r.download.result.big.bytes).toBeLessThan(2_000_000);
  });

  it("opens state saved on one host in a session on the other", () => {
    expect(r.login).toMatchObject({ ok: true });
    expect(r.save).toMatchObject({ exit: 0 });
    expect(r.restored).toMatchObject({ ok: true, result: "who=alice" });
    expect(r.placedAfterRestore.r3).not.toBe(r.placedAfterRestore.r1);
  });

  it("a host that goes away fails its run in flight; its sessions are told and move, new ones land on the other host", () => {
    expect(r.interrupted.ok, JSON.stringify(r.interrupted)).toBe(false);
    expect(["BROWSER_DISCONNECTED", "SESSION_RESET"], JSON.stringify(r.interrupted)).toContain(r.interrupted.error.code);
    expect(r.afterLoss).toMatchObject({ ok: true, result: "allowed" });
    // The session is told once: the run in flight when the host went, or else the next one.
    expect([...r.interrupted.warnings, ...r.afterLoss.warnings].filter((w: any) => w.code === "SESSION_RESET")).toHaveLength(1);
    const survivor = r.hosts[1 - r.victim];
    expect(r.placedAfterLoss.r1).toBe(survivor);
    expect(r.newAfterLoss).toMatchObject({ ok: true, result: "allowed" });
    expect(r.placedAfterLoss.r4).toBe(survivor);
  });

  it("doctor checks every endpoint", () => {
    const endpoints = r.doctor.checks.filter((c: any) => c.name === "endpoint");
    expect(endpoints).toHaveLength(2);
    expect(endpoints.find((c: any) => c.detail.startsWith(r.hosts[1 - r.victim]))).toMatchObject({ ok: true });
    expect(endpoints.find((c: any) => c.detail.startsWith(r.hosts[r.victim]))).toMatchObject({ ok: false });
  });

  it("refuses a CDP endpoint without trustRemoteEgress, with a clear error", () => {
    expect(r.cdp).toMatchObject({ ok: false, error: { code: "GUARD_NOT_ENFORCED" } });
    expect(r.cdp.error.message).toMatch(/trustRemoteEgress/);
  });

  it("uses a trusted CDP endpoint behind the guard proxy, and says on every envelope that its egress is not held", () => {
    expect(r.cdpTrusted, JSON.stringify(r.cdpTrusted.error)).toMatchObject({ ok: true, result: "allowed" });
    expect(r.cdpTrusted.warnings).toContainEqual(expect.objectContaining({ code: "GUARD_NOT_ENFORCED" }));
    expect(r.cdpTrustedBlocked).toMatchObject({ ok: false, error: { code: "BLOCKED_URL" } });
    expect(r.cdpTrustedBlocked.warnings).toContainEqual(expect.objectContaining({ code: "GUARD_NOT_ENFORCED" }));
  });
});
