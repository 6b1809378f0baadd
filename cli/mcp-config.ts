// The settings of `betterwright mcp` beyond the profile's: whether the server
// sends its instructions, and how a result too large for one reply comes
// back. Flag over environment over default; the environment is handed in, as
// to the one config module.
import { asBool, fail } from "../shared/config-values.js";

export interface McpSettings {
  /** Send the server's `instructions` string in the handshake (the host may put it in the model's prompt). */
  instructions: boolean;
  /** pages: read on with the `more` tool; files: the preview and the file's path on this machine. */
  largeResults: "pages" | "files";
}

export const MCP_SOURCES = {
  instructions: { flag: "instructions", env: "BETTERWRIGHT_MCP_INSTRUCTIONS" },
  largeResults: { flag: "large-results", env: "BETTERWRIGHT_MCP_LARGE_RESULTS" },
} as const;

export function resolveMcpSettings(options: { flags?: Partial<Record<string, unknown>>; env?: NodeJS.ProcessEnv } = {}): McpSettings {
  const flags = options.flags ?? {};
  const env = options.env ?? {};
  const raw = (key: keyof typeof MCP_SOURCES): [unknown, string] | undefined => {
    const { flag, env: name } = MCP_SOURCES[key];
    if (flags[flag] !== undefined) return [flags[flag], `flag --${flag}`];
    return env[name] ? [env[name], `environment ${name}`] : undefined;
  };
  const out: McpSettings = { instructions: true, largeResults: "pages" };
  const instructions = raw("instructions");
  if (instructions) out.instructions = asBool(instructions[0], instructions[1], "instructions");
  const large = raw("largeResults");
  if (large) {
    if (large[0] !== "pages" && large[0] !== "files") return fail(large[1], "large-results", `expected pages or files, got ${JSON.stringify(large[0])}`);
    out.largeResults = large[0];
  }
  return out;
}
