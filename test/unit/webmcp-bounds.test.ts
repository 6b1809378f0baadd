// The bridge's pure bounds and the MCP names of a page's tools.
import { describe, expect, it } from "vitest";
import { boundResult, boundTool, MAX_MCP_TOOL_NAME, MAX_WEBMCP_RESULT_CHARS, MAX_WEBMCP_SCHEMA_CHARS, PAGE_TOOL_PREFIX, pageToolNames } from "../../shared/webmcp.js";
import { OPERATIONS } from "../../shared/protocol/operations/index.js";
import { FRONT_DOOR_TOOLS } from "../../client/front-doors/mcp/front-door-tools.js";
import { webmcpTimeoutMs, WEBMCP_CANCEL_MARGIN_MS } from "../../daemon/browser-worker/webmcp/budget.js";

describe("page tool names in MCP", () => {
  it("can never be one of ours: every one carries the prefix, and none of ours does", () => {
    const ours = [...OPERATIONS, ...FRONT_DOOR_TOOLS].map((t) => t.name);
    expect(ours.some((n) => n.startsWith(PAGE_TOOL_PREFIX))).toBe(false);
    const names = pageToolNames(["navigate", "run", "page__navigate", "a b/c", "ü".repeat(200)]);
    for (const name of names.keys()) {
      expect(name.startsWith(PAGE_TOOL_PREFIX)).toBe(true);
      expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(ours).not.toContain(name);
    }
    expect(names.get("page__navigate")).toBe("navigate");
    expect(names.get("page__a_b_c")).toBe("a b/c");
  });

  it("gives two names that clean up alike two MCP names within the bound", () => {
    const names = pageToolNames(["a.b", "a-b", "a_b", "x".repeat(100), "x".repeat(101)]);
    expect(names.size).toBe(5);
    for (const name of names.keys()) expect(name.length).toBeLessThanOrEqual(MAX_MCP_TOOL_NAME);
  });
});

describe("bounds on what a page reports", () => {
  it("drops names that are empty, too long or unprintable, and schemas past the bound", () => {
    expect(boundTool({ name: "" })).toBeUndefined();
    expect(boundTool({ name: "a\u0007b" })).toBeUndefined();
    expect(boundTool({ name: "x".repeat(129) })).toBeUndefined();
    expect(boundTool({ name: "t", schema: "x".repeat(MAX_WEBMCP_SCHEMA_CHARS + 1) })).toEqual({ name: "t", description: "", schemaOmitted: true });
    expect(boundTool({ name: "t", schema: '{"type":"object"}', submits: true, readOnly: "yes" })).toEqual({ name: "t", description: "", inputSchema: { type: "object" }, submits: true });
  });

  it("parses a whole result and cuts a long one", () => {
    expect(boundResult('{"content":[]}', 14)).toEqual({ result: { content: [] } });
    expect(boundResult("not json", 8)).toEqual({ result: "not json" });
    const cut = boundResult("z".repeat(MAX_WEBMCP_RESULT_CHARS), MAX_WEBMCP_RESULT_CHARS * 3);
    expect(cut).toMatchObject({ truncated: true, totalChars: MAX_WEBMCP_RESULT_CHARS * 3 });
  });

  it("leaves the run time to cancel: a call's time is within the budget less the margin", () => {
    expect(webmcpTimeoutMs(undefined, 30_000)).toBe(30_000 - WEBMCP_CANCEL_MARGIN_MS);
    expect(webmcpTimeoutMs(1_000, 30_000)).toBe(1_000);
    expect(webmcpTimeoutMs(60_000, 10_000)).toBe(10_000 - WEBMCP_CANCEL_MARGIN_MS);
    expect(webmcpTimeoutMs(5_000, 100)).toBe(1);
  });
});
