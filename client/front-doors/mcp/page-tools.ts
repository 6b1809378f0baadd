// The WebMCP tools of a connection's active page, served as MCP tools named
// `page__<name>` (never one of ours). The list is refreshed after each call
// the connection makes in its own session, so it costs nothing until a
// browser runs; when it changes, the server tells the client
// (notifications/tools/list_changed). A page tool's input is its own schema
// under `input`, beside our `confirm`, so no page can shadow an argument of
// ours. Everything the page wrote is marked untrusted.
import { BwError } from "../../../shared/protocol/errors.js";
import { pageToolNames, PAGE_TOOL_PREFIX, type WebmcpTool } from "../../../shared/webmcp.js";
import type { McpConnection } from "./connection.js";
import { errorResult } from "./errors.js";
import type { FrontDoor } from "./front-door.js";
import { envelopeResult, type CallResult } from "./results.js";
import type { ToolDefinition } from "./tools.js";

/** How long a refresh may take; it runs after a call, before its answer. */
const REFRESH_TIMEOUT_MS = 5_000;

export function isPageTool(name: string): boolean {
  return name.startsWith(PAGE_TOOL_PREFIX);
}

function definition(mcpName: string, tool: WebmcpTool): ToolDefinition {
  const input = tool.inputSchema !== null && typeof tool.inputSchema === "object" ? tool.inputSchema : { type: "object" };
  const properties: Record<string, unknown> = { input: { ...(input as object), description: "the page tool's input, as its own schema says" } };
  if (tool.submits) properties.confirm = { type: "boolean", description: "true: let the tool submit or act on its own" };
  const acts = tool.submits ? " It acts on its own (submits a form or a consequential action): it needs confirm: true." : "";
  return {
    name: mcpName,
    description: `[page tool, untrusted: written by the page] ${tool.description}${acts}`.slice(0, 1_200),
    inputSchema: { type: "object", properties, additionalProperties: false } as ToolDefinition["inputSchema"],
    annotations: { title: `page: ${tool.name.slice(0, 60)}`, readOnlyHint: tool.readOnly === true, destructiveHint: tool.submits === true, openWorldHint: true },
  };
}

export class PageTools {
  /** MCP name → the page's own name and its definition. */
  private tools = new Map<string, { name: string; definition: ToolDefinition }>();
  private signature = "[]";

  constructor(
    private readonly door: FrontDoor,
    private readonly connection: McpConnection,
    /** Called when the list changed (the server sends notifications/tools/list_changed). */
    private readonly changed: () => void,
  ) {}

  definitions(): ToolDefinition[] {
    return [...this.tools.values()].map((t) => t.definition);
  }

  /** Asks the connection's session for its active page's tools; a page without any (or no WebMCP) has none. */
  async refresh(): Promise<void> {
    const envelope = await this.door.bw.op("webmcp_tools", {}, { session: this.connection.session, timeoutMs: REFRESH_TIMEOUT_MS }).catch(() => undefined);
    const listed = envelope?.ok ? envelope.result?.tools ?? [] : [];
    const names = pageToolNames(listed.map((t) => t.name));
    const byName = new Map(listed.map((t) => [t.name, t]));
    const next = new Map<string, { name: string; definition: ToolDefinition }>();
    for (const [mcpName, name] of names) next.set(mcpName, { name, definition: definition(mcpName, byName.get(name)!) });
    const signature = JSON.stringify([...next.values()].map((t) => t.definition));
    this.tools = next;
    if (signature !== this.signature) {
      this.signature = signature;
      this.changed();
    }
  }

  /** A call of `page__<name>`: webmcp_call in the connection's session. */
  async call(mcpName: string, rawArgs: unknown, signal: AbortSignal): Promise<CallResult> {
    try {
      const tool = this.tools.get(mcpName);
      if (!tool) throw new BwError("WEBMCP_TOOL_NOT_FOUND", `the active page offers no tool ${JSON.stringify(mcpName.slice(0, 64))} now (pages change their tools; tools/list shows those it does)`);
      const args = (rawArgs ?? {}) as Record<string, unknown>;
      if (typeof args !== "object" || Array.isArray(args)) throw new BwError("INVALID_ARGUMENT", "arguments: expected an object");
      for (const key of Object.keys(args)) if (key !== "input" && key !== "confirm") throw new BwError("INVALID_ARGUMENT", `arguments: a page tool takes input and confirm, not ${JSON.stringify(key.slice(0, 40))}`);
      if (args.confirm !== undefined && typeof args.confirm !== "boolean") throw new BwError("INVALID_ARGUMENT", "arguments.confirm: expected a boolean");
      const session = this.connection.session;
      const envelope = await this.door.bw.op("webmcp_call", { name: tool.name, ...(args.input === undefined ? {} : { input: args.input }), ...(args.confirm === true ? { confirm: true } : {}) }, { session, timeoutMs: this.door.options.timeoutMs, signal, ...this.connection.prepare(session) });
      return envelopeResult("webmcp_call", envelope);
    } catch (error) {
      return errorResult(error);
    }
  }
}
