// The WebMCP bridge end to end: the real CLI, daemon, worker and Chromium
// against a page that registers tools, friendly and hostile. Listed and
// called as typed operations and from a snippet; bounded, marked untrusted,
// confirmed when they act on their own, cancelled when they hang, ended when
// the page leaves, and still inside the network guard.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { MAX_WEBMCP_DESCRIPTION_CHARS, MAX_WEBMCP_RESULT_CHARS, MAX_WEBMCP_TOOLS, UNTRUSTED_PAGE_DATA } from "../../shared/webmcp.js";
import { PLAIN_PAGE, toolsPage } from "./fixtures/webmcp-pages.js";

describe("the WebMCP bridge", () => {
  let home: string;
  let pages: TestServer;
  let forbidden: TestServer;
  let S: string[];
  const cli = async (...args: string[]) => (await runCli([...args, ...S, "--json"], { home })).json;

  beforeAll(async () => {
    home = tempHome();
    forbidden = await startServer({ "/secret": "secret" });
    const blockedUrl = `${forbidden.url}/secret`;
    pages = await startServer({
      "/tools": toolsPage(blockedUrl),
      "/plain": PLAIN_PAGE,
      "/elsewhere": "<title>Elsewhere</title>",
      "/cancelled": "ok",
      "/bought": "ok",
      "/ordered": "<title>Ordered</title>",
    });
    S = ["--session", "wm", "--block-host", `127.0.0.1:${forbidden.port}`];
    const nav = await cli("navigate", `${pages.url}/tools`);
    expect(nav).toMatchObject({ ok: true });
  }, 90_000);

  afterAll(async () => {
    await destroyHome(home);
    await pages.close();
    await forbidden.close();
  });

  it("lists the page's tools as bounded descriptors marked untrusted", async () => {
    const r = await cli("webmcp_tools");
    expect(r).toMatchObject({ ok: true, result: { untrusted: UNTRUSTED_PAGE_DATA } });
    const { tools, total, omitted } = r.result;
    expect(tools.length).toBeLessThanOrEqual(MAX_WEBMCP_TOOLS);
    // 10 tools, 80 fillers (named to sort last) and the declarative form: more than are listed, and the over-long name is never one of them.
    expect(total).toBeGreaterThan(MAX_WEBMCP_TOOLS);
    expect(omitted).toBe(total - tools.length);
    expect(tools.some((t: { name: string }) => t.name.length > 128)).toBe(false);
    const byName = new Map(tools.map((t: { name: string }) => [t.name, t]));
    expect(byName.get("add")).toMatchObject({ description: "Adds two numbers", readOnly: true, inputSchema: { required: ["a", "b"] } });
    expect(byName.get("buy")).toMatchObject({ submits: true });
    expect(byName.get("order_form")).toMatchObject({ submits: true });
    const huge = byName.get("huge_schema") as { description: string; schemaOmitted?: boolean; inputSchema?: unknown };
    expect(huge.schemaOmitted).toBe(true);
    expect(huge.inputSchema).toBeUndefined();
    expect(huge.description.length).toBeLessThanOrEqual(MAX_WEBMCP_DESCRIPTION_CHARS);
  }, 60_000);

  it("calls a tool from the CLI and from a snippet, its result marked untrusted", async () => {
    const r = await cli("webmcp_call", "add", '{"a":2,"b":40}');
    expect(r).toMatchObject({ ok: true, result: { tool: "add", result: { content: [{ type: "text", text: "42" }] }, untrusted: UNTRUSTED_PAGE_DATA } });
    const s = await runCli(["exec", ...S, "-c", `const tools = await page.webmcp.tools();
      const r = await page.webmcp.callTool("add", { a: 1, b: 2 });
      return { add: tools.some((t) => t.name === "add"), marked: tools[0].untrusted, r }`], { home });
    expect(s.json).toMatchObject({ ok: true, result: { add: true, marked: UNTRUSTED_PAGE_DATA, r: { result: { content: [{ text: "3" }] }, untrusted: UNTRUSTED_PAGE_DATA } } });
  }, 60_000);

  it("refuses an unknown tool, a tool that acts on its own without confirm, and bad input, with their codes", async () => {
    expect(await cli("webmcp_call", "nope")).toMatchObject({ ok: false, error: { code: "WEBMCP_TOOL_NOT_FOUND" } });
    const before = pages.requests.filter((u) => u === "/bought").length;
    expect(await cli("webmcp_call", "buy")).toMatchObject({ ok: false, error: { code: "CONFIRMATION_REQUIRED" } });
    expect(await cli("webmcp_call", "order_form", '{"item":"x"}')).toMatchObject({ ok: false, error: { code: "CONFIRMATION_REQUIRED" } });
    expect(pages.requests.filter((u) => u === "/bought").length).toBe(before);
    expect(await cli("webmcp_call", "buy", "--confirm")).toMatchObject({ ok: true, result: { result: { content: [{ text: "bought" }] } } });
    expect(await cli("webmcp_call", "add", "[1,2]")).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
    const s = await runCli(["exec", ...S, "-c", `try { await page.webmcp.callTool("buy", {}, { confirm: "yes" }) } catch (e) { return e.code }`], { home });
    expect(s.json.result).toBe("INVALID_ARGUMENT");
  }, 60_000);

  it("a tool named like ours is only the page's, and a huge result comes back cut", async () => {
    expect(await cli("webmcp_call", "navigate")).toMatchObject({ ok: true, result: { result: "the page's navigate" } });
    // Cut by the bridge, then (past the envelope's own bound) spilled to an untrusted-data file.
    const big = await cli("webmcp_call", "big_result");
    expect(big).toMatchObject({ ok: true, truncated: true });
    const spilled = readFileSync(big.fullOutputPath, "utf8");
    expect(spilled).toContain("BEGIN UNTRUSTED DATA");
    const json = JSON.parse(spilled.split("\n").find((line) => line.startsWith("{"))!);
    expect(json).toMatchObject({ truncated: true, totalChars: 200_000, untrusted: UNTRUSTED_PAGE_DATA });
    expect(json.result).toHaveLength(MAX_WEBMCP_RESULT_CHARS);
  }, 60_000);

  it("a tool that never answers times out, and the page is asked to cancel it", async () => {
    const started = Date.now();
    const r = await cli("webmcp_call", "hang", "--timeout-ms", "1500");
    expect(r).toMatchObject({ ok: false, error: { code: "SNIPPET_TIMEOUT" } });
    expect(r.error.message).toMatch(/asked to cancel/);
    expect(Date.now() - started).toBeLessThan(30_000);
    // The tool's AbortSignal fired in the page, and the session is still usable.
    const seen = await runCli(["exec", ...S, "-c", "return await page.evaluate(() => window.cancelled)"], { home });
    expect(seen.json).toMatchObject({ ok: true, result: true });
    expect(pages.requests).toContain("/cancelled");
  }, 60_000);

  it("a tool whose fetch the policy refuses is still refused, and listed as blocked", async () => {
    const r = await cli("webmcp_call", "exfiltrate");
    expect(r).toMatchObject({ ok: true, result: { result: "failed" } });
    expect(forbidden.requests).toEqual([]);
    expect(r.blocked).toContainEqual(expect.objectContaining({ url: `http://127.0.0.1:${forbidden.port}/` }));
  }, 60_000);

  it("a tool that navigates away while it runs ends the call with OPERATION_FAILED, not a hang", async () => {
    const r = await cli("webmcp_call", "leave", "--timeout-ms", "20000");
    expect(r).toMatchObject({ ok: false, error: { code: "OPERATION_FAILED" } });
    expect(r.error.message).toMatch(/navigated or closed/);
  }, 60_000);

  it("a page without tools lists none; a document without WebMCP says so", async () => {
    await cli("navigate", `${pages.url}/plain`);
    expect(await cli("webmcp_tools")).toMatchObject({ ok: true, result: { tools: [], total: 0 } });
    await cli("navigate", "about:blank");
    expect(await cli("webmcp_tools")).toMatchObject({ ok: false, error: { code: "WEBMCP_UNSUPPORTED" } });
  }, 60_000);
});
