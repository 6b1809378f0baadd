// The two MCP servers as an agent drives them: each started over stdio by the
// official client, and spoken to through the same few moves (navigate,
// snapshot, find, click, fill, read), each move made with that server's own
// default tools. A move a server's list does not offer falls back to what it
// does offer (find → snapshot, fill_form → one fill per field, read →
// snapshot), so the scripts follow the tool sets as they grow. Every call is
// counted in the agent's tally.
import { createRequire } from "node:module";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { contentBytes, contentText, emptyTally, requestBytes, type ContentBlock, type Tally } from "./mcp-count.js";
import { cursorOf } from "./mcp-refs.js";
import type { ToolSetup } from "./tools.js";

export interface Field {
  ref: string;
  value: string;
  /** What the field is, in words (Playwright MCP asks for it). */
  name: string;
}

export interface McpAgent {
  name: string;
  version: string;
  /** The tools/list result of the server's default set, as JSON bytes. */
  listBytes: number;
  tools: ReadonlySet<string>;
  /** Every call so far: how many, and their bytes. */
  readonly tally: Tally;
  /** Whether the server offers the move with a tool of its own (rather than a fallback). */
  offers(move: "find" | "fillForm" | "read"): boolean;
  navigate(url: string): Promise<string>;
  /** The whole snapshot (or one element's), following a cut answer's cursor until `enough` says stop or nothing is left. */
  snapshot(target?: string, enough?: (text: string) => boolean): Promise<string>;
  /** Snapshot lines that mention `text`; a whole snapshot where the server has no find. */
  find(text: string): Promise<string>;
  click(ref: string, element: string): Promise<string>;
  fill(fields: readonly Field[]): Promise<string>;
  /** The page's text; a whole snapshot where the server has no read. */
  read(): Promise<string>;
  close(): Promise<void>;
}

/** How one server spells each move: a tool and its arguments. */
export interface Dialect {
  navigate: (url: string) => Call;
  snapshot: (target?: string) => Call;
  /** The call that continues a cut snapshot answer, if it was cut. */
  next: (previous: string) => Call | undefined;
  find?: (text: string) => Call;
  click: (ref: string, element: string) => Call;
  fill: (field: Field) => Call;
  fillForm?: (fields: readonly Field[]) => Call;
  read?: () => Call;
}

export type Call = [tool: string, args: Record<string, unknown>];

/** A connected server as the agent sees it: its tools/list result and tools/call. */
export interface ToolServer {
  list: { tools: readonly { name: string }[] };
  call(name: string, args: Record<string, unknown>): Promise<{ content?: unknown; isError?: boolean }>;
  close(): Promise<void>;
}

/** The moves over a server, each call counted in the tally; a failed call throws with the server's words. */
export function agentOver(name: string, version: string, server: ToolServer, dialectFor: (tools: ReadonlySet<string>) => Dialect): McpAgent {
  const tools = new Set(server.list.tools.map((t) => t.name));
  const dialect = dialectFor(tools);
  const tally = emptyTally();
  const call = async ([tool, args]: Call): Promise<string> => {
    const result = await server.call(tool, args);
    const content = (Array.isArray(result.content) ? result.content : []) as ContentBlock[];
    tally.calls += 1;
    tally.requestBytes += requestBytes(tool, args);
    tally.responseBytes += contentBytes(content);
    const text = contentText(content);
    if (result.isError) throw new Error(`${name} ${tool}: ${text.replace(/\s+/g, " ").slice(0, 200)}`);
    return text;
  };
  const snapshot = async (target?: string, enough: (text: string) => boolean = () => false): Promise<string> => {
    let part = await call(dialect.snapshot(target));
    const parts = [part];
    for (let next = dialect.next(part); next && !enough(parts.join("\n")); next = dialect.next(part)) {
      part = await call(next);
      parts.push(part);
    }
    return parts.join("\n");
  };
  return {
    name,
    version,
    listBytes: Buffer.byteLength(JSON.stringify(server.list), "utf8"),
    tools,
    tally,
    offers: (move) => dialect[move] !== undefined,
    navigate: (url) => call(dialect.navigate(url)),
    snapshot,
    find: (text) => (dialect.find ? call(dialect.find(text)) : snapshot(undefined, (t) => t.includes(text))),
    click: (ref, element) => call(dialect.click(ref, element)),
    async fill(fields) {
      if (dialect.fillForm) return call(dialect.fillForm(fields));
      const answers: string[] = [];
      for (const field of fields) answers.push(await call(dialect.fill(field)));
      return answers.join("\n");
    },
    read: () => (dialect.read ? call(dialect.read()) : snapshot()),
    close: () => server.close(),
  };
}

const stringEnv = (env: NodeJS.ProcessEnv): Record<string, string> => Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));

/** Starts a server over stdio with the official client. */
async function connect(command: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<ToolServer> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: command[0]!, args: command.slice(1), env: stringEnv(env), cwd, stderr: "ignore" }));
  return { list: await client.listTools(), call: (name, args) => client.callTool({ name, arguments: args }), close: () => client.close() };
}

const folder = (dir: string, name: string): string => {
  const f = path.join(dir, name);
  mkdirSync(f, { recursive: true });
  return f;
};

/** betterwright's tools: find and fill_form when served, snapshot parts by their cursor. */
export const betterwrightDialect = (tools: ReadonlySet<string>): Dialect => ({
  navigate: (url) => ["navigate", { url }],
  snapshot: (target) => ["snapshot", target === undefined ? {} : { target }],
  next: (previous) => {
    const cursor = cursorOf(previous);
    return cursor === undefined ? undefined : ["snapshot", { cursor }];
  },
  ...(tools.has("find") ? { find: (text: string): Call => ["find", { query: text }] } : {}),
  click: (ref) => ["click", { target: ref }],
  fill: (field) => ["fill", { target: field.ref, value: field.value }],
  ...(tools.has("fill_form") ? { fillForm: (fields: readonly Field[]): Call => ["fill_form", { fields: fields.map((f) => ({ target: f.ref, value: f.value })) }] } : {}),
  ...(tools.has("read") ? { read: (): Call => ["read", {}] } : {}),
});

/** `betterwright mcp` with its default tools, on a home of its own. */
export async function betterwrightAgent(setup: ToolSetup & { cli: string; version: string }): Promise<McpAgent> {
  const env = { ...setup.baseEnv, BETTERWRIGHT_HOME: betterwrightHome(setup.dir), BETTERWRIGHT_BROWSER: setup.browser };
  const server = await connect([process.execPath, setup.cli, "mcp"], env, folder(setup.dir, "ws"));
  return agentOver("betterwright", setup.version, server, betterwrightDialect);
}

export const betterwrightHome = (dir: string): string => path.join(dir, "home");

/** The playwright-core this checkout depends on: its folder and version. */
export function playwrightCore(): { dir: string; version: string } {
  const file = createRequire(import.meta.url).resolve("playwright-core/package.json");
  return { dir: path.dirname(file), version: (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version };
}

/** Playwright MCP's tools: browser_find and browser_fill_form when served; no read, no cut snapshots. */
export const playwrightMcpDialect = (tools: ReadonlySet<string>): Dialect => ({
  navigate: (url) => ["browser_navigate", { url }],
  snapshot: (target) => ["browser_snapshot", target === undefined ? {} : { target }],
  next: () => undefined,
  ...(tools.has("browser_find") ? { find: (text: string): Call => ["browser_find", { text }] } : {}),
  click: (ref, element) => ["browser_click", { target: ref, element }],
  fill: (field) => ["browser_type", { target: field.ref, element: field.name, text: field.value }],
  ...(tools.has("browser_fill_form")
    ? { fillForm: (fields: readonly Field[]): Call => ["browser_fill_form", { fields: fields.map((f) => ({ target: f.ref, name: f.name, type: "textbox", value: f.value })) }] }
    : {}),
});

/**
 * Playwright's own MCP server (`playwright-core/cli.js mcp`) with its default
 * tools: headless, on the same browser binary, its profile in memory
 * (--isolated), unsandboxed as betterwright runs Chromium.
 */
export async function playwrightMcpAgent(setup: ToolSetup): Promise<McpAgent> {
  const core = playwrightCore();
  const home = folder(setup.dir, "home");
  const env: NodeJS.ProcessEnv = { ...setup.baseEnv, HOME: home, TMPDIR: folder(setup.dir, "tmp"), XDG_CACHE_HOME: path.join(home, ".cache"), NO_UPDATE_NOTIFIER: "1" };
  const command = [process.execPath, path.join(core.dir, "cli.js"), "mcp", "--headless", "--isolated", "--no-sandbox", "--executable-path", setup.browser];
  const server = await connect(command, env, folder(setup.dir, "ws"));
  return agentOver("Playwright MCP", core.version, server, playwrightMcpDialect);
}
