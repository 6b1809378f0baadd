// The one listener of the HTTP front doors (serve, mcp --http): the same
// addresses, loopback spellings, Host and Origin rules and token check for
// both, so the two doors cannot drift apart again.
import { describe, expect, it } from "vitest";
import { answeredHosts, checkBearer, checkHeaders, checkListen, isLoopbackHost, parseListen, type ListenFlag } from "../../client/front-doors/common/listener.js";
import { SERVE_LISTEN } from "../../client/front-doors/http/listen.js";

const MCP: ListenFlag = { flag: "--http", example: "127.0.0.1:8931", door: "MCP over HTTP" };

describe("the front doors' listener", () => {
  it("parses HOST:PORT, [v6]:PORT and :PORT, naming the door's flag when it cannot", () => {
    expect(parseListen("127.0.0.1:8790", SERVE_LISTEN)).toEqual({ host: "127.0.0.1", port: 8790 });
    expect(parseListen("[::1]:0", MCP)).toEqual({ host: "::1", port: 0 });
    expect(parseListen("LOCALHOST:1", SERVE_LISTEN)).toEqual({ host: "localhost", port: 1 });
    expect(parseListen(":9000", MCP)).toEqual({ host: "127.0.0.1", port: 9000 });
    for (const bad of ["8790", "127.0.0.1", "localhost", "127.0.0.1:99999", "a b:1", "http://x:1", "[::1:1"]) {
      expect(() => parseListen(bad, SERVE_LISTEN)).toThrow(/^--listen: expected HOST:PORT such as 127\.0\.0\.1:8790/);
      expect(() => parseListen(bad, MCP)).toThrow(/^--http: expected HOST:PORT such as 127\.0\.0\.1:8931/);
    }
  });

  it("counts every spelling of loopback as loopback, for both doors alike", () => {
    for (const host of ["127.0.0.1", "127.3.2.1", "localhost", "::1", "0:0:0:0:0:0:0:1", "0000:0000:0000:0000:0000:0000:0000:0001", "::0:1"]) {
      expect(isLoopbackHost(host)).toBe(true);
      expect(() => checkListen({ host, port: 1 }, false, SERVE_LISTEN)).not.toThrow();
      expect(() => checkListen({ host, port: 1 }, false, MCP)).not.toThrow();
    }
    for (const host of ["0.0.0.0", "::", "::2", "1::1", "192.168.1.5", "example.com", "localhost.example"]) {
      expect(isLoopbackHost(host)).toBe(false);
      expect(() => checkListen({ host, port: 1 }, false, MCP)).toThrow(/^--http: .* is not a loopback address; MCP over HTTP listens/);
      expect(() => checkListen({ host, port: 1 }, true, SERVE_LISTEN)).not.toThrow();
    }
  });

  it("answers a loopback listener's own names only, with the port it bound; a remote one any name", () => {
    expect(answeredHosts({ host: "127.0.0.1", port: 0 }, 4000)).toEqual(new Set(["127.0.0.1:4000", "localhost:4000", "[::1]:4000"]));
    expect(answeredHosts({ host: "::1", port: 0 }, 4000)).toEqual(new Set(["[::1]:4000", "localhost:4000", "127.0.0.1:4000"]));
    expect(answeredHosts({ host: "0.0.0.0", port: 1 }, 1)).toBeUndefined();
    expect(checkHeaders({ host: "anything.example:1", origin: "http://elsewhere.example" }, undefined, { origin: true })).toBeUndefined();
  });

  it("refuses a foreign Host or Origin on loopback (DNS rebinding)", () => {
    const hosts = answeredHosts({ host: "127.0.0.1", port: 8931 }, 8931);
    expect(checkHeaders({ host: "127.0.0.1:8931" }, hosts, { origin: true })).toBeUndefined();
    expect(checkHeaders({ host: "LOCALHOST:8931", origin: "http://localhost:8931" }, hosts, { origin: true })).toBeUndefined();
    for (const headers of [
      { host: "evil.example:8931" },
      { host: undefined },
      { host: "127.0.0.1:8931", origin: "http://evil.example" },
      { host: "127.0.0.1:8931", origin: "null" },
      { host: "127.0.0.1:8931", origin: "http://127.0.0.1:9999" },
      { host: "127.0.0.1:8931", origin: "file:///x" },
    ]) expect(checkHeaders(headers, hosts, { origin: true })?.status).toBe(403);
    // serve leaves Origin to its live view (a no-referrer form posts Origin: null), but not Host.
    expect(checkHeaders({ host: "127.0.0.1:8931", origin: "null" }, hosts, { origin: false })).toBeUndefined();
    expect(checkHeaders({ host: "evil.example:8931", origin: "null" }, hosts, { origin: false })?.status).toBe(403);
    // Before the server has bound, nothing is answered.
    expect(checkHeaders({ host: "127.0.0.1:8931" }, new Set(), { origin: true })?.status).toBe(403);
  });

  it("wants the bearer token, exactly", () => {
    const token = "a".repeat(32);
    expect(checkBearer(`Bearer ${token}`, token)).toBeUndefined();
    expect(checkBearer(`bearer ${token}`, token)).toBeUndefined();
    for (const header of [undefined, "", `Bearer ${token}x`, `Bearer ${token.slice(1)}`, `Basic ${token}`, "Bearer"]) expect(checkBearer(header, token)?.status).toBe(401);
  });
});
