import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { resolveConfig } from "../../shared/config.js";
import { fillHeaders, parseEndpoints, parseHostPort } from "../../shared/remote-config.js";

const SRC = "test";

describe("browser endpoints in settings", () => {
  it("takes Playwright servers and CDP endpoints, as URLs or objects", () => {
    const endpoints = parseEndpoints([
      "ws://10.0.0.20:3000/path",
      { url: "wss://grid.example.com/b", headers: { Authorization: "Bearer {env:GRID_TOKEN}" }, maxSessions: 5 },
      "cdp+http://127.0.0.1:9222",
    ], SRC);
    expect(endpoints.map((e) => [e.kind, e.maxSessions])).toEqual([["playwright", 32], ["playwright", 5], ["cdp", 32]]);
    expect(endpoints[1]!.headers).toEqual({ Authorization: "Bearer {env:GRID_TOKEN}" });
  });

  it("splits a comma- or space-separated list (environment)", () => {
    expect(parseEndpoints("ws://a:1/x, ws://b:2/y ws://c:3/z", SRC)).toHaveLength(3);
  });

  it.each([
    ["http://host:1/", /not an endpoint scheme/],
    ["ws://user:secret@host:1/", /must not hold credentials/],
    ["ws://host:1/#frag", /fragment/],
    ["not a url", /is not a URL/],
    ["", /expected an endpoint URL/],
  ])("refuses %j", (url, why) => {
    expect(() => parseEndpoints([url], SRC)).toThrow(why);
  });

  it("never echoes a password given in an endpoint URL", () => {
    try {
      parseEndpoints(["ws://user:hunter2-secret@host:1/"], SRC);
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain("hunter2-secret");
    }
  });

  it("refuses duplicates, unknown keys, reserved headers and bad placeholders", () => {
    expect(() => parseEndpoints(["ws://a:1/", "ws://a:1/"], SRC)).toThrow(/listed twice/);
    expect(() => parseEndpoints([{ url: "ws://a:1/", extra: 1 }], SRC)).toThrow(/unknown setting/);
    for (const name of ["Host", "connection", "Upgrade", "x-playwright-proxy", "X-Playwright-Launch-Options"]) {
      expect(() => parseEndpoints([{ url: "ws://a:1/", headers: { [name]: "x" } }], SRC)).toThrow(/set by the connection itself/);
    }
    expect(() => parseEndpoints([{ url: "ws://a:1/", headers: { A: "{env:1BAD}" } }], SRC)).toThrow(/does not name an environment variable/);
    expect(() => parseEndpoints([{ url: "ws://a:1/", headers: { A: "{vault:../x}" } }], SRC)).toThrow(/does not name a vault entry/);
    expect(() => parseEndpoints([{ url: "ws://a:1/", headers: { A: "line\nbreak" } }], SRC)).toThrow(/printable/);
    expect(() => parseEndpoints([{ url: "ws://a:1/", maxSessions: 0 }], SRC)).toThrow();
  });

  it("checks the guard's addresses", () => {
    expect(parseHostPort("0.0.0.0:8877", SRC, "remoteGuardListen", { allowZero: true })).toBe("0.0.0.0:8877");
    expect(parseHostPort("[::1]:0", SRC, "remoteGuardListen", { allowZero: true })).toBe("[::1]:0");
    expect(() => parseHostPort("10.0.0.5:0", SRC, "remoteGuardAdvertise", { allowZero: false })).toThrow(/host:port/);
    expect(() => parseHostPort("10.0.0.5", SRC, "remoteGuardAdvertise", { allowZero: false })).toThrow(/host:port/);
  });
});

describe("filling in header secrets", () => {
  it("takes values from the environment and the vault", async () => {
    const filled = await fillHeaders({ Authorization: "Bearer {env:TOKEN}", "X-Key": "{vault:abc123}", "X-Team": "blue" }, { TOKEN: "t0k" }, async (id) => `pw-${id}`);
    expect(filled).toEqual({ Authorization: "Bearer t0k", "X-Key": "pw-abc123", "X-Team": "blue" });
  });

  it("names a missing variable without any value", async () => {
    await expect(fillHeaders({ A: "{env:MISSING}" }, {}, async () => "")).rejects.toThrow(/MISSING, which is not set/);
  });

  it("refuses a secret that would break the handshake", async () => {
    await expect(fillHeaders({ A: "{env:T}" }, { T: "x\r\nInjected: 1" }, async () => "")).rejects.toThrow(/line break/);
  });
});

describe("remote settings through the one config module", () => {
  it("layers file < environment < flags, and states them for the daemon", () => {
    const home = mkdtempSync(path.join(tmpdir(), "bw-remote-config-"));
    writeFileSync(path.join(home, "config.json"), JSON.stringify({ browserEndpoints: ["ws://file:1/"], remoteGuardListen: "127.0.0.1:9000" }));
    const fromFile = resolveConfig({ flags: { home } });
    expect(fromFile.settings.remote.endpoints.map((e) => e.url)).toEqual(["ws://file:1/"]);
    expect(fromFile.settings.remote.guardListen).toBe("127.0.0.1:9000");
    expect(fromFile.explicit.remote).toBeDefined();
    const fromEnv = resolveConfig({ flags: { home }, env: { BETTERWRIGHT_BROWSER_ENDPOINTS: "ws://env:1/" } });
    expect(fromEnv.settings.remote.endpoints.map((e) => e.url)).toEqual(["ws://env:1/"]);
    const fromFlags = resolveConfig({ flags: { home, browserEndpoint: ["ws://flag:1/"], trustRemoteEgress: true }, env: { BETTERWRIGHT_BROWSER_ENDPOINTS: "ws://env:1/" } });
    expect(fromFlags.settings.remote).toMatchObject({ trustRemoteEgress: true, guardListen: "127.0.0.1:9000" });
    expect(fromFlags.settings.remote.endpoints.map((e) => e.url)).toEqual(["ws://flag:1/"]);
  });

  it("states nothing when nothing is set, so a daemon is not replaced over it", () => {
    const home = mkdtempSync(path.join(tmpdir(), "bw-remote-config-"));
    const resolved = resolveConfig({ flags: { home } });
    expect(resolved.settings.remote).toEqual({ endpoints: [], trustRemoteEgress: false, guardListen: "127.0.0.1:0" });
    expect(resolved.explicit.remote).toBeUndefined();
  });

  it("asks for the advertised address when the guard listens on every interface", () => {
    const home = mkdtempSync(path.join(tmpdir(), "bw-remote-config-"));
    writeFileSync(path.join(home, "config.json"), JSON.stringify({ remoteGuardListen: "0.0.0.0:8877" }));
    expect(() => resolveConfig({ flags: { home } })).toThrow(/remoteGuardAdvertise/);
    writeFileSync(path.join(home, "config.json"), JSON.stringify({ remoteGuardListen: "0.0.0.0:8877", remoteGuardAdvertise: "10.0.0.5:8877" }));
    expect(resolveConfig({ flags: { home } }).settings.remote).toMatchObject({ guardListen: "0.0.0.0:8877", guardAdvertise: "10.0.0.5:8877" });
  });

  it("refuses an unknown key next to the remote ones", () => {
    const home = mkdtempSync(path.join(tmpdir(), "bw-remote-config-"));
    writeFileSync(path.join(home, "config.json"), JSON.stringify({ browserEndpoint: ["ws://file:1/"] }));
    expect(() => resolveConfig({ flags: { home } })).toThrow(/browserEndpoint.*unknown setting/);
  });
});
