// betterwright mcp [--session S | --isolated] [--tools core|all|LIST] [--http HOST:PORT]:
// the profile's daemon as an MCP server for agent hosts. The MCP SDK loads
// only when the server starts (client/front-doors/mcp/sdk.ts): no other command pays for it.
import path from "node:path";
import type { Argv } from "yargs";
import { selectTools, startMcp, tokenPath } from "../../client/front-doors/mcp/index.js";
import { BwError } from "../../shared/protocol/errors.js";
import { validateName } from "../../shared/names.js";
import { resolveMcpSettings } from "../mcp-config.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { applyOptions, type OptionSpec } from "../options.js";
import { printJson } from "../output.js";

interface McpArgs extends GlobalArgs {
  session?: string;
  isolated?: boolean;
  tools?: string;
  http?: string;
  "allow-remote"?: boolean;
  "print-config"?: boolean;
  timeout?: number;
  instructions?: boolean;
  "large-results"?: string;
}

export const MCP_OPTIONS: readonly OptionSpec[] = [
  { name: "session", alias: "s", type: "string", describe: "Every connection works in this session (shared, left open) instead of one of its own" },
  { name: "isolated", type: "boolean", describe: "Each connection's own session has its own browser context (cookies, storage)" },
  { name: "tools", type: "string", describe: "core (default), all, or tool names separated by commas" },
  { name: "http", type: "string", describe: "Serve Streamable HTTP at HOST:PORT/mcp (loopback only) instead of stdio; needs the bearer token" },
  { name: "allow-remote", type: "boolean", describe: "With --http: allow a non-loopback address (the token is still required)" },
  { name: "timeout", type: "number", describe: "Budget of each call in seconds, queue wait included (env BETTERWRIGHT_TIMEOUT_SECONDS, default 30)" },
  { name: "instructions", type: "boolean", describe: "Send the server's instructions to the host (default; --no-instructions or BETTERWRIGHT_MCP_INSTRUCTIONS=0 leaves them out)" },
  { name: "large-results", type: "string", describe: "A result too large for one reply: pages (default; read on with the more tool) or files (its preview and a path on this machine); env BETTERWRIGHT_MCP_LARGE_RESULTS" },
  { name: "print-config", type: "boolean", describe: "Print the JSON an MCP host needs to start this server, and exit" },
];

export const STDIO_HINT =
  "betterwright mcp speaks MCP (JSON-RPC) on stdin and stdout, for an agent host to start; `betterwright mcp --print-config` prints the JSON for the host's configuration (or use --http HOST:PORT). Ctrl-C stops it.";

/** The words after `betterwright` that start this server again: the profile and home chosen, the flags given. */
function serverArgs(args: McpArgs, profile: string, home: string): string[] {
  const words = ["mcp"];
  if (profile !== "default") words.push("--profile", profile);
  if (args.home !== undefined) words.push("--home", home);
  if (args.session !== undefined) words.push("--session", args.session);
  if (args.isolated) words.push("--isolated");
  if (args.tools !== undefined) words.push("--tools", args.tools);
  if (args.instructions === false) words.push("--no-instructions");
  if (args["large-results"] !== undefined) words.push("--large-results", args["large-results"]);
  if (args.policy !== undefined) words.push("--policy", args.policy);
  for (const flag of ["block-private-network", "block-loopback", "require-containment", "trust-remote-egress"] as const) if (args[flag]) words.push(`--${flag}`);
  for (const h of args["allow-host"] ?? []) words.push("--allow-host", String(h));
  for (const h of args["block-host"] ?? []) words.push("--block-host", String(h));
  // Endpoint URLs hold no credentials (those are refused): the host may print them.
  for (const e of args["browser-endpoint"] ?? []) words.push("--browser-endpoint", String(e));
  return words;
}

export function mcpCommand(ctx: CliInvocation) {
  return {
    command: "mcp",
    describe: "Serve the profile's browser to an agent host over MCP (stdio, or --http on loopback)",
    builder: (y: Argv<GlobalArgs>) => applyOptions(y, MCP_OPTIONS)
      .conflicts("session", "isolated")
      .example("$0 mcp", "stdio: what an agent host starts (each connection gets its own session)")
      .example("$0 mcp --print-config", "The JSON block for the host's MCP configuration")
      .example("$0 --profile work mcp --isolated --tools all", "Every tool; each connection has its own cookies")
      .example("$0 mcp --http 127.0.0.1:8931", "Streamable HTTP at http://127.0.0.1:8931/mcp with a bearer token"),
    handler: (args: McpArgs) => ctx.run(async () => {
      const config = ctx.config({ ...args, session: undefined });
      const { home, profile } = config.settings;
      const session = args.session === undefined ? undefined : validateName(args.session, "session");
      if (args["allow-remote"] && args.http === undefined) throw new BwError("INVALID_ARGUMENT", "--allow-remote goes with --http");
      selectTools(args.tools ?? "core"); // a bad --tools fails before anything starts
      const mcp = resolveMcpSettings({ flags: { instructions: args.instructions, "large-results": args["large-results"] }, env: ctx.env });
      if (args["print-config"]) {
        const command = { command: process.execPath, args: [path.resolve(process.argv[1] ?? "betterwright"), ...serverArgs(args, profile, home)] };
        printJson(args.http === undefined ? { mcpServers: { betterwright: command } } : {
          mcpServers: { betterwright: { type: "http", url: `http://${args.http}/mcp`, headers: { Authorization: `Bearer <the token in ${tokenPath(home)}, or BETTERWRIGHT_TOKEN>` } } },
        });
        return 0;
      }
      const log = (line: string) => void process.stderr.write(`${line}\n`);
      // Started by hand, it would otherwise wait in silence for JSON-RPC on stdin.
      if (args.http === undefined && process.stdin.isTTY === true) log(STDIO_HINT);
      const bw = ctx.client(config);
      try {
        const served = await startMcp({
          bw,
          home,
          profile,
          timeoutMs: config.settings.timeoutMs,
          maxImageBytes: config.settings.artifacts.screenshotCapBytes,
          connection: { ...(session === undefined ? {} : { session }), isolated: args.isolated === true },
          tools: args.tools ?? "core",
          instructions: mcp.instructions,
          largeResults: mcp.largeResults,
          ...(args.http === undefined ? {} : { http: args.http }),
          allowRemote: args["allow-remote"] === true,
          ...(ctx.env.BETTERWRIGHT_TOKEN === undefined ? {} : { tokenFromEnv: ctx.env.BETTERWRIGHT_TOKEN }),
          log,
        });
        const stop = () => void served.stop();
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
        await served.done;
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        return 0;
      } finally {
        await bw.close();
        if (args.http === undefined) process.stdin.destroy();
      }
    }, false),
  };
}
