// The MCP SDK, loaded when `betterwright mcp` starts and not before: the CLI
// bundles this front door with its other yargs commands, and only this one
// pays for the SDK (and zod). Everything here takes it from what loadSdk gives.
import type * as ServerSdk from "@modelcontextprotocol/server";
import type * as StdioSdk from "@modelcontextprotocol/server/stdio";

export interface Sdk {
  Server: typeof ServerSdk.Server;
  ResourceNotFoundError: typeof ServerSdk.ResourceNotFoundError;
  ProtocolError: typeof ServerSdk.ProtocolError;
  InvalidParams: number;
  WebStandardStreamableHTTPServerTransport: typeof ServerSdk.WebStandardStreamableHTTPServerTransport;
  serveStdio: typeof StdioSdk.serveStdio;
}

export async function loadSdk(): Promise<Sdk> {
  const [server, stdio] = await Promise.all([import("@modelcontextprotocol/server"), import("@modelcontextprotocol/server/stdio")]);
  return {
    Server: server.Server,
    ResourceNotFoundError: server.ResourceNotFoundError,
    ProtocolError: server.ProtocolError,
    InvalidParams: server.ProtocolErrorCode.InvalidParams,
    WebStandardStreamableHTTPServerTransport: server.WebStandardStreamableHTTPServerTransport,
    serveStdio: stdio.serveStdio,
  };
}
