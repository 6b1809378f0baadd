// The HTTP framework (hono, and its Node adapter), loaded when serve starts:
// every other command, and the CLI's warm path, never pays for it. The rest of
// client/front-doors/http uses its types only and gets the functions from here.
import type { Hono } from "hono";
import type { bodyLimit } from "hono/body-limit";
import type { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { serve } from "@hono/node-server";

export interface HonoKit {
  Hono: typeof Hono;
  bodyLimit: typeof bodyLimit;
  cookies: { getCookie: typeof getCookie; setCookie: typeof setCookie; deleteCookie: typeof deleteCookie };
  listen: typeof serve;
}

export async function loadHono(): Promise<HonoKit> {
  const [hono, limit, cookie, node] = await Promise.all([import("hono"), import("hono/body-limit"), import("hono/cookie"), import("@hono/node-server")]);
  return {
    Hono: hono.Hono,
    bodyLimit: limit.bodyLimit,
    cookies: { getCookie: cookie.getCookie, setCookie: cookie.setCookie, deleteCookie: cookie.deleteCookie },
    listen: node.serve,
  };
}
