// One MCP server instance per connection, on the SDK's protocol layer
// (`Server`): the tool list is ours (schemas from the operation table), and so
// is argument checking (the table's validator), so a bad argument is a tool
// error with its code, not a protocol error. Also a read-only `sessions`
// resource, the prompts of prompts.ts and (unless switched off) the
// instructions. The instance's close ends the connection's own session.
import { randomBytes } from "node:crypto";
import type { Server, Tool } from "@modelcontextprotocol/server";
import { callTool } from "./call-tool.js";
import { sessionListing } from "./front-door-calls.js";
import { McpConnection } from "./connection.js";
import type { FrontDoor } from "./front-door.js";
import { INSTRUCTIONS, promptList, renderPrompt } from "./prompts.js";
import { isPageTool, PageTools } from "./page-tools.js";

export const SESSIONS_RESOURCE = "betterwright://sessions";


export interface ServedConnection {
  server: Server;
  connection: McpConnection;
}

/**
 * The call ran in the connection's session and may have changed its page: an operation that acts, a snippet,
 * a page tool. Reads (snapshot, read, screenshot…) change nothing, so they cost no refresh.
 */
function ranInOwnSession(door: FrontDoor, connection: McpConnection, name: string, args: unknown): boolean {
  const entry = door.tool(name);
  if (!isPageTool(name) && entry?.kind !== "operation" && name !== "run") return false;
  if (entry?.definition.annotations.readOnlyHint === true) return false;
  const session = (args as { session?: unknown } | undefined)?.session;
  return session === undefined || session === null || session === connection.session;
}

export function createConnectionServer(door: FrontDoor, onClosed?: (served: ServedConnection) => void): ServedConnection {
  const server = new door.sdk.Server(
    { name: "betterwright", version: door.options.versions.betterwright ?? "0" },
    { capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} }, ...(door.options.instructions === false ? {} : { instructions: INSTRUCTIONS }) },
  );
  const connection = new McpConnection(door.bw, door.options.connection, () => server.getClientVersion()?.name, randomBytes(3).toString("hex"));
  const served = { server, connection };
  const pageTools = new PageTools(door, connection, () => { void server.sendToolListChanged().catch(() => {}); });

  server.setRequestHandler("tools/list", async () => ({ tools: [...door.options.tools.map((t) => t.definition), ...pageTools.definitions()] as Tool[] }));

  server.setRequestHandler("tools/call", async (request, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    const progress = token === undefined
      ? undefined
      : (progressValue: number, message: string) => ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress: progressValue, message } });
    const { name, arguments: args } = request.params;
    const result = isPageTool(name)
      ? await pageTools.call(name, args, ctx.mcpReq.signal)
      : await callTool(door, connection, name, args, { signal: ctx.mcpReq.signal, ...(progress ? { progress } : {}) });
    // What ran in this connection's own session may have changed its page's tools.
    if (ranInOwnSession(door, connection, name, args)) await pageTools.refresh();
    return { ...result };
  });

  server.setRequestHandler("resources/list", async () => ({
    resources: [{ uri: SESSIONS_RESOURCE, name: "sessions", description: "This profile's sessions, their labels and this connection's", mimeType: "application/json" }],
  }));

  server.setRequestHandler("resources/read", async (request) => {
    if (request.params.uri !== SESSIONS_RESOURCE) throw new door.sdk.ResourceNotFoundError(request.params.uri);
    const listing = await sessionListing(door, connection);
    return { contents: [{ uri: SESSIONS_RESOURCE, mimeType: "application/json", text: JSON.stringify(listing) }] };
  });

  server.setRequestHandler("prompts/list", async () => ({ prompts: promptList() }));

  server.setRequestHandler("prompts/get", async (request) => {
    try {
      const { description, text } = renderPrompt(request.params.name, request.params.arguments ?? {});
      return { description, messages: [{ role: "user" as const, content: { type: "text" as const, text } }] };
    } catch (error) {
      throw new door.sdk.ProtocolError(door.sdk.InvalidParams, error instanceof Error ? error.message : String(error));
    }
  });

  server.onclose = () => {
    void connection.close().finally(() => onClosed?.(served));
  };
  return served;
}
