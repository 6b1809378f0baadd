// `betterwright mcp --http` driven by the SDK's Streamable HTTP client: only
// on loopback, only with the bearer token, only for its own Host and Origin;
// one betterwright session per MCP session (Mcp-Session-Id), closed when the
// client ends it; the token file made owner-only when no token is given.
import { statSync } from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORE_LIST_MAX_CHARS } from "../../client/front-doors/mcp/tools.js";
import { tokenPath } from "../../client/front-doors/mcp/token.js";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { connectHttpMcp, refOf, startHttpMcp, textOf, type HttpMcpServer } from "../helpers/mcp-client.js";

const TOKEN = "e2e-token-0123456789abcdef";

/** A raw request, so that Host and Origin can be anything. */
function rawPost(url: string, headers: Record<string, string>): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }));
  });
}

describe("betterwright mcp --http", () => {
  let home: string;
  let pages: TestServer;
  let served: HttpMcpServer;

  beforeAll(async () => {
    home = tempHome("bw-mcp-http-");
    pages = await startServer({ "/": `<title>Start</title><button onclick="document.title='clicked'">Go</button>` });
    served = await startHttpMcp(home, ["--http", "127.0.0.1:0"], { BETTERWRIGHT_TOKEN: TOKEN });
  });

  afterAll(async () => {
    await served?.stop();
    await destroyHome(home);
    await pages.close();
  });

  it("refuses a non-loopback address unless told otherwise", async () => {
    const refused = await runCli(["mcp", "--http", "0.0.0.0:0"], { home, timeoutMs: 20_000 });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not a loopback address/);
  });

  it("answers 401 without the token and 403 to a foreign Host or Origin", async () => {
    const host = new URL(served.url).host;
    expect(await rawPost(served.url, {})).toBe(401);
    expect(await rawPost(served.url, { authorization: "Bearer wrong-token-0123456789" })).toBe(401);
    expect(await rawPost(served.url, { authorization: `Bearer ${TOKEN}`, origin: "http://evil.example" })).toBe(403);
    expect(await rawPost(served.url, { authorization: `Bearer ${TOKEN}`, host: `evil.example:${new URL(served.url).port}` })).toBe(403);
    expect(await rawPost(served.url, { authorization: `Bearer ${TOKEN}`, origin: `http://${host}` })).toBe(200);
  });

  it("serves the tools to each MCP session in a betterwright session of its own, and closes it with the session", async () => {
    const one = await connectHttpMcp(served.url, TOKEN, "http one");
    const two = await connectHttpMcp(served.url, TOKEN, "http two");
    const listed = await one.client.listTools();
    expect(JSON.stringify(listed).length).toBeLessThanOrEqual(CORE_LIST_MAX_CHARS);

    await one.client.callTool({ name: "navigate", arguments: { url: `${pages.url}/` } });
    const snap = textOf(await one.client.callTool({ name: "snapshot", arguments: {} }));
    expect((await one.client.callTool({ name: "click", arguments: { target: refOf(snap, 'button "Go"') } })).isError).toBeFalsy();
    expect(JSON.parse(textOf(await one.client.callTool({ name: "run", arguments: { code: "return page.title()" } })).split("\n")[0]!)).toBe("clicked");
    expect(textOf(await two.client.callTool({ name: "read", arguments: {} }))).toContain("about:blank");

    const sessions = async () => (await two.client.callTool({ name: "session_list", arguments: {} })).structuredContent as { current: string; sessions: { session: string }[] };
    const oneSession = ((await one.client.callTool({ name: "session_list", arguments: {} })).structuredContent as { current: string }).current;
    expect(oneSession).toMatch(/^mcp-http-one-/);
    expect((await sessions()).sessions.map((s) => s.session)).toContain(oneSession);

    await one.transport.terminateSession();
    await one.client.close();
    const until = Date.now() + 10_000;
    while ((await sessions()).sessions.some((s) => s.session === oneSession) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect((await sessions()).sessions.map((s) => s.session)).not.toContain(oneSession);
    await two.client.close();
  });

  it("makes an owner-only token file when no token is given", async () => {
    const second = await startHttpMcp(home, ["--http", "127.0.0.1:0"]);
    try {
      expect(second.stderr()).toContain(tokenPath(home));
      expect(statSync(tokenPath(home)).mode & 0o777).toBe(0o600);
      expect(await rawPost(second.url, {})).toBe(401);
    } finally {
      await second.stop();
    }
  });
});
