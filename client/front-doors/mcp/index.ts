// `betterwright mcp`: an MCP server of the profile's daemon, over stdio (one
// connection, the agent host's) or Streamable HTTP on loopback. The SDK is
// loaded when it starts (sdk.ts), so that it never slows the CLI's other commands.
import type { BetterWright } from "../../index.js";
import { PACKAGE_VERSION } from "../../../shared/version.js";
import type { ConnectionOptions } from "./connection.js";
import { FrontDoor } from "./front-door.js";
import { checkListen, parseListen, type ListenFlag } from "../common/listener.js";
import { serveHttp } from "./http.js";
import { loadSdk } from "./sdk.js";
import { createConnectionServer } from "./server.js";
import { resolveToken } from "./token.js";
import { selectTools } from "./tools.js";


const MCP_LISTEN: ListenFlag = { flag: "--http", example: "127.0.0.1:8931", door: "MCP over HTTP" };

export { allTools, selectTools, CORE_TOOLS } from "./tools.js";
export { tokenPath } from "./token.js";

export interface McpOptions {
  bw: BetterWright;
  home: string;
  profile: string;
  timeoutMs: number;
  maxImageBytes: number;
  connection: ConnectionOptions;
  /** core, all, or names separated by commas. */
  tools: string;
  /** Send the server's instructions (default true), and how over-large results come back (default pages). */
  instructions?: boolean;
  largeResults?: "pages" | "files";
  /** HOST:PORT: serve Streamable HTTP instead of stdio. */
  http?: string;
  allowRemote?: boolean;
  /** BETTERWRIGHT_TOKEN, as the CLI read it from its environment. */
  tokenFromEnv?: string;
  /** Where to say what is going on (stderr; stdout is the protocol's on stdio). */
  log: (line: string) => void;
}

/** Serves until the client goes away (stdio) or the returned stop is called (HTTP, or a signal). */
export async function startMcp(options: McpOptions): Promise<{ done: Promise<void>; stop: () => Promise<void> }> {
  const tools = selectTools(options.tools);
  const sdk = await loadSdk();
  const door = new FrontDoor({
    bw: options.bw,
    sdk,
    home: options.home,
    profile: options.profile,
    tools,
    connection: options.connection,
    maxImageBytes: options.maxImageBytes,
    timeoutMs: options.timeoutMs,
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    ...(options.largeResults === undefined ? {} : { largeResults: options.largeResults }),
    versions: { betterwright: PACKAGE_VERSION },
  });

  if (options.http !== undefined) {
    const address = parseListen(options.http, MCP_LISTEN);
    checkListen(address, options.allowRemote === true, MCP_LISTEN);
    const { token, source } = resolveToken(options.tokenFromEnv, options.home);
    const serving = await serveHttp(door, address, token);
    options.log(`betterwright mcp: serving ${tools.length} tools at ${serving.url} (bearer token from ${source})`);
    let finish: () => void = () => undefined;
    const done = new Promise<void>((resolve) => { finish = resolve; });
    return { done, stop: async () => { await serving.close(); finish(); } };
  }

  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => { finish = resolve; });
  let served = false;
  const handle = sdk.serveStdio(() => {
    served = true;
    return createConnectionServer(door, () => finish()).server;
  }, { onerror: (error) => options.log(`betterwright mcp: ${error.message}`) });
  // A client that leaves before opening a connection leaves no instance to close.
  process.stdin.once("end", () => { if (!served) finish(); });
  return { done, stop: async () => { await handle.close(); finish(); } };
}
