// The MCP front door: a tool call's round trip (`read` of a loaded page)
// through `betterwright mcp` over stdio, driven by the SDK's client, against
// the same operation through the library (bw.op), both on one warm daemon;
// and what tools/list costs, in time and in characters, for core and all.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { BetterWright } from "../../client/index.js";
import type { BenchContext } from "../context.js";
import { compare, timeIt, type Row } from "../stats.js";

async function connect(ctx: BenchContext, env: NodeJS.ProcessEnv, args: string[]): Promise<Client> {
  const stringEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [ctx.cli, "mcp", ...args], env: stringEnv, stderr: "ignore" }));
  return client;
}

export async function mcpCall(ctx: BenchContext): Promise<Row[]> {
  const runs = ctx.quick ? 50 : 200;
  const { home, env } = ctx.home("mcp");
  const bw = new BetterWright({ home, env });
  const core = await connect(ctx, env, []);
  const all = await connect(ctx, env, ["--tools", "all"]);
  try {
    await bw.op("navigate", { url: ctx.url }, { session: "lib" });
    const viaLibrary = await timeIt(() => bw.op("read", {}, { session: "lib" }), runs, 5);
    await core.callTool({ name: "navigate", arguments: { url: ctx.url } });
    const viaMcp = await timeIt(() => core.callTool({ name: "read", arguments: {} }), runs, 5);
    const coreChars = JSON.stringify(await core.listTools()).length;
    const allChars = JSON.stringify(await all.listTools()).length;
    const listCore = await timeIt(() => core.listTools(), runs, 2);
    const listAll = await timeIt(() => all.listTools(), runs, 2);
    return [
      { name: "bw.op('read')", sample: viaLibrary },
      compare("MCP stdio tools/call read", viaMcp, "bw.op('read')", viaLibrary, "≤ 2×"),
      { name: `tools/list core: ${coreChars} characters`, sample: listCore, note: `${coreChars} characters` },
      { name: `tools/list all: ${allChars} characters`, sample: listAll, note: `${allChars} characters` },
    ];
  } finally {
    await core.close();
    await all.close();
    await bw.close();
  }
}
