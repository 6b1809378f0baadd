// Rules the front doors share. serve goes to http and https only (a data:,
// file:, javascript: or about: URL is 400 BLOCKED_URL, and the session stays
// usable). serve's sessions (named by UUID) and saved states (`http-…`) are
// neither driven, closed, removed nor loaded by the CLI, MCP or a library
// program on the same profile unless the program opts in. Every MCP tool
// refuses an argument it does not take, `run` included.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright } from "../../dist/client/index.js";
import { cleanEnv, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { errorCodeOf, startStdioMcp, textOf, type StdioMcp } from "../helpers/mcp-client.js";
import { call, startServe, type Served } from "../helpers/serve.js";

describe("front-door boundaries", () => {
  let home: string;
  let pages: TestServer;
  let served: Served;
  let mcp: StdioMcp;
  const id = randomUUID();
  const state = `http-${id}`;

  beforeAll(async () => {
    home = tempHome("bw-doors-");
    pages = await startServer({ "/": "<title>home</title><p>served</p>" });
    served = await startServe(home, ["--allow-host", "127.0.0.1"]);
    expect((await call(served, "POST", "/sessions", { body: { id, url: `${pages.url}/` } })).status).toBe(201);
    mcp = await startStdioMcp(home, ["--tools", "all"], "doors");
  }, 120_000);

  afterAll(async () => {
    await mcp?.close().catch(() => undefined);
    await served?.stop();
    await pages?.close();
    await destroyHome(home);
  }, 60_000);

  it("serve refuses every scheme but http and https with 400 BLOCKED_URL, and the session goes on", async () => {
    for (const url of ["data:text/html,<title>x</title>", "javascript:alert(1)", "about:blank", "file:///etc/passwd", "blob:http://127.0.0.1/x", "not a url"]) {
      expect(await call(served, "POST", `/sessions/${id}/navigate`, { body: { url } }), url).toMatchObject({ status: 400, json: { error: { code: "BLOCKED_URL", message: expect.stringContaining("http and https") } } });
    }
    expect(await call(served, "POST", "/sessions", { body: { id: randomUUID(), url: "data:text/html,hi" } })).toMatchObject({ status: 400, json: { error: { code: "BLOCKED_URL" } } });
    expect((await call(served, "GET", `/sessions/${id}/read`)).json).toMatchObject({ title: "home", text: "served" });
  });

  it("keeps serve's session from the CLI: no run, no operation, no close", async () => {
    for (const args of [["exec", "--session", id, "-c", "return 1"], ["read", "--session", id], ["close", "--session", id]]) {
      const r = await runCli([...args, "--json"], { home });
      expect(r.json?.error ?? r.json, args.join(" ")).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("betterwright serve") });
    }
    // Upper case is the same id.
    expect((await runCli(["exec", "--session", id.toUpperCase(), "-c", "return 1", "--json"], { home })).json.error).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect((await call(served, "GET", `/sessions/${id}/read`)).json).toMatchObject({ text: "served" });
  });

  it("keeps serve's saved state from the CLI, MCP and a library program that did not opt in; one that did may load it", async () => {
    expect((await call(served, "POST", `/sessions/${id}/close`)).json).toMatchObject({ status: "closed" });
    const listed = await runCli(["state", "list", "--json"], { home });
    expect(JSON.stringify(listed.json)).toContain(state);
    for (const args of [["session", "create", "thief", "--isolated", "--state", state], ["state", "rm", state], ["exec", "--session", "thief2", "--isolated", "--state", state, "-c", "return 1"]]) {
      const r = await runCli([...args, "--json"], { home });
      expect(r.json?.error ?? r.json, args.join(" ")).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("betterwright serve") });
    }
    const viaMcp = await mcp.client.callTool({ name: "session_create", arguments: { name: "thief3", isolated: true, state } });
    expect(errorCodeOf(viaMcp), textOf(viaMcp)).toBe("INVALID_ARGUMENT");
    const run = await mcp.client.callTool({ name: "run", arguments: { code: "return 1", session: id } });
    expect(errorCodeOf(run), textOf(run)).toBe("INVALID_ARGUMENT");

    const plain = new BetterWright({ home, env: cleanEnv(home) });
    try {
      await expect(plain.createSession("thief4", { isolated: true, state })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      await expect(plain.op("read", {}, { session: id })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    } finally {
      await plain.close();
    }
    const optedIn = new BetterWright({ home, env: cleanEnv(home), serveSessions: true });
    try {
      await optedIn.createSession("mine", { isolated: true, state });
      expect((await optedIn.op("navigate", { url: `${pages.url}/` }, { session: "mine" })).ok).toBe(true);
    } finally {
      await optedIn.closeSession("mine").catch(() => false);
      await optedIn.close();
    }
    // serve itself reopens its session from its state as before.
    expect((await call(served, "POST", "/sessions", { body: { id, url: `${pages.url}/` } })).status).toBe(201);
  }, 120_000);

  it("every MCP tool refuses an argument it does not take, run included, and runs nothing", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toContain("run");
    for (const tool of tools) {
      const result = await mcp.client.callTool({ name: tool.name, arguments: { notAnArgument: 1 } });
      expect(errorCodeOf(result), tool.name).toBe("INVALID_ARGUMENT");
      expect(textOf(result), tool.name).toContain("notAnArgument");
    }
    const withArgs = await mcp.client.callTool({ name: "run", arguments: { code: "return args.n + 1", args: { n: 41 } } });
    expect(withArgs.isError, textOf(withArgs)).toBeFalsy();
    expect(textOf(withArgs)).toContain("42");
  }, 120_000);
});
