// The bearer token of a front door that listens on HTTP (`serve`, `mcp
// --http`): given in the environment, or a file in the home made at first
// start (random, 0600, in a 0700 folder, never through a link) whose path
// callers print, never its content. Compared in constant time over digests,
// so neither the content nor the length of a wrong token shows in timing.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { ensurePrivateDir, readPrivateFile, writeFileAtomic } from "../../../shared/secure-fs.js";

/** Checks a token and returns it trimmed; throws INVALID_ARGUMENT naming `source` otherwise. */
export type TokenCheck = (token: string, source: string) => string;

/** The token in `file` under `home`, made first if there is none, and checked. */
export function readOrMakeToken(home: string, file: string, check: TokenCheck): { token: string; source: string } {
  if (!existsSync(file)) {
    ensurePrivateDir(home);
    ensurePrivateDir(path.dirname(file), home);
    writeFileAtomic(file, `${randomBytes(32).toString("base64url")}\n`);
  }
  return { token: check(readPrivateFile(file), file), source: file };
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
