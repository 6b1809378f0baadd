// The HTTP API's bearer token: BETTERWRIGHT_TOKEN (read by the config
// module), else `serve/token` in the home, made at first start (random,
// 0600, in a 0700 folder, never through a link). Callers print the file's
// path, never the token. Comparison is in constant time over digests, so
// neither the content nor the length of a wrong token shows in timing.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { checkServeToken } from "../../shared/config.js";
import { ensurePrivateDir, readPrivateFile, writeFileAtomic } from "../../shared/secure-fs.js";

export function serveDir(home: string): string {
  return path.join(home, "serve");
}

export function tokenPath(home: string): string {
  return path.join(serveDir(home), "token");
}

/** The token, and where it came from (`environment BETTERWRIGHT_TOKEN` or the file's path). */
export function loadToken(fromEnv: string | undefined, home: string): { token: string; source: string } {
  if (fromEnv !== undefined) return { token: fromEnv, source: "environment BETTERWRIGHT_TOKEN" };
  const file = tokenPath(home);
  if (!existsSync(file)) {
    ensurePrivateDir(home);
    ensurePrivateDir(path.dirname(file), home);
    writeFileAtomic(file, `${randomBytes(32).toString("base64url")}\n`);
  }
  return { token: checkServeToken(readPrivateFile(file), file), source: file };
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

export function sameToken(given: string, token: string): boolean {
  return timingSafeEqual(digest(given), digest(token));
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  return match?.[1];
}
