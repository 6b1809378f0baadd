// The reference API's routes, each a session call or a typed operation of the
// library underneath (no route takes code, selectors or scripts):
//   GET  /sessions                          Session[]
//   POST /sessions {id, url, handoff?}      Session, 201 (reopens a saved session)
//   POST /sessions/:id/navigate {url}       Session
//   POST /sessions/:id/close                Session (state saved, PDFs kept)
//   GET  /sessions/:id/screenshot           1280×800 PNG
//   GET  /sessions/:id/read                 { url, title, text, truncated }
//   POST /sessions/:id/input {type, …}      Session
//   GET  /sessions/:id/downloads            { downloads, failures }
//   GET  /sessions/:id/downloads/:downloadId  the PDF, as an attachment
import type { Context, Hono } from "hono";
import type { BetterWright } from "../../index.js";
import { BwError } from "../../../shared/protocol/errors.js";
import { isErrorPageUrl } from "../../../shared/protocol/operations/results.js";
import { inputOp, parseInput } from "./input.js";
import type { PdfIntake } from "./pdf-intake.js";
import { viewOf } from "./records.js";
import type { UuidSessions } from "./sessions.js";
import { sessionId } from "./uuid.js";

/** The reference API's cap on read text. */
export const MAX_READ_TEXT = 100_000;
const MAX_URL = 8192;

export interface ApiDeps {
  bw: BetterWright;
  sessions: UuidSessions;
  intake: PdfIntake;
  /** Told of every screenshot taken, for the live view. */
  onScreenshot(session: string, png: Buffer): void;
}

/** A JSON body that is an object with exactly these string fields and, when named, these boolean ones (the others refused). */
async function fields<K extends string>(c: Context, names: readonly K[], flags: readonly string[] = []): Promise<Record<K, string> & Record<string, unknown>> {
  const body = await jsonBody(c);
  const takes = [...names, ...flags].join(", ");
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new BwError("INVALID_ARGUMENT", `body: expected a JSON object with ${takes}`);
  const record = body as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (![...names, ...flags].includes(key)) throw new BwError("INVALID_ARGUMENT", `body: unknown field ${JSON.stringify(key.slice(0, 40))} (it takes ${takes})`);
    if (flags.includes(key) && typeof record[key] !== "boolean") throw new BwError("INVALID_ARGUMENT", `body.${key}: expected true or false`);
  }
  for (const name of names) {
    const value = record[name];
    if (typeof value !== "string" || value.length === 0 || value.length > MAX_URL) throw new BwError("INVALID_ARGUMENT", `body.${name}: expected a non-empty string of at most ${MAX_URL} characters`);
  }
  return record as Record<K, string>;
}

/** The reference API goes to http(s) destinations only: another scheme (data:, file:, javascript:, about:) is refused like a host the policy refuses. */
function webUrl(url: string, field: string): string {
  const scheme = URL.canParse(url) ? new URL(url).protocol : undefined;
  if (scheme !== "http:" && scheme !== "https:") {
    throw new BwError("BLOCKED_URL", `${field}: serve goes to absolute http and https URLs only, not ${scheme === undefined ? "this" : `a ${scheme.slice(0, 20)} URL`}`);
  }
  return url;
}

export async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BwError("INVALID_ARGUMENT", "body: not valid JSON");
  }
}

export function apiRoutes(app: Hono, deps: ApiDeps): void {
  const { sessions } = deps;
  const idOf = (c: Context) => sessionId(c.req.param("id"), "id");

  app.get("/sessions", (c) => c.json(sessions.list()));

  app.post("/sessions", async (c) => {
    const body = await fields(c, ["id", "url"] as const, ["handoff"]);
    return c.json(await sessions.openSession(sessionId(body.id, "body.id"), webUrl(body.url, "body.url"), { handoff: body.handoff === true }), 201);
  });

  app.post("/sessions/:id/navigate", async (c) => {
    const id = idOf(c);
    const { url } = await fields(c, ["url"] as const);
    await sessions.runIn(id, { name: "navigate", args: { url: webUrl(url, "body.url") }, navigation: true, downloads: true });
    return c.json(viewOf(sessions.record(id)));
  });

  app.post("/sessions/:id/close", async (c) => {
    const id = idOf(c);
    const body = await jsonBody(c);
    if (body !== undefined && (body === null || typeof body !== "object" || Array.isArray(body) || Object.keys(body).length > 0)) {
      throw new BwError("INVALID_ARGUMENT", "body: close takes no fields");
    }
    return c.json(await sessions.closeSession(id));
  });

  app.get("/sessions/:id/screenshot", async (c) => {
    const id = idOf(c);
    const { png } = await sessions.screenshot(id);
    deps.onScreenshot(id, png);
    return c.body(new Uint8Array(png), 200, { "content-type": "image/png", "cache-control": "no-store" });
  });

  app.get("/sessions/:id/read", async (c) => {
    const id = idOf(c);
    const envelope = await sessions.runIn(id, { name: "read", args: { maxChars: MAX_READ_TEXT } });
    if (!envelope.ok || envelope.result === undefined) throw new BwError("INTERNAL_ERROR", "the read operation returned nothing");
    const { url, title, text, truncated } = envelope.result;
    // A failed load (refused, reset, an empty answer) leaves Chromium's error page: its text is not the site's.
    if (isErrorPageUrl(url)) throw new BwError("NAVIGATION_FAILED", "the page did not load: the session shows Chromium's error page (its last navigation or form submission failed); navigate again");
    // The destination is checked after the read too: text of a page the policy refuses is not handed out.
    if (/^(https?|wss?):/i.test(url)) {
      const decision = await deps.bw.checkUrl(url);
      if (!decision.allowed) throw new BwError("BLOCKED_URL", `the page is now at ${url}: ${decision.reason}`);
    }
    return c.json({ url, title, text, truncated });
  });

  app.post("/sessions/:id/input", async (c) => {
    const id = idOf(c);
    const op = inputOp(parseInput(await jsonBody(c)));
    // A click or a key (Enter on a link) can start a download; typed text and scrolling cannot, and skip the wait for one.
    await sessions.runIn(id, { ...op, downloads: op.name === "click" || op.name === "press" });
    return c.json(viewOf(sessions.record(id)));
  });

  app.get("/sessions/:id/downloads", (c) => {
    const record = sessions.record(idOf(c));
    return c.json({
      downloads: record.downloads.map(({ id, name, size, mimeType }) => ({ id, name, size, mimeType })),
      failures: record.failures.map(({ id, name, code, message, createdAt }) => ({ id, name, code, message, createdAt })),
    });
  });

  app.get("/sessions/:id/downloads/:downloadId", (c) => {
    const record = sessions.record(idOf(c));
    const { pdf, bytes } = deps.intake.serve(record, c.req.param("downloadId"));
    const ascii = pdf.name.replace(/[^\x20-\x7e]/g, "_");
    return c.body(new Uint8Array(bytes), 200, {
      "content-type": "application/pdf",
      "content-length": String(bytes.length),
      "content-disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(pdf.name)}`,
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
    });
  });
}
