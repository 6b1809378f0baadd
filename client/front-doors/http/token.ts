// The HTTP API's bearer token: BETTERWRIGHT_TOKEN (read by the config
// module), else `serve/token` in the home, made at first start (see
// client/bearer-token.ts). Callers print the file's path, never the token.
import path from "node:path";
import { checkServeToken } from "./serve-config.js";
import { readOrMakeToken } from "../common/bearer-token.js";

export { bearerOf, sameToken } from "../common/bearer-token.js";

export function serveDir(home: string): string {
  return path.join(home, "serve");
}

export function tokenPath(home: string): string {
  return path.join(serveDir(home), "token");
}

/** The token, and where it came from (`environment BETTERWRIGHT_TOKEN` or the file's path). */
export function loadToken(fromEnv: string | undefined, home: string): { token: string; source: string } {
  if (fromEnv !== undefined) return { token: fromEnv, source: "environment BETTERWRIGHT_TOKEN" };
  return readOrMakeToken(home, tokenPath(home), checkServeToken);
}
