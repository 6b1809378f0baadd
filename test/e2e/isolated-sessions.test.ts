// Isolated sessions through the real CLI, daemon, worker and Chromium: each
// has its own cookies and storage beside the profile's shared ones, its own
// settings as the page sees them, geolocation for its one origin; creating
// one again is a no-op or SESSION_EXISTS; bad flags name themselves; and
// downloads, screenshots, popups, vault fill, transcripts and the guard work
// as in a shared session; after a worker or browser restart it comes back with
// its settings and empty storage, and says so.
import { readFileSync, statSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright, NetworkPolicy } from "../../dist/client/index.js";
import { CANARY_PASSWORD, CANARY_USERNAME } from "../helpers/canary.js";
import { cleanEnv, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { childrenMatching, until, waitForExit, workersOf } from "../helpers/procs.js";

describe("isolated sessions", () => {
  let home: string;
  let server: TestServer;
  /** Cookie header and Host of every request, by path. */
  const seen: { path: string; cookie: string; host: string; userAgent: string; language: string }[] = [];
  let signedIn = 0;

  beforeAll(async () => {
    home = tempHome("bw-isolated-");
    server = await startServer({
      "/set": (req: http.IncomingMessage, res: http.ServerResponse) => {
        const v = new URL(req.url ?? "/", "http://x").searchParams.get("v") ?? "none";
        res.writeHead(200, { "content-type": "text/html", "set-cookie": `sid=${v}; Path=/` }).end(`<title>set ${v}</title>`);
      },
      "/echo": (req: http.IncomingMessage, res: http.ServerResponse) => {
        seen.push({ path: "/echo", cookie: req.headers.cookie ?? "", host: req.headers.host ?? "", userAgent: req.headers["user-agent"] ?? "", language: String(req.headers["accept-language"] ?? "") });
        res.writeHead(200, { "content-type": "text/html" }).end("<title>echo</title>");
      },
      "/files": `<title>files</title><a id=dl href="/download">download</a> <a id=pop href="/echo" target="_blank">popup</a>
        <form method=post action="/login"><input name=user autocomplete=username><input name=pass type=password><button type=submit>go</button></form>`,
      "/download": (_req: http.IncomingMessage, res: http.ServerResponse) => {
        res.writeHead(200, { "content-type": "application/octet-stream", "content-disposition": "attachment; filename=\"iso.txt\"" }).end("isolated");
      },
      "/login": (req: http.IncomingMessage, res: http.ServerResponse) => {
        let body = "";
        req.on("data", (d) => (body += d));
        req.on("end", () => {
          const form = new URLSearchParams(body);
          const ok = form.get("user") === CANARY_USERNAME && form.get("pass") === CANARY_PASSWORD;
          if (ok) signedIn++;
          res.writeHead(200, { "content-type": "text/html" }).end(`<title>${ok ? "welcome" : "denied"}</title>`);
        });
      },
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  const cli = (args: string[]) => runCli(args, { home });
  const exec = (session: string, code: string, extra: string[] = []) => cli(["exec", "--session", session, ...extra, "-c", code]);
  const probe = `await page.goto(${JSON.stringify(`${"SERVER"}/echo`)}); return { cookie: await page.evaluate(() => document.cookie), who: await page.evaluate(() => localStorage.getItem("who")) }`;
  const echo = () => probe.replace("SERVER", server.url);
  const setAs = (who: string) => `await page.goto(${JSON.stringify(`${server.url}/set?v=${who}`)}); await page.evaluate((w) => localStorage.setItem("who", w), ${JSON.stringify(who)}); return page.evaluate(() => document.cookie)`;

  it("gives each isolated session its own cookies and storage, beside the profile's shared ones", async () => {
    expect((await exec("shared1", setAs("shared"))).json).toMatchObject({ ok: true, result: "sid=shared" });
    const one = await exec("iso1", setAs("one"), ["--isolated"]);
    expect(one.code, one.stdout + one.stderr).toBe(0);
    expect(one.json.result).toBe("sid=one");
    const twoFirst = await exec("iso2", echo(), ["--isolated"]);
    expect(twoFirst.json.result).toEqual({ cookie: "", who: null });
    expect((await exec("iso2", setAs("two"))).json.result).toBe("sid=two");

    expect((await exec("iso1", echo())).json.result).toEqual({ cookie: "sid=one", who: "one" });
    expect((await exec("iso2", echo())).json.result).toEqual({ cookie: "sid=two", who: "two" });
    // Another shared session sees the profile's cookie, never an isolated one's.
    expect((await exec("shared2", echo())).json.result).toEqual({ cookie: "sid=shared", who: "shared" });
    expect(seen.filter((s) => s.path === "/echo").map((s) => s.cookie)).toEqual(["", "sid=one", "sid=two", "sid=shared"]);
  });

  it("shows the page the session's viewport, scale, locale, time zone, colour scheme, motion and user agent", async () => {
    const created = await cli(["session", "create", "phone", "--isolated", "--viewport", "390x700", "--device-scale", "2", "--locale", "de-DE",
      "--timezone", "Asia/Tokyo", "--color-scheme", "dark", "--reduced-motion", "--user-agent", "bw-test-agent/1.0", "--json"]);
    expect(created.code, created.stdout + created.stderr).toBe(0);
    expect(created.json).toMatchObject({ ok: true, session: "phone", created: true, isolated: true, settings: { viewport: { width: 390, height: 700 }, locale: "de-DE", timezone: "Asia/Tokyo" } });
    const r = await exec("phone", `await page.goto(${JSON.stringify(`${server.url}/echo`)});
      return page.evaluate(() => ({
        width: innerWidth, height: innerHeight, ratio: devicePixelRatio, language: navigator.language,
        zone: Intl.DateTimeFormat().resolvedOptions().timeZone, offset: new Date(Date.UTC(2024, 0, 1)).getTimezoneOffset(),
        dark: matchMedia("(prefers-color-scheme: dark)").matches, reduced: matchMedia("(prefers-reduced-motion: reduce)").matches,
        agent: navigator.userAgent,
      }))`);
    expect(r.json.result).toEqual({ width: 390, height: 700, ratio: 2, language: "de-DE", zone: "Asia/Tokyo", offset: -540, dark: true, reduced: true, agent: "bw-test-agent/1.0" });
    expect(seen.at(-1)).toMatchObject({ userAgent: "bw-test-agent/1.0", language: expect.stringMatching(/^de-DE/) });
    // A shared session keeps the browser's own settings.
    const shared = await exec("shared1", "return page.evaluate(() => ({ zone: Intl.DateTimeFormat().resolvedOptions().timeZone === 'Asia/Tokyo', dark: matchMedia('(prefers-color-scheme: dark)').matches }))");
    expect(shared.json.result).toEqual({ zone: false, dark: false });
  });

  it("grants geolocation to its one origin and to no other", async () => {
    const created = await cli(["session", "create", "maps", "--isolated", "--geolocation", "52.52,13.405", "--geolocation-origin", server.url, "--json"]);
    expect(created.json.settings.geolocation).toEqual({ latitude: 52.52, longitude: 13.405, origin: server.url });
    const where = (url: string) => `await page.goto(${JSON.stringify(url)});
      return page.evaluate(() => new Promise((resolve) => navigator.geolocation.getCurrentPosition(
        (p) => resolve([p.coords.latitude, p.coords.longitude]), (e) => resolve("error " + e.code), { timeout: 5000 })))`;
    expect((await exec("maps", where(`${server.url}/echo`))).json.result).toEqual([52.52, 13.405]);
    // localhost is another origin for the same server: not granted.
    expect((await exec("maps", where(`http://localhost:${server.port}/echo`))).json.result).toBe("error 1");
    expect((await exec("shared1", where(`${server.url}/echo`))).json.result).toBe("error 1");
  });

  it("makes a session again as a no-op with the same settings, and refuses other settings with SESSION_EXISTS naming them", async () => {
    const again = await cli(["session", "create", "phone", "--isolated", "--viewport", "390x700", "--device-scale", "2", "--locale", "de-de",
      "--timezone", "asia/tokyo", "--color-scheme", "dark", "--reduced-motion", "--user-agent", "bw-test-agent/1.0", "--json"]);
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ ok: true, created: false });

    const other = await cli(["session", "create", "phone", "--isolated", "--viewport", "390x700", "--locale", "en-US", "--json"]);
    expect(other.code).toBe(2);
    expect(other.json.error.code).toBe("SESSION_EXISTS");
    expect(other.json.error.message).toContain("locale: the session has \"de-DE\", this call wants \"en-US\"");
    expect(other.json.error.details.differences).toContain("timezone: the session has \"Asia/Tokyo\", this call wants none");

    const viaExec = await exec("iso1", "return 1", ["--isolated", "--color-scheme", "dark"]);
    expect(viaExec.code).toBe(2);
    expect(viaExec.json).toMatchObject({ ok: false, error: { code: "SESSION_EXISTS" } });
    const sharedAsIsolated = await exec("shared1", "return 1", ["--isolated"]);
    expect(sharedAsIsolated.json.error.message).toContain("the session is shared, this call wants it isolated");
    // Without creation flags an exec simply runs in the session as it is.
    expect((await exec("phone", "return page.evaluate(() => innerWidth)")).json.result).toBe(390);
    expect((await exec("iso1", "return 2", ["--isolated"])).json).toMatchObject({ ok: true, result: 2 });

    const plain = await cli(["session", "create", "plain", "--json"]);
    expect(plain.json).toMatchObject({ ok: true, created: true, isolated: false, settings: {} });
  });

  it("refuses bad settings and a missing state by flag, and leaves no session behind", async () => {
    const cases: [string[], number, string, string][] = [
      [["session", "create", "bad", "--isolated", "--timezone", "Mars/Olympus"], 2, "INVALID_ARGUMENT", "--timezone"],
      [["session", "create", "bad", "--isolated", "--viewport", "12x12"], 2, "INVALID_ARGUMENT", "--viewport"],
      [["session", "create", "bad", "--isolated", "--locale", "en us"], 2, "INVALID_ARGUMENT", "--locale"],
      [["session", "create", "bad", "--viewport", "800x600"], 2, "INVALID_ARGUMENT", "--isolated"],
      [["session", "create", "bad", "--isolated", "--geolocation", "1,2"], 2, "INVALID_ARGUMENT", "--geolocation-origin"],
      [["session", "create", "bad", "--isolated", "--state", "nosuch"], 1, "STATE_NOT_FOUND", "nosuch"],
      [["exec", "--session", "bad", "--isolated", "--state", "nosuch", "-c", "return 1"], 1, "STATE_NOT_FOUND", "nosuch"],
    ];
    for (const [args, exit, code, mention] of cases) {
      const r = await cli([...args, "--json"]);
      expect(r.code, args.join(" ")).toBe(exit);
      expect(r.json.error.code, args.join(" ")).toBe(code);
      expect(r.json.error.message).toContain(mention);
    }
    const listed = await cli(["sessions", "--json"]);
    expect(listed.json.daemons[0].sessions.map((s: { session: string }) => s.session)).not.toContain("bad");
  });

  it("lists isolated sessions with their settings; closing one closes its context", async () => {
    const listed = await cli(["sessions", "--json"]);
    const byName = Object.fromEntries(listed.json.daemons[0].sessions.map((s: { session: string }) => [s.session, s]));
    expect(byName.iso1).toMatchObject({ isolated: true, settings: {} });
    expect(byName.phone).toMatchObject({ isolated: true, settings: { colorScheme: "dark", reducedMotion: true } });
    expect(byName.shared1).toMatchObject({ isolated: false, settings: {} });

    expect((await cli(["close", "--session", "iso1", "--json"])).json).toMatchObject({ closed: true });
    // Made again: a new context, with nothing of the old one's cookies or storage.
    expect((await exec("iso1", echo(), ["--isolated"])).json.result).toEqual({ cookie: "", who: null });
  });

  it("downloads, screenshots, popups, vault fill and the transcript work in an isolated session", async () => {
    const r = await exec("files", `
      await page.goto(${JSON.stringify(`${server.url}/files`)});
      await page.click("#dl");
      const download = await waitForDownload();
      const shot = await screenshot();
      await page.click("#pop");
      await page.waitForTimeout(300);
      const popups = pages().length;
      const filled = await credentials.fill({ submit: true });
      await page.waitForURL("**/login");
      return { download, shot, popups, filled: filled.filled, title: await page.title() };`, ["--isolated", "--approve-downloads"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.result.download).toMatchObject({ status: "accepted", suggestedFilename: "iso.txt", bytes: 8 });
    expect(r.json.result.shot).toMatchObject({ kind: "screenshot" });
    expect(r.json.result.popups).toBe(2);
    expect(r.json.result).toMatchObject({ filled: { username: true, password: true }, title: "welcome" });
    expect(signedIn).toBe(1);
    const transcript = await cli(["transcript", "--session", "files", "--json"]);
    expect(transcript.stdout).toContain("waitForDownload");
  });

  it("comes back after a worker or a browser restart with its settings and its autosaved storage, saying SESSION_RESET", async () => {
    const daemon = JSON.parse(readFileSync(path.join(home, "daemon.json"), "utf8")).pid as number;
    const worker = () => workersOf(daemon)[0]!;
    const after = `${echo().replace("return {", "return { width: await page.evaluate(() => innerWidth),")}`;
    const resetOf = (envelope: { warnings: { code: string; message: string }[] }) => envelope.warnings.find((w) => w.code === "SESSION_RESET");
    // Each run's storage is autosaved just after its answer: wait for the last one to land before each crash.
    const autosave = path.join(home, "states", "default", ".autosave", "crash.state");
    const mtime = () => statSync(autosave, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    const autosaved = async (since: number) => {
      expect(await until(() => mtime() > since, 15_000)).toBe(true);
      for (let seen = mtime(); ; seen = mtime()) {
        await new Promise((r) => setTimeout(r, 1_000));
        if (mtime() === seen) return;
      }
    };

    expect((await exec("crash", setAs("kept"), ["--isolated", "--viewport", "640x480"])).json.result).toBe("sid=kept");
    await autosaved(0);
    process.kill(worker(), "SIGKILL");
    const afterWorker = await exec("crash", after);
    expect(afterWorker.json).toMatchObject({ ok: true, result: { width: 640, cookie: "sid=kept", who: "kept" } });
    expect(resetOf(afterWorker.json)?.message).toContain("its cookies and storage as its last autosaved run left them");

    const before = statSync(autosave).mtimeMs;
    expect((await exec("crash", setAs("again"))).json.result).toBe("sid=again");
    await autosaved(before);
    const browsers = childrenMatching(worker(), /chrom/i);
    for (const pid of browsers) process.kill(pid, "SIGKILL");
    expect(await waitForExit(browsers, 5_000)).toEqual([]);
    const afterBrowser = await exec("crash", after);
    expect(afterBrowser.json).toMatchObject({ ok: true, result: { width: 640, cookie: "sid=again", who: "again" } });
    expect(resetOf(afterBrowser.json)).toBeDefined();
    expect((await exec("crash", "return 1")).json.warnings).toEqual([]);
  });

  it("keeps every isolated session behind the network guard", async () => {
    const guarded = ["--profile", "guarded", "--block-host", "localhost"];
    const forbidden = `http://localhost:${server.port}/echo`;
    const before = seen.filter((s) => s.host.startsWith("localhost")).length;
    const nav = await cli([...guarded, "exec", "--session", "g", "--isolated", "--locale", "fr-FR", "--json", "-c", `await page.goto(${JSON.stringify(forbidden)})`]);
    expect(nav.code).toBe(1);
    expect(nav.json.error.code).toBe("BLOCKED_URL");
    expect(nav.json.blocked).toContainEqual(expect.objectContaining({ layer: "proxy" }));
    const fetched = await cli([...guarded, "exec", "--session", "g", "--json", "-c", `await page.goto(${JSON.stringify(`${server.url}/echo`)});
      return page.evaluate(async (u) => { try { await fetch(u); return "fetched" } catch { return "failed" } }, ${JSON.stringify(forbidden)})`]);
    expect(fetched.json.result).toBe("failed");
    expect(seen.filter((s) => s.host.startsWith("localhost")).length).toBe(before);
  });

  it("installs a custom hook's routing layer on an isolated session's context too (in-process host)", async () => {
    const policy = new NetworkPolicy({ custom: (url) => (new URL(url).pathname === "/files" ? { allowed: false, reason: "no files here" } : null) });
    const bw = new BetterWright({ home, profile: "hooked", env: cleanEnv(home), policy });
    try {
      await bw.createSession("h", { isolated: true, settings: { locale: "it-IT" } });
      const refused = await bw.run(`await page.goto(${JSON.stringify(`${server.url}/files`)})`, { session: "h" });
      expect(refused).toMatchObject({ ok: false, error: { code: "BLOCKED_URL" } });
      expect(refused.blocked).toContainEqual(expect.objectContaining({ url: `${server.url}/files`, layer: "route", reason: "no files here" }));
      const allowed = await bw.run(`await page.goto(${JSON.stringify(`${server.url}/echo`)}); return page.evaluate(() => navigator.language)`, { session: "h" });
      expect(allowed, JSON.stringify(allowed.error)).toMatchObject({ ok: true, result: "it-IT" });
    } finally {
      await bw.close();
    }
  });
});
