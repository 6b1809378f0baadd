// The HTTP front door's request pipeline: Host check (loopback listeners),
// 64 KiB body cap, bearer token (constant time) on every API route, JSON
// content type on every API write that carries a body, then the routes; any
// failure is `{ error: { code, message } }` with the status of http-errors.ts.
// GET /health needs no token; the live view has its own login (live-login.ts).
import type { Context, Hono } from "hono";
import { BwError } from "../../../shared/protocol/errors.js";
import type { HonoKit } from "./hono-kit.js";
import { apiRoutes, type ApiDeps } from "./api-routes.js";
import { errorResponse, HttpRefusal } from "./http-errors.js";
import type { LiveView } from "./live-view.js";
import { checkBearer, checkHeaders } from "../common/listener.js";

export const MAX_BODY_BYTES = 64 * 1024;

export interface AppDeps extends ApiDeps {
  token: string;
  live: LiveView;
  /** The Host headers answered (loopback listeners); undefined: any. */
  hosts(): ReadonlySet<string> | undefined;
  /** GET /health's body. */
  health(): Record<string, unknown>;
}

/** Routes anyone may call: health, and the live view's own (which check their login themselves). */
function isPublic(method: string, path: string): boolean {
  if (method === "GET") return path === "/health" || path === "/" || path === "/live.js" || path.startsWith("/live/");
  return method === "POST" && (path === "/login" || path === "/logout" || path.startsWith("/live/"));
}

function refuse(c: Context, error: BwError) {
  const { status, body } = errorResponse(error);
  return c.json(body, status);
}

export function createApp(kit: HonoKit, deps: AppDeps): Hono {
  const app = new kit.Hono();
  app.use(async (c, next) => {
    const refusal = checkHeaders({ host: c.req.header("host"), origin: c.req.header("origin") }, deps.hosts(), { origin: false });
    if (refusal) return refuse(c, new HttpRefusal(403, "UNAUTHORIZED", refusal.reason));
    await next();
  });
  app.use(kit.bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => refuse(c, new BwError("LIMIT_EXCEEDED", `request bodies are limited to ${MAX_BODY_BYTES} bytes`)),
  }));
  app.use(async (c, next) => {
    const { method, path } = c.req;
    if (isPublic(method, path)) return next();
    const unauthorized = checkBearer(c.req.header("authorization"), deps.token);
    if (unauthorized) {
      c.header("www-authenticate", "Bearer");
      return refuse(c, new BwError("UNAUTHORIZED", unauthorized.reason));
    }
    if (method !== "GET" && method !== "HEAD" && hasBody(c) && !/^application\/json\s*(;|$)/i.test(c.req.header("content-type") ?? "")) {
      return refuse(c, new HttpRefusal(415, "INVALID_ARGUMENT", "request bodies must be JSON, sent with Content-Type: application/json"));
    }
    return next();
  });
  app.get("/health", (c) => c.json(deps.health()));
  apiRoutes(app, deps);
  deps.live.routes(app);
  app.notFound((c) => refuse(c, new BwError("NOT_FOUND", `no route ${c.req.method} ${c.req.path.slice(0, 200)}`)));
  app.onError((error, c) => {
    const { status, body } = errorResponse(error);
    return c.json(body, status);
  });
  return app;
}

function hasBody(c: Context): boolean {
  const length = c.req.header("content-length");
  return (length !== undefined && length !== "0") || c.req.header("transfer-encoding") !== undefined;
}
