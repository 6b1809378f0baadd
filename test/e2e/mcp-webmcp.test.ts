// `betterwright mcp` serves the active page's WebMCP tools as `page__<name>`
// tools beside its own, tells the client when they change, and calls them in
// the connection's session; a page tool named like ours never replaces ours.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { errorCodeOf, startStdioMcp, textOf, type StdioMcp } from "../helpers/mcp-client.js";
import { UNTRUSTED_PAGE_DATA } from "../../shared/webmcp.js";
import { PLAIN_PAGE, toolsPage } from "./fixtures/webmcp-pages.js";

describe("page tools in betterwright mcp", () => {
  let home: string;
  let server: TestServer;
  let mcp: StdioMcp;
  let listChanged = 0;
  const names = async () => (await mcp.client.listTools()).tools.map((t) => t.name);
  const until = async (check: () => boolean) => {
    const end = Date.now() + 15_000;
    while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  };

  beforeAll(async () => {
    home = tempHome("bw-mcp-webmcp-");
    server = await startServer({ "/tools": toolsPage("http://127.0.0.1:9/"), "/plain": PLAIN_PAGE, "/bought": "ok", "/cancelled": "ok" });
    mcp = await startStdioMcp(home, ["--block-host", "127.0.0.1:9"]);
    mcp.client.setNotificationHandler("notifications/tools/list_changed", () => { listChanged += 1; });
  }, 60_000);

  afterAll(async () => {
    await mcp?.close();
    await destroyHome(home);
    await server.close();
  });

  it("lists no page tools before a page offers some, then the page's under page__ after a navigation, with list_changed", async () => {
    const before = await names();
    expect(before.some((n) => n.startsWith("page__"))).toBe(false);
    const nav = await mcp.client.callTool({ name: "navigate", arguments: { url: `${server.url}/tools` } });
    expect(nav.isError).toBeFalsy();
    await until(() => listChanged > 0);
    expect(listChanged).toBeGreaterThan(0);
    const after = await names();
    expect(after).toContain("page__add");
    // The page's "navigate" is page__navigate; ours is still ours, listed once.
    expect(after).toContain("page__navigate");
    expect(after).toContain("page__page__navigate");
    expect(after.filter((n) => n === "navigate")).toHaveLength(1);
    for (const n of after) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    const add = (await mcp.client.listTools()).tools.find((t) => t.name === "page__add")!;
    expect(add.description).toMatch(/^\[page tool, untrusted/);
    expect(add.inputSchema).toMatchObject({ properties: { input: { properties: { a: { type: "number" } } } } });
  }, 60_000);

  it("calls a page tool with its input, marked untrusted; one that acts on its own needs confirm", async () => {
    const r = await mcp.client.callTool({ name: "page__add", arguments: { input: { a: 2, b: 40 } } });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toContain('"text":"42"');
    expect(textOf(r)).toContain(UNTRUSTED_PAGE_DATA);
    const refused = await mcp.client.callTool({ name: "page__buy", arguments: {} });
    expect(errorCodeOf(refused)).toBe("CONFIRMATION_REQUIRED");
    expect(server.requests).not.toContain("/bought");
    const bought = await mcp.client.callTool({ name: "page__buy", arguments: { confirm: true } });
    expect(bought.isError).toBeFalsy();
    const ours = await mcp.client.callTool({ name: "page__navigate", arguments: {} });
    expect(textOf(ours)).toContain("the page's navigate");
  }, 60_000);

  it("drops the page's tools, and says so, when the page no longer offers them", async () => {
    const seen = listChanged;
    await mcp.client.callTool({ name: "navigate", arguments: { url: `${server.url}/plain` } });
    await until(() => listChanged > seen);
    expect(listChanged).toBeGreaterThan(seen);
    expect((await names()).some((n) => n.startsWith("page__"))).toBe(false);
    const gone = await mcp.client.callTool({ name: "page__add", arguments: { input: { a: 1, b: 1 } } });
    expect(errorCodeOf(gone)).toBe("WEBMCP_TOOL_NOT_FOUND");
  }, 60_000);
});
