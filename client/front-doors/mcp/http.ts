// `betterwright mcp --http HOST:PORT`: Streamable HTTP at /mcp, one MCP
// session (and so one betterwright session) per Mcp-Session-Id. Every request
// passes the Host/Origin checks and the bearer token before the SDK sees it.
// Sessions past the bound evict the one idle longest.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { FrontDoor } from "./front-door.js";
import { answeredHosts, checkBearer, checkHeaders, type ListenAddress, type Refusal } from "../common/listener.js";
import { sendWebResponse, toWebRequest } from "./node-web.js";
import { createConnectionServer, type ServedConnection } from "./server.js";

export const MCP_PATH = "/mcp";
export const MAX_HTTP_SESSIONS = 32;

interface HttpSession {
  transport: WebStandardStreamableHTTPServerTransport;
  served: ServedConnection;
  lastUsed: number;
}

export interface HttpServing {
  url: string;
  close(): Promise<void>;
}

function refuse(res: ServerResponse, refusal: Refusal | { status: number; reason: string }, code: string): void {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (refusal.status === 401) headers["www-authenticate"] = 'Bearer realm="betterwright"';
  res.writeHead(refusal.status, headers).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: refusal.reason, data: { code } } }));
}

export async function serveHttp(door: FrontDoor, address: ListenAddress, token: string): Promise<HttpServing> {
  const sessions = new Map<string, HttpSession>();
  // Nothing is answered until the server has bound (and so knows its port).
  let hosts: ReadonlySet<string> | undefined = new Set<string>();

  const evictIdlest = async () => {
    const idlest = [...sessions.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
    if (idlest) {
      sessions.delete(idlest[0]);
      await idlest[1].transport.close().catch(() => undefined);
    }
  };

  const newSession = async (): Promise<HttpSession> => {
    if (sessions.size >= MAX_HTTP_SESSIONS) await evictIdlest();
    const served = createConnectionServer(door);
    const entry: HttpSession = {
      served,
      lastUsed: Date.now(),
      transport: new door.sdk.WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, entry),
        onsessionclosed: (id) => void sessions.delete(id),
      }),
    };
    await served.server.connect(entry.transport);
    return entry;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x");
    const refusal = checkHeaders({ host: req.headers.host, origin: req.headers.origin }, hosts, { origin: true });
    if (refusal) return refuse(res, refusal, "FORBIDDEN");
    const unauthorized = checkBearer(req.headers.authorization, token);
    if (unauthorized) return refuse(res, unauthorized, "UNAUTHORIZED");
    if (url.pathname !== MCP_PATH) return refuse(res, { status: 404, reason: `MCP is served at ${MCP_PATH}` }, "NOT_FOUND");
    const sid = req.headers["mcp-session-id"];
    const existing = typeof sid === "string" ? sessions.get(sid) : undefined;
    if (typeof sid === "string" && !existing) return refuse(res, { status: 404, reason: "no MCP session by that id: initialize a new one" }, "SESSION_NOT_FOUND");
    const entry = existing ?? (await newSession());
    entry.lastUsed = Date.now();
    const response = await entry.transport.handleRequest(toWebRequest(req, `http://${req.headers.host}`));
    // A first request that did not open a session (not an initialize) leaves nothing behind.
    if (!existing && entry.transport.sessionId === undefined) void entry.served.server.close().catch(() => undefined);
    await sendWebResponse(res, response);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, { status: 500, reason: "internal error" }, "INTERNAL_ERROR");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(address.port, address.host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  hosts = answeredHosts(address, bound.port);
  const literal = address.host.includes(":") ? `[${address.host}]` : address.host;
  return {
    url: `http://${literal}:${bound.port}${MCP_PATH}`,
    async close() {
      for (const entry of sessions.values()) await entry.transport.close().catch(() => undefined);
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
