// The bearer token of `betterwright mcp --http`: BETTERWRIGHT_TOKEN when set
// (handed in by the CLI from its environment), else `mcp/token` in the home,
// made at first start (random, 0600, in a 0700 folder, never through a link).
import path from "node:path";
import { BwError } from "../../../shared/protocol/errors.js";
import { readOrMakeToken } from "../common/bearer-token.js";

export const MIN_TOKEN_CHARS = 16;

export function tokenPath(home: string): string {
  return path.join(home, "mcp", "token");
}

function checked(token: string, source: string): string {
  const trimmed = token.trim();
  if (trimmed.length < MIN_TOKEN_CHARS || !/^[\x21-\x7e]+$/.test(trimmed)) {
    throw new BwError("INVALID_ARGUMENT", `${source}: the token must be at least ${MIN_TOKEN_CHARS} printable characters without spaces`);
  }
  return trimmed;
}

/** The token and where it came from. */
export function resolveToken(fromEnv: string | undefined, home: string): { token: string; source: string } {
  if (fromEnv !== undefined && fromEnv !== "") return { token: checked(fromEnv, "BETTERWRIGHT_TOKEN"), source: "BETTERWRIGHT_TOKEN" };
  return readOrMakeToken(home, tokenPath(home), checked);
}
