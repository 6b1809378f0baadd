// `betterwright mcp --isolated` makes each connection's own session with the
// tool call that first needs it: no session.create of its own before a call.
// What the server sends its daemon is counted on the way, by a relay put in
// place of the profile's socket.
import { chmodSync, renameSync } from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layoutFor } from "../../shared/paths.js";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { startStdioMcp, textOf, type StdioMcp } from "../helpers/mcp-client.js";

/** A relay on `socketPath` to the daemon now at `realPath`: it counts each method the clients call. */
async function countingRelay(socketPath: string, realPath: string): Promise<{ calls: (method: string) => number; close: () => Promise<void> }> {
  let sent = "";
  const server = net.createServer((client) => {
    const daemon = net.connect(realPath);
    client.on("data", (chunk) => (sent += chunk.toString("utf8")));
    client.pipe(daemon).pipe(client);
    client.on("error", () => daemon.destroy());
    daemon.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  chmodSync(socketPath, 0o600);
  return {
    calls: (method) => sent.split("\n").filter((line) => line.includes(`"method":${JSON.stringify(method)}`)).length,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("betterwright mcp --isolated", () => {
  let home: string;
  let pages: TestServer;
  let mcp: StdioMcp | undefined;
  let relay: Awaited<ReturnType<typeof countingRelay>> | undefined;
  let socketPath: string;

  beforeAll(async () => {
    home = tempHome("bw-mcp-iso-");
    pages = await startServer({ "/": "<title>Start</title><p>hello</p>" });
    socketPath = layoutFor(home, "default").socketPath;
  });

  afterAll(async () => {
    await mcp?.close();
    await relay?.close();
    try {
      renameSync(`${socketPath}.real`, socketPath);
    } catch {
      // Never moved: the test stopped before.
    }
    await destroyHome(home);
    await pages?.close();
  }, 60_000);

  it("sends each call with its session's making, and no separate session.create", async () => {
    // The daemon first, so that the relay can stand in front of its socket.
    expect((await runCli(["exec", "-c", "return 1"], { home })).json).toMatchObject({ ok: true });
    renameSync(socketPath, `${socketPath}.real`);
    relay = await countingRelay(socketPath, `${socketPath}.real`);
    mcp = await startStdioMcp(home, ["--isolated"]);
    const first = await mcp.client.callTool({ name: "navigate", arguments: { url: `${pages.url}/` } });
    expect(first.isError, textOf(first)).toBeFalsy();
    const second = await mcp.client.callTool({ name: "read", arguments: {} });
    expect(textOf(second)).toContain("hello");
    const sessions = (await mcp.client.callTool({ name: "session_list", arguments: {} })).structuredContent as { sessions: { session: string; isolated: boolean }[] };
    expect(sessions.sessions.filter((s) => s.session.startsWith("mcp-"))).toEqual([expect.objectContaining({ isolated: true })]);
    // The relay sees the calls (the two tools', and the page tools' refresh).
    expect(relay.calls("session.op")).toBeGreaterThanOrEqual(2);
    expect(relay.calls("session.create")).toBe(0);
  }, 120_000);
});
