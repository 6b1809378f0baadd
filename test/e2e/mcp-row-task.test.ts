// Reaching one element of a big page over `betterwright mcp` with the default
// (core) tools, as an agent does it: a 300-row table with a button per row;
// click row 217's button and read what changed. Counted as the bytes the
// model sends (arguments) and reads (result text), against what Playwright's
// MCP server took for the same task (6 calls, 2,494 bytes with browser_find).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { countedCalls, startStdioMcp, type StdioMcp } from "../helpers/mcp-client.js";

const PEER_CALLS = 6;
const PEER_BYTES = 2_494;
const rows = Array.from({ length: 300 }, (_, i) => `<tr><td>Order ${i + 1}</td><td id="s${i + 1}">pending</td><td><button onclick="document.getElementById('s${i + 1}').textContent='approved'">Approve</button></td></tr>`).join("");

describe("the row task over MCP with the core tools", () => {
  let home: string;
  let server: TestServer;
  let mcp: StdioMcp;

  beforeAll(async () => {
    home = tempHome("bw-mcp-rows-");
    server = await startServer({ "/orders": `<title>Orders</title><h1>Orders</h1><table><thead><tr><th>Order</th><th>Status</th><th></th></tr></thead><tbody>${rows}</tbody></table>` });
    mcp = await startStdioMcp(home);
  });

  afterAll(async () => {
    await mcp?.close().catch(() => undefined);
    await destroyHome(home);
    await server.close();
  });

  it("clicks row 217's button and reads what changed in fewer calls and bytes than Playwright's MCP server", async () => {
    const task = countedCalls(mcp.client);
    const call = task.call;
    await call("navigate", { url: `${server.url}/orders` });
    const found = await call("find", { query: "Order 217 " });
    expect(found.split("\n")[0]).toContain("Order 217 |");
    const button = /button "Approve" \[((?:f\d+)?e\d+)\]/.exec(found.split("\n")[0]!)?.[1];
    expect(button, found).toBeDefined();
    await call("click", { target: button });
    const changed = await call("snapshot", { diff: true });
    expect(changed).toMatch(/\+ .*Order 217 \| approved/);
    expect(changed).not.toContain("Order 216");
    console.log(found, changed);
    console.log(`row task over MCP (core tools): ${task.calls} calls, ${task.bytes} bytes; Playwright MCP: ${PEER_CALLS} calls, ${PEER_BYTES} bytes`);
    expect(task.calls).toBeLessThanOrEqual(PEER_CALLS);
    expect(task.bytes).toBeLessThanOrEqual(PEER_BYTES);
  });
});
