// MCP clients for the e2e tests, from the official SDK: one over stdio that
// spawns `node dist/bin/betterwright.js mcp …` as an agent host would, one
// over Streamable HTTP, and the text and error code of a tool result.
import { spawn, type ChildProcess } from "node:child_process";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CLI, cleanEnv, homeReady } from "./cli.js";

export interface StdioMcp {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  close(): Promise<void>;
}

export async function startStdioMcp(home: string, args: string[] = [], name = "e2e client"): Promise<StdioMcp> {
  await homeReady(home);
  const env = Object.fromEntries(Object.entries(cleanEnv(home)).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", ...args], env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, close: () => client.close() };
}

export interface HttpMcpServer {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  stop(): Promise<void>;
}

/** Starts `betterwright mcp --http …` and waits for the address it serves. */
export async function startHttpMcp(home: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<HttpMcpServer> {
  await homeReady(home);
  const child = spawn(process.execPath, [CLI, "mcp", ...args], { env: cleanEnv(home, env), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mcp --http never said where it listens; stderr: ${stderr}`)), 30_000);
    child.stderr!.on("data", (d) => {
      stderr += d;
      const match = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`mcp --http exited ${code}: ${stderr}`));
    });
  });
  return {
    child,
    url,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

export async function connectHttpMcp(url: string, token: string, name = "e2e http client"): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

type ToolResult = Awaited<ReturnType<Client["callTool"]>>;

/** The text blocks of a tool result, joined. */
export function textOf(result: ToolResult): string {
  return (result.content as { type: string; text?: string }[]).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

/** The stable error code of a failed tool result (undefined when it succeeded). */
export function errorCodeOf(result: ToolResult): string | undefined {
  if (!result.isError) return undefined;
  return (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;
}

/** The ref of the snapshot line that mentions `needle` (`- button "Go" [e3]` → e3). */
export function refOf(snapshotText: string, needle: string): string {
  const line = snapshotText.split("\n").find((l) => l.includes(needle));
  const ref = line ? /\[(?:ref=)?((?:f\d+)?e\d+)\]/.exec(line)?.[1] : undefined;
  if (!ref) throw new Error(`no ref for ${needle} in:\n${snapshotText}`);
  return ref;
}

/** Tool calls as an agent makes them, tallied as a task's cost: calls, and bytes of arguments sent and result text read. */
export interface CountedCalls {
  call(name: string, args: Record<string, unknown>): Promise<string>;
  readonly calls: number;
  readonly bytes: number;
  /** Every answer's text, in order. */
  readonly answers: readonly string[];
}

/** A failed call throws with the tool's words, as it would stop an agent's task. */
export function countedCalls(client: Client): CountedCalls {
  const answers: string[] = [];
  let calls = 0;
  let bytes = 0;
  return {
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      const text = textOf(result);
      if (result.isError) throw new Error(`${name}: ${text}`);
      calls += 1;
      bytes += Buffer.byteLength(JSON.stringify(args)) + Buffer.byteLength(text);
      answers.push(text);
      return text;
    },
    get calls() { return calls; },
    get bytes() { return bytes; },
    answers,
  };
}
