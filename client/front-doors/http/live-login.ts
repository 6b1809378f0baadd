// Who may see the live view: a person who typed the token into its login
// form gets a cookie holding a random key of this serve process (never the
// token), HttpOnly and SameSite=Strict, valid LOGIN_TTL_MS; API clients may
// send the bearer token instead. Keys live in memory: a restart logs people out.
import { randomBytes } from "node:crypto";
import type { Context } from "hono";
import type { HonoKit } from "./hono-kit.js";
import { bearerOf, sameToken } from "./token.js";

export const LIVE_COOKIE = "bw_live";
export const LOGIN_TTL_MS = 12 * 60 * 60 * 1000;
const MAX_LOGINS = 64;

export class LiveLogins {
  /** key → expiry (ms), oldest first. */
  private readonly keys = new Map<string, number>();

  constructor(private readonly token: string, private readonly cookies: HonoKit["cookies"], private readonly now: () => number = Date.now) {}

  /** A typed token: a fresh key in a cookie, or false. */
  logIn(c: Context, typed: string): boolean {
    if (!sameToken(typed, this.token)) return false;
    const key = randomBytes(32).toString("base64url");
    this.keys.set(key, this.now() + LOGIN_TTL_MS);
    while (this.keys.size > MAX_LOGINS) this.keys.delete(this.keys.keys().next().value!);
    this.cookies.setCookie(c, LIVE_COOKIE, key, { httpOnly: true, sameSite: "Strict", path: "/", maxAge: LOGIN_TTL_MS / 1000 });
    return true;
  }

  logOut(c: Context): void {
    const key = this.cookies.getCookie(c, LIVE_COOKIE);
    if (key !== undefined) this.keys.delete(key);
    this.cookies.deleteCookie(c, LIVE_COOKIE, { path: "/" });
  }

  /** A live-view request: a valid cookie, or the bearer token. */
  allowed(c: Context): boolean {
    const bearer = bearerOf(c.req.header("authorization"));
    if (bearer !== undefined) return sameToken(bearer, this.token);
    const key = this.cookies.getCookie(c, LIVE_COOKIE);
    if (key === undefined) return false;
    const expiry = this.keys.get(key);
    if (expiry === undefined) return false;
    if (expiry <= this.now()) {
      this.keys.delete(key);
      return false;
    }
    return true;
  }
}
