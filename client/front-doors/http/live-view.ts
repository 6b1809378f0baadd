// The live view for people (`GET /`): the profile's sessions with their URL,
// latest screenshot and the tail of their transcript, refreshing while open.
// Only this serve's own open sessions get fresh screenshots (at most one a
// second each, taken while someone looks); other sessions show the newest
// screenshot in the artifact store, so a person watching never adds a run to
// an agent's lane. Screenshots the view took are left out of the tail it shows.
import type { Context, Hono } from "hono";
import type { BetterWright } from "../../index.js";
import { BwError } from "../../../shared/protocol/errors.js";
import { validateName } from "../../../shared/names.js";
import { layoutFor, transcriptPath } from "../../../shared/paths.js";
import { escapeControls } from "../../../shared/safe-text.js";
import { readTranscript } from "../../../shared/transcript-format.js";
import { isPng, readInside } from "../common/artifact-files.js";
import { HttpRefusal } from "./http-errors.js";
import { inputOp, parseInput } from "./input.js";
import { jsonBody } from "./api-routes.js";
import { viewOf } from "./records.js";
import { sessionId } from "./uuid.js";
import type { LiveLogins } from "./live-login.js";
import { LIVE_SCRIPT, liveSecurityHeaders, loginPage, viewPage } from "./live-page.js";
import type { UuidSessions } from "./sessions.js";

export const FRESH_SCREENSHOT_MS = 1_000;
const TAIL_ENTRIES = 8;
const MAX_TAIL_TEXT = 240;
const MAX_OWN_RUNS = 512;
const MAX_STORED_SCREENSHOT_BYTES = 10 * 1024 * 1024;

export interface LiveDeps {
  bw: BetterWright;
  sessions: UuidSessions;
  logins: LiveLogins;
  home: string;
  profile: string;
  artifactDir(session: string): string;
  /** The policy's posture for the header (`public-web`, `default`, `custom`). */
  policy(): string;
}

interface Shot {
  png: Buffer;
  at: number;
}

const clip = (text: string) => (text.length > MAX_TAIL_TEXT ? `${text.slice(0, MAX_TAIL_TEXT)}…` : text);

export class LiveView {
  private readonly shots = new Map<string, Shot>();
  private readonly taking = new Map<string, Promise<Shot>>();
  /** runIds of the screenshots the view took itself. */
  private readonly ownRuns = new Set<string>();

  constructor(private readonly deps: LiveDeps, private readonly now: () => number = Date.now) {}

  /** A screenshot of a session taken by anyone (the API, the view): the latest one shown. */
  remember(session: string, png: Buffer): void {
    this.shots.set(session, { png, at: this.now() });
  }

  private async freshShot(id: string): Promise<Shot> {
    const last = this.shots.get(id);
    if (last && this.now() - last.at < FRESH_SCREENSHOT_MS) return last;
    const pending = this.taking.get(id);
    if (pending) return pending;
    const taking = (async () => {
      const { png, runId } = await this.deps.sessions.screenshot(id);
      this.ownRuns.add(runId);
      while (this.ownRuns.size > MAX_OWN_RUNS) this.ownRuns.delete(this.ownRuns.values().next().value!);
      this.remember(id, png);
      return this.shots.get(id)!;
    })().finally(() => this.taking.delete(id));
    this.taking.set(id, taking);
    return taking;
  }

  /** The newest screenshot the artifact store holds for a session. */
  private async storedShot(session: string): Promise<Buffer | undefined> {
    const listing = await this.deps.bw.artifacts({ session });
    const newest = listing.artifacts.filter((a) => a.kind === "screenshot" && a.path.endsWith(".png")).sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
    if (!newest) return undefined;
    try {
      const read = readInside(newest.path, this.deps.artifactDir(session), MAX_STORED_SCREENSHOT_BYTES);
      return "bytes" in read && isPng(read.bytes) ? read.bytes : undefined;
    } catch {
      return undefined;
    }
  }

  async screenshot(session: string, fresh: boolean): Promise<Buffer | undefined> {
    const open = this.deps.sessions.activeIds().includes(session);
    if (open && fresh) return (await this.freshShot(session)).png;
    return this.shots.get(session)?.png ?? (await this.storedShot(session));
  }

  /** Everything the page shows, as data (the page puts it in with textContent only; controls that reorder or hide text come escaped). */
  async snapshot(): Promise<unknown> {
    const open = new Set(this.deps.sessions.activeIds());
    const layout = layoutFor(this.deps.home, this.deps.profile);
    const sessions = (await this.deps.bw.sessions()).map((s) => {
      let tail: ReturnType<typeof readTranscript> = [];
      try {
        tail = readTranscript(transcriptPath(layout, s.session)).filter((e) => !this.ownRuns.has(e.runId)).slice(-TAIL_ENTRIES);
      } catch {
        // an unreadable transcript shows as empty
      }
      const last = tail[tail.length - 1];
      const record = open.has(s.session) ? this.deps.sessions.record(s.session) : undefined;
      return {
        name: s.session,
        served: record !== undefined,
        handoff: record?.handoff === true,
        url: escapeControls(record?.url ?? last?.pages[0] ?? ""),
        title: escapeControls(record?.title ?? ""),
        isolated: s.isolated,
        idleMs: s.idleMs,
        inFlight: s.inFlight,
        // What ran (an operation with its arguments), on which page, and how it ended: `#34 read {} · http://… · ok`.
        transcript: tail.map((e) => ({ seq: e.seq, at: e.at, what: escapeControls(clip(e.snippet), { keepLines: true }), url: escapeControls(clip(e.pages[0] ?? "")), ok: e.ok, error: e.error?.code ?? null })),
      };
    });
    return { profile: this.deps.profile, policy: this.deps.policy(), sessions };
  }

  routes(app: Hono): void {
    const guard = (c: Context) => {
      if (!this.deps.logins.allowed(c)) throw new BwError("UNAUTHORIZED", "log in to the live view first");
    };
    app.get("/", (c) => {
      liveSecurityHeaders(c);
      return c.html(this.deps.logins.allowed(c) ? viewPage() : loginPage(false));
    });
    app.get("/live.js", (c) => {
      liveSecurityHeaders(c);
      return c.body(LIVE_SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8" });
    });
    app.post("/login", async (c) => {
      liveSecurityHeaders(c);
      const form = await c.req.parseBody();
      const typed = typeof form.token === "string" ? form.token : "";
      if (!this.deps.logins.logIn(c, typed)) return c.html(loginPage(true), 401);
      return c.redirect("/", 303);
    });
    app.post("/logout", (c) => {
      this.deps.logins.logOut(c);
      return c.redirect("/", 303);
    });
    app.get("/live/sessions", async (c) => {
      guard(c);
      c.header("cache-control", "no-store");
      return c.json(await this.snapshot());
    });
    // Hand-off: a person drives a session its opener allowed, with the API's inputs; each is an operation in its transcript.
    app.post("/live/sessions/:name/input", async (c) => {
      guard(c);
      const origin = c.req.header("origin");
      if (origin !== undefined && origin !== `${new URL(c.req.url).protocol}//${c.req.header("host")}`) throw new HttpRefusal(403, "UNAUTHORIZED", "the request comes from another origin");
      if (!/^application\/json\s*(;|$)/i.test(c.req.header("content-type") ?? "")) throw new HttpRefusal(415, "INVALID_ARGUMENT", "request bodies must be JSON, sent with Content-Type: application/json");
      const id = sessionId(c.req.param("name"), "session");
      const record = this.deps.sessions.record(id);
      if (record.handoff !== true) throw new HttpRefusal(403, "UNAUTHORIZED", `session ${id} was not opened with handoff: true`);
      const op = inputOp(parseInput(await jsonBody(c)));
      await this.deps.sessions.runIn(id, { ...op, downloads: op.name === "click" || op.name === "press" });
      this.shots.delete(id);
      return c.json(viewOf(record));
    });
    app.get("/live/sessions/:name/screenshot", async (c) => {
      guard(c);
      const name = validateName(c.req.param("name"), "session");
      const png = await this.screenshot(name, c.req.query("fresh") === "1");
      if (!png) throw new BwError("NOT_FOUND", `no screenshot of session ${name} yet`);
      return c.body(new Uint8Array(png), 200, { "content-type": "image/png", "cache-control": "no-store" });
    });
  }
}
