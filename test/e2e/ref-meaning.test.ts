// A ref acts only on the element as its snapshot named it. A page renames its
// "Cancel" button (text and aria-label) to "Delete my account" after the
// snapshot: `click` on Cancel's ref fails with STALE_REF naming both, and the
// button is never pressed, through the CLI, the library and MCP alike. Refs
// whose element kept its role and name still act.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright } from "../../dist/client/index.js";
import { cleanEnv, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { errorCodeOf, refOf, startStdioMcp, textOf } from "../helpers/mcp-client.js";

const PAGE = `<title>Account</title>
<button id="target" onclick="fetch('/pressed?' + encodeURIComponent(this.textContent))">Cancel</button>
<button onclick="const b = document.getElementById('target'); b.textContent = 'Delete my account'; b.setAttribute('aria-label', 'Delete my account')">Rename</button>
<button onclick="fetch('/other')">Other</button>`;

const STALE = /e\d+ was button "Cancel", is now button "Delete my account"/;

describe("a ref whose element changed meaning", () => {
  let home: string;
  let server: TestServer;
  const pressed = () => server.requests.filter((r) => r.startsWith("/pressed"));

  beforeAll(async () => {
    home = tempHome("bw-meaning-");
    server = await startServer({ "/": PAGE, "/pressed": "ok", "/other": "ok" });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("refuses it over the CLI, and presses nothing", async () => {
    const op = async (...args: string[]) => (await runCli([...args, "--session", "cli", "--json"], { home })).json;
    await op("navigate", `${server.url}/`);
    const snap = (await op("snapshot")).result.text as string;
    const cancel = refOf(snap, '"Cancel"');
    expect((await op("click", refOf(snap, '"Rename"'))).ok).toBe(true);
    const refused = await op("click", cancel);
    expect(refused.error).toMatchObject({ code: "STALE_REF", message: expect.stringMatching(STALE) });
    expect(refused.error.message).toContain(cancel);
    // Still what it was: acts.
    expect((await op("click", refOf(snap, '"Other"'))).ok).toBe(true);
    expect(server.requests).toContain("/other");
    expect(pressed()).toEqual([]);
    // A new snapshot names it as it is; its ref then acts.
    const fresh = (await op("snapshot")).result.text as string;
    expect((await op("click", refOf(fresh, '"Delete my account"'))).ok).toBe(true);
    expect(pressed()).toEqual(["/pressed?Delete%20my%20account"]);
  }, 120_000);

  it("refuses it through the library's bw.op and over MCP", async () => {
    server.requests.length = 0;
    const bw = new BetterWright({ home, env: cleanEnv(home) });
    try {
      const session = "lib";
      await bw.op("navigate", { url: `${server.url}/` }, { session });
      const snap = (await bw.op("snapshot", {}, { session })).result as { text: string };
      await bw.op("click", { target: { ref: refOf(snap.text, '"Rename"') } }, { session });
      const refused = await bw.op("click", { target: { ref: refOf(snap.text, '"Cancel"') } }, { session });
      expect(refused.error).toMatchObject({ code: "STALE_REF", message: expect.stringMatching(STALE) });
    } finally {
      await bw.close();
    }
    const mcp = await startStdioMcp(home, [], "meaning");
    try {
      await mcp.client.callTool({ name: "navigate", arguments: { url: `${server.url}/` } });
      const snap = textOf(await mcp.client.callTool({ name: "snapshot", arguments: {} }));
      await mcp.client.callTool({ name: "click", arguments: { target: refOf(snap, '"Rename"') } });
      const refused = await mcp.client.callTool({ name: "click", arguments: { target: refOf(snap, '"Cancel"') } });
      expect(errorCodeOf(refused)).toBe("STALE_REF");
      expect(textOf(refused)).toMatch(STALE);
    } finally {
      await mcp.close();
    }
    expect(pressed()).toEqual([]);
  }, 120_000);
});
