// The HTTP front door end to end: `betterwright serve` (the built CLI) over
// real HTTP on loopback, its daemon and real Chromium, against pages this test
// serves on 127.0.0.1 (allowed by --allow-host over the public-web preset).
// Every route and error status of the reference API, its limits, and UUID
// sessions whose cookies and local storage come back after serve and the
// daemon restart.
import { randomBytes, randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright } from "../../dist/client/index.js";
import { cleanEnv, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { call, pngSize, startServe, type Served } from "../helpers/serve.js";

const LOCAL = `local-${randomBytes(8).toString("hex")}`;
const COOKIE = `cookie-${randomBytes(8).toString("hex")}`;
const BIG_TEXT = "abcdefghij".repeat(15_000);

const PAGES: Record<string, string | ((req: http.IncomingMessage, res: http.ServerResponse) => void)> = {
  "/": "<title>home</title><p>hello http</p>",
  "/store": (_req, res) => void res.writeHead(200, { "content-type": "text/html", "set-cookie": `bwc=${COOKIE}; Path=/; Max-Age=3600` })
    .end(`<title>store</title><script>localStorage.setItem("bw", ${JSON.stringify(LOCAL)})</script><p>stored</p>`),
  "/show": (req, res) => void res.writeHead(200, { "content-type": "text/html" })
    .end(`<title>show</title><p>cookie=${(req.headers.cookie ?? "none").replace(/[<&]/g, "")}</p><p id=l></p><script>document.getElementById("l").textContent = "local=" + localStorage.getItem("bw")</script>`),
  "/button": `<title>button</title><style>body{margin:0}</style>
    <button id=b style="position:absolute;left:100px;top:200px;width:200px;height:50px" onclick="document.getElementById('out').textContent='clicked '+event.clientX+','+event.clientY">press</button>
    <div id=out style="position:absolute;top:0">waiting</div>
    <input id=i style="position:absolute;left:100px;top:300px;width:200px;height:30px" oninput="document.getElementById('echo').textContent='typed:'+this.value" onkeydown="if(event.key==='Enter')document.getElementById('echo').textContent+=' entered'">
    <div id=echo style="position:absolute;top:20px"></div>`,
  "/tall": `<title>tall</title><div id=y style="position:fixed;top:0">y=0</div><div style="height:6000px"></div><script>addEventListener("scroll",()=>{document.getElementById("y").textContent="y="+scrollY})</script>`,
  "/big": `<title>big</title><p>${BIG_TEXT}</p>`,
  "/slow": () => { /* never answers: the navigation timeout ends it */ },
  // A login whose POST gets no answer at all: Chromium shows its error page (net::ERR_EMPTY_RESPONSE).
  "/login": `<title>login</title><form method=post action=/empty><input id=u name=u autofocus></form>`,
  "/empty": (req) => void req.socket.destroy(),
};

describe("betterwright serve: the HTTP API", () => {
  let home: string;
  let pages: TestServer;
  let served: Served;
  let closedPort: number;
  // Every open here makes a browser context and navigates within this budget: on a machine busy with CI, 3 s was not always enough.
  const serveArgs = () => ["--allow-host", "127.0.0.1", "--navigation-timeout", "10"];
  const open = (id: string, url: string) => call(served, "POST", "/sessions", { body: { id, url } });
  const read = async (id: string) => (await call(served, "GET", `/sessions/${id}/read`)).json;
  const closeAll = async () => {
    for (const s of (await call(served, "GET", "/sessions")).json) if (s.status === "active") await call(served, "POST", `/sessions/${s.id}/close`);
  };

  beforeAll(async () => {
    home = tempHome("bw-http-");
    pages = await startServer(PAGES);
    const spare = await startServer({});
    closedPort = spare.port;
    await spare.close();
    served = await startServe(home, serveArgs());
  }, 90_000);

  afterAll(async () => {
    await served?.stop();
    await pages?.close();
    await destroyHome(home);
  }, 60_000);

  it("answers GET /health without a token; every other route wants the bearer token, compared whole", async () => {
    expect(await call(served, "GET", "/health", { token: null })).toMatchObject({ status: 200, json: { status: "ok" } });
    // --allow-host 127.0.0.1 lets through more than the public web, and /health says so.
    expect((await call(served, "GET", "/health", { token: null })).json).toEqual({ status: "ok", policy: "custom" });
    const wrong = served.token.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    for (const token of [null, wrong, served.token.slice(0, -1), "x"]) {
      const reply = await call(served, "GET", "/sessions", { token });
      expect(reply).toMatchObject({ status: 401, json: { error: { code: "UNAUTHORIZED" } } });
      expect(reply.headers.get("www-authenticate")).toBe("Bearer");
    }
    expect(await call(served, "POST", "/sessions", { token: null, body: { id: randomUUID(), url: `${pages.url}/` } })).toMatchObject({ status: 401 });
    expect(await call(served, "GET", "/sessions", { token: null, headers: { authorization: `Basic ${served.token}` } })).toMatchObject({ status: 401 });
    // The token file is the owner's alone, and serve never printed the token.
    expect(statSync(path.join(home, "serve", "token")).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(home, "serve")).mode & 0o777).toBe(0o700);
    expect(served.stderr()).toContain(path.join(home, "serve", "token"));
    expect(served.stderr()).not.toContain(served.token);
  });

  it("refuses malformed requests with 400, 404, 413 and 415 before doing anything", async () => {
    const id = randomUUID();
    expect(await call(served, "POST", "/sessions", { raw: JSON.stringify({ id, url: `${pages.url}/` }), headers: { "content-type": "text/plain" } }))
      .toMatchObject({ status: 415, json: { error: { code: "INVALID_ARGUMENT" } } });
    const big = JSON.stringify({ id, url: `${pages.url}/?${"a".repeat(65 * 1024)}` });
    expect(await call(served, "POST", "/sessions", { raw: big, headers: { "content-type": "application/json" } }))
      .toMatchObject({ status: 413, json: { error: { code: "LIMIT_EXCEEDED" } } });
    expect(await call(served, "POST", "/sessions", { raw: "{nope", headers: { "content-type": "application/json" } })).toMatchObject({ status: 400, json: { error: { code: "INVALID_ARGUMENT" } } });
    for (const body of [{ id }, { id, url: `${pages.url}/`, code: "1" }, { id, url: 7 }, [id], { id: "not-a-uuid", url: `${pages.url}/` }, { id, url: `${pages.url}/`, handoff: "yes" }]) {
      expect(await call(served, "POST", "/sessions", { body })).toMatchObject({ status: 400, json: { error: { code: "INVALID_ARGUMENT" } } });
    }
    // Versions 1 to 8, RFC variant only.
    for (const bad of ["00000000-0000-0000-8000-000000000000", "0b0f3f4e-3c1b-9b8a-9a3c-1d2e3f4a5b6c", "0b0f3f4e-3c1b-4b8a-ca3c-1d2e3f4a5b6c", "0b0f3f4e-3c1b-4b8a-7a3c-1d2e3f4a5b6c"]) {
      expect(await call(served, "POST", "/sessions", { body: { id: bad, url: `${pages.url}/` } })).toMatchObject({ status: 400 });
      expect(await call(served, "GET", `/sessions/${bad}/read`)).toMatchObject({ status: 400 });
    }
    expect(await call(served, "GET", `/sessions/${randomUUID()}/read`)).toMatchObject({ status: 404, json: { error: { code: "NOT_FOUND" } } });
    expect(await call(served, "GET", "/nowhere")).toMatchObject({ status: 404, json: { error: { code: "NOT_FOUND" } } });
    expect((await call(served, "GET", "/sessions")).json).toEqual([]);
  });

  const S1 = randomUUID().toUpperCase();
  const s1 = S1.toLowerCase();

  it("opens a UUID as an isolated 1280×800 session (201), listed; opening it again while open is 409", async () => {
    const opened = await open(S1, `${pages.url}/`);
    expect(opened.status).toBe(201);
    expect(opened.json).toEqual({ id: s1, title: "home", url: `${pages.url}/`, status: "active", updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect((await call(served, "GET", "/sessions")).json).toEqual([opened.json]);
    const bw = new BetterWright({ home, env: cleanEnv(home) });
    try {
      expect((await bw.sessions()).find((s) => s.session === s1)).toMatchObject({ isolated: true, settings: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 } });
    } finally {
      await bw.close();
    }
    expect(await open(s1, `${pages.url}/`)).toMatchObject({ status: 409, json: { error: { code: "SESSION_EXISTS" } } });
  });

  it("reads the URL, title and visible text, at most 100,000 characters; screenshots are 1280×800 PNGs", async () => {
    expect(await read(s1)).toEqual({ url: `${pages.url}/`, title: "home", text: "hello http", truncated: false });
    expect(await call(served, "POST", `/sessions/${s1}/navigate`, { body: { url: `${pages.url}/big` } })).toMatchObject({ status: 200, json: { id: s1, title: "big", url: `${pages.url}/big`, status: "active" } });
    const big = await read(s1);
    expect(big).toMatchObject({ title: "big", truncated: true });
    expect(big.text).toBe(BIG_TEXT.slice(0, 100_000));
    const shot = await call(served, "GET", `/sessions/${s1}/screenshot`);
    expect(shot.status).toBe(200);
    expect(shot.headers.get("content-type")).toBe("image/png");
    expect(pngSize(shot.body)).toEqual({ width: 1280, height: 800 });
  });

  it("relays inputs: a click at screenshot coordinates hits the element there; text, keys and scrolling reach the page", async () => {
    await call(served, "POST", `/sessions/${s1}/navigate`, { body: { url: `${pages.url}/button` } });
    const clicked = await call(served, "POST", `/sessions/${s1}/input`, { body: { type: "click", x: 150, y: 225 } });
    expect(clicked).toMatchObject({ status: 200, json: { id: s1, title: "button", status: "active" } });
    expect((await read(s1)).text).toContain("clicked 150,225");
    await call(served, "POST", `/sessions/${s1}/input`, { body: { type: "click", x: 120, y: 315 } });
    expect(await call(served, "POST", `/sessions/${s1}/input`, { body: { type: "text", text: "Example" } })).toMatchObject({ status: 200 });
    expect(await call(served, "POST", `/sessions/${s1}/input`, { body: { type: "key", key: "Enter" } })).toMatchObject({ status: 200 });
    expect((await read(s1)).text).toContain("typed:Example entered");
    await call(served, "POST", `/sessions/${s1}/navigate`, { body: { url: `${pages.url}/tall` } });
    expect(await call(served, "POST", `/sessions/${s1}/input`, { body: { type: "scroll", deltaY: 600 } })).toMatchObject({ status: 200 });
    await expect.poll(async () => (await read(s1)).text, { timeout: 5_000 }).toContain("y=600");
    for (const body of [
      { type: "key", key: "F5" }, { type: "key", key: "Control+w" }, { type: "text", text: "x".repeat(10_001) }, { type: "text", text: "" },
      { type: "scroll", deltaY: 5_001 }, { type: "scroll", deltaY: 1.5 }, { type: "click", x: 1280, y: 10 }, { type: "click", x: 10, y: -1 },
      { type: "click", x: 1, y: 1, selector: "#b" }, { type: "evaluate", script: "1" }, {},
    ]) {
      expect(await call(served, "POST", `/sessions/${s1}/input`, { body }), JSON.stringify(body).slice(0, 60)).toMatchObject({ status: 400, json: { error: { code: "INVALID_ARGUMENT" } } });
    }
  });

  it("tells refusals (400 BLOCKED_URL) from dead servers and pages that never load (502 NAVIGATION_FAILED), and the session stays open", async () => {
    for (const url of [`http://localhost:${pages.port}/`, "http://10.0.0.1/", "http://169.254.169.254/latest/meta-data/", "file:///etc/passwd"]) {
      expect(await call(served, "POST", `/sessions/${s1}/navigate`, { body: { url } }), url).toMatchObject({ status: 400, json: { error: { code: "BLOCKED_URL" } } });
    }
    expect(await call(served, "POST", `/sessions/${s1}/navigate`, { body: { url: `http://127.0.0.1:${closedPort}/` } })).toMatchObject({ status: 502, json: { error: { code: "NAVIGATION_FAILED" } } });
    // The page is now Chromium's error page: reading it is an error, not 200 with empty text.
    expect(await call(served, "GET", `/sessions/${s1}/read`)).toMatchObject({ status: 502, json: { error: { code: "NAVIGATION_FAILED", message: expect.stringContaining("error page") } } });
    const started = Date.now();
    expect(await call(served, "POST", `/sessions/${s1}/navigate`, { body: { url: `${pages.url}/slow` } })).toMatchObject({ status: 502, json: { error: { code: "NAVIGATION_FAILED", message: expect.stringContaining("10 s") } } });
    // It waits out the 10 s budget, less the 1 s margin a wait keeps to say what it waited for before the run ends.
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await call(served, "POST", `/sessions/${s1}/navigate`, { body: { url: `${pages.url}/` } })).toMatchObject({ status: 200, json: { status: "active", title: "home" } });
  });

  it("a form whose POST gets no answer leaves Chromium's error page: /read answers 502 NAVIGATION_FAILED, and a navigation recovers", async () => {
    expect((await call(served, "POST", `/sessions/${s1}/navigate`, { body: { url: `${pages.url}/login` } })).status).toBe(200);
    expect((await call(served, "POST", `/sessions/${s1}/input`, { body: { type: "text", text: "ada" } })).status).toBe(200);
    await call(served, "POST", `/sessions/${s1}/input`, { body: { type: "key", key: "Enter" } });
    let reply = await call(served, "GET", `/sessions/${s1}/read`);
    for (let i = 0; i < 50 && reply.status === 200 && reply.json.title === "login"; i++) {
      await new Promise((r) => setTimeout(r, 200));
      reply = await call(served, "GET", `/sessions/${s1}/read`);
    }
    expect(reply, JSON.stringify(reply.json)).toMatchObject({ status: 502, json: { error: { code: "NAVIGATION_FAILED" } } });
    expect(await call(served, "POST", `/sessions/${s1}/navigate`, { body: { url: `${pages.url}/` } })).toMatchObject({ status: 200, json: { status: "active", title: "home" } });
    expect(await read(s1)).toMatchObject({ title: "home", text: "hello http" });
  });

  it("holds three sessions at once: a fourth is 409 SESSION_LIMIT until one closes; a closed one is 409 SESSION_CLOSED", async () => {
    const [s2, s3, s4] = [randomUUID(), randomUUID(), randomUUID()];
    expect((await open(s2, `${pages.url}/`)).status).toBe(201);
    expect((await open(s3, `${pages.url}/`)).status).toBe(201);
    expect(await open(s4, `${pages.url}/`)).toMatchObject({ status: 409, json: { error: { code: "SESSION_LIMIT" } } });
    const closed = await call(served, "POST", `/sessions/${s2}/close`);
    expect(closed).toMatchObject({ status: 200, json: { id: s2, status: "closed" } });
    expect((await open(s4, `${pages.url}/`)).status).toBe(201);
    for (const [method, route] of [["GET", "read"], ["GET", "screenshot"], ["POST", "navigate"], ["POST", "input"]] as const) {
      const body = method === "POST" ? (route === "input" ? { type: "key", key: "Tab" } : { url: `${pages.url}/` }) : undefined;
      expect(await call(served, method, `/sessions/${s2}/${route}`, body ? { body } : {})).toMatchObject({ status: 409, json: { error: { code: "SESSION_CLOSED" } } });
    }
    // Closing again answers the session as it is.
    expect(await call(served, "POST", `/sessions/${s2}/close`)).toMatchObject({ status: 200, json: { id: s2, status: "closed" } });
    expect((await call(served, "GET", `/sessions/${s2}/downloads`)).json).toEqual({ downloads: [], failures: [] });
  });

  it("a failed first navigation leaves an error record and no saved state; the same id opens later", async () => {
    await closeAll();
    const id = randomUUID();
    expect(await open(id, `http://127.0.0.1:${closedPort}/`)).toMatchObject({ status: 502, json: { error: { code: "NAVIGATION_FAILED" } } });
    expect((await call(served, "GET", "/sessions")).json).toContainEqual(expect.objectContaining({ id, status: "error" }));
    const states = await runCli(["state", "list", "--json"], { home });
    expect(states.json.states.map((s: { name: string }) => s.name)).not.toContain(`http-${id}`);
    expect((await open(id, `${pages.url}/`)).status).toBe(201);
    await call(served, "POST", `/sessions/${id}/close`);
  });

  it("reopens a UUID with its localStorage and cookies after serve and the daemon restart; a failed reopen keeps the saved state", async () => {
    await closeAll();
    const id = randomUUID();
    expect((await open(id, `${pages.url}/store`)).status).toBe(201);
    expect(await served.stop()).toBe(0);
    expect((await runCli(["close", "--all"], { home })).code).toBe(0);
    served = await startServe(home, serveArgs());
    expect((await call(served, "GET", "/sessions")).json).toContainEqual(expect.objectContaining({ id, status: "closed", title: "store" }));
    expect((await open(id, `${pages.url}/show`)).status).toBe(201);
    const shown = (await read(id)).text;
    expect(shown).toContain(`cookie=bwc=${COOKIE}`);
    expect(shown).toContain(`local=${LOCAL}`);
    // A fresh session has neither: the state is this id's alone.
    const other = randomUUID();
    await open(other, `${pages.url}/show`);
    expect((await read(other)).text).toContain("cookie=none");
    await call(served, "POST", `/sessions/${other}/close`);
    await call(served, "POST", `/sessions/${id}/close`);
    expect(await open(id, `http://127.0.0.1:${closedPort}/`)).toMatchObject({ status: 502 });
    expect((await open(id, `${pages.url}/show`)).status).toBe(201);
    expect((await read(id)).text).toContain(`local=${LOCAL}`);
    await call(served, "POST", `/sessions/${id}/close`);
  });

  it("runs once per profile; after serve is killed, the next one saves and closes what it left open", async () => {
    await closeAll();
    const second = await startServe(home, serveArgs()).then(
      async (extra) => { await extra.stop(); return "started"; },
      (error: Error) => error.message,
    );
    expect(second).toMatch(/serve already runs for this profile/);
    const id = randomUUID();
    expect((await open(id, `${pages.url}/store`)).status).toBe(201);
    await served.stop("SIGKILL");
    served = await startServe(home, serveArgs());
    expect((await call(served, "GET", "/sessions")).json).toContainEqual(expect.objectContaining({ id, status: "closed" }));
    expect((await open(id, `${pages.url}/show`)).status).toBe(201);
    expect((await read(id)).text).toContain(`local=${LOCAL}`);
    await call(served, "POST", `/sessions/${id}/close`);
  });

  it("saves and closes a session left idle", async () => {
    await served.stop();
    served = await startServe(home, [...serveArgs(), "--idle-close", "2"]);
    const id = randomUUID();
    expect((await open(id, `${pages.url}/store`)).status).toBe(201);
    await expect.poll(async () => (await call(served, "GET", "/sessions")).json.find((s: { id: string }) => s.id === id)?.status, { timeout: 15_000, interval: 250 }).toBe("closed");
    const states = await runCli(["state", "list", "--json"], { home });
    expect(states.json.states.map((s: { name: string }) => s.name)).toContain(`http-${id}`);
    expect(served.stderr()).toContain(`session ${id}: idle`);
  });
});
