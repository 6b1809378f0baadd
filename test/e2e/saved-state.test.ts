// Saved browser state through the real CLI, daemon, worker and Chromium: a
// login made in an isolated session is saved, the session closed, and a new
// isolated session started from the state is logged in (cookie, local storage,
// IndexedDB) while a shared session is not; the file holds none of it in
// clear and is 0600; a tampered file is refused whole; saved states outlive
// the daemon; caps and missing states fail with their codes; no output, log or
// transcript ever shows the saved secrets.
import { randomBytes } from "node:crypto";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, runCli, tempHome, type CliResult } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { filesHolding } from "../helpers/secret-files.js";

const SESSION_TOKEN = `sess-${randomBytes(12).toString("hex")}`;
const LOCAL_TOKEN = `local-${randomBytes(12).toString("hex")}`;
const IDB_TOKEN = `idb-${randomBytes(12).toString("hex")}`;
const SECRETS = [SESSION_TOKEN, LOCAL_TOKEN, IDB_TOKEN];

/** Files under `dir` holding any of the secrets in clear (Chromium's own profile folder aside). */
const filesWithSecrets = (dir: string) => filesHolding(dir, SECRETS, (folder) => folder.endsWith(`${path.sep}browser`));

describe("saved browser state", () => {
  let home: string;
  let server: TestServer;
  const outputs: CliResult[] = [];

  beforeAll(async () => {
    home = tempHome("bw-state-");
    server = await startServer({
      // Signs in: an HttpOnly session cookie, and tokens the page keeps in local storage and IndexedDB.
      "/login": (_req: http.IncomingMessage, res: http.ServerResponse) => {
        res.writeHead(200, { "content-type": "text/html", "set-cookie": `auth=${SESSION_TOKEN}; Path=/; HttpOnly` }).end(`<title>signing in</title><script>
          localStorage.setItem("token", ${JSON.stringify(LOCAL_TOKEN)});
          const open = indexedDB.open("app", 1);
          open.onupgradeneeded = () => open.result.createObjectStore("auth");
          open.onsuccess = () => { const tx = open.result.transaction("auth", "readwrite"); tx.objectStore("auth").put({ token: ${JSON.stringify(IDB_TOKEN)} }, "me");
            tx.oncomplete = () => { document.title = "signed in"; }; };
        </script>`);
      },
      // Says who is signed in, checking all three without ever printing them.
      "/account": (req: http.IncomingMessage, res: http.ServerResponse) => {
        const cookie = (req.headers.cookie ?? "").includes(`auth=${SESSION_TOKEN}`);
        res.writeHead(200, { "content-type": "text/html" }).end(`<title>checking</title><script>
          const local = localStorage.getItem("token") === ${JSON.stringify(LOCAL_TOKEN)};
          const open = indexedDB.open("app");
          open.onupgradeneeded = () => open.result.createObjectStore("auth");
          open.onsuccess = () => { const get = open.result.transaction("auth").objectStore("auth").get("me");
            get.onsuccess = () => { document.title = JSON.stringify({ cookie: ${cookie}, local, idb: get.result?.token === ${JSON.stringify(IDB_TOKEN)} }); };
            get.onerror = () => { document.title = "idb error"; }; };
          open.onerror = () => { document.title = "idb error"; };
        </script>`);
      },
    });
  });

  afterAll(async () => {
    const leaks = filesWithSecrets(home);
    await destroyHome(home);
    await server.close();
    expect(leaks).toEqual([]);
    for (const out of outputs) for (const secret of SECRETS) expect(out.stdout + out.stderr).not.toContain(secret);
  });

  const cli = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const result = await runCli([...args, "--json"], { home, env });
    outputs.push(result);
    return result;
  };
  const signIn = () => `await page.goto(${JSON.stringify(`${server.url}/login`)}); await page.waitForFunction(() => document.title === "signed in"); return "ok"`;
  const account = () => `await page.goto(${JSON.stringify(`${server.url}/account`)}); await page.waitForFunction(() => document.title !== "checking"); return JSON.parse(await page.title())`;
  const stateFile = (name: string, profile = "default") => path.join(home, "states", profile, `${name}.state`);

  it("saves a login from an isolated session; a new isolated session from the state is logged in, a shared one is not", async () => {
    const login = await cli(["exec", "--session", "login", "--isolated", "-c", signIn()]);
    expect(login.json).toMatchObject({ ok: true, result: "ok" });
    const saved = await cli(["state", "save", "alice", "--session", "login"]);
    expect(saved.code, saved.stdout + saved.stderr).toBe(0);
    expect(saved.json).toMatchObject({ ok: true, name: "alice", session: "login", cookies: 1, origins: 1 });
    expect((await cli(["close", "--session", "login"])).json).toMatchObject({ closed: true });

    const created = await cli(["session", "create", "alice2", "--isolated", "--state", "alice"]);
    expect(created.json).toMatchObject({ ok: true, created: true, isolated: true, state: "alice" });
    expect((await cli(["exec", "--session", "alice2", "-c", account()])).json.result).toEqual({ cookie: true, local: true, idb: true });
    expect((await cli(["exec", "--session", "shared", "-c", account()])).json.result).toEqual({ cookie: false, local: false, idb: false });
    // exec --isolated --state makes the session as it runs.
    expect((await cli(["exec", "--session", "alice3", "--isolated", "--state", "alice", "-c", account()])).json.result).toEqual({ cookie: true, local: true, idb: true });

    const listed = await cli(["sessions"]);
    expect(listed.json.daemons[0].sessions.find((s: { session: string }) => s.session === "alice2")).toMatchObject({ isolated: true, state: "alice" });
  });

  it("keeps the state encrypted (no token in the file's bytes) and 0600, and lists names and sizes only", async () => {
    const bytes = readFileSync(stateFile("alice"));
    for (const secret of [...SECRETS, "auth", "127.0.0.1"]) expect(bytes.includes(Buffer.from(secret))).toBe(false);
    expect(statSync(stateFile("alice")).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(stateFile("alice"))).mode & 0o777).toBe(0o700);
    const listed = await cli(["state", "list"]);
    expect(listed.json).toMatchObject({ profile: "default", states: [{ name: "alice", bytes: bytes.length }], totalBytes: bytes.length });
    const daemonLog = readFileSync(path.join(home, "daemon.log"), "utf8");
    for (const secret of SECRETS) expect(daemonLog).not.toContain(secret);
  });

  it("refuses a tampered state whole (VAULT_CORRUPT), and a missing one (STATE_NOT_FOUND), making no session", async () => {
    const good = readFileSync(stateFile("alice"));
    const bad = Buffer.from(good);
    bad[bad.length - 30]! ^= 0x01;
    writeFileSync(stateFile("bad"), bad, { mode: 0o600 });
    const tampered = await cli(["session", "create", "t1", "--isolated", "--state", "bad"]);
    expect(tampered.code).toBe(1);
    expect(tampered.json.error.code).toBe("VAULT_CORRUPT");
    // A good file under another name is refused as well: the name is sealed with it.
    writeFileSync(stateFile("renamed"), good, { mode: 0o600 });
    expect((await cli(["session", "create", "t2", "--isolated", "--state", "renamed"])).json.error.code).toBe("VAULT_CORRUPT");
    const missing = await cli(["exec", "--session", "t3", "--isolated", "--state", "nobody", "-c", "return 1"]);
    expect(missing.code).toBe(1);
    expect(missing.json.error.code).toBe("STATE_NOT_FOUND");
    expect((await cli(["state", "rm", "nobody"])).json.error.code).toBe("STATE_NOT_FOUND");
    expect((await cli(["state", "save", "x", "--session", "nosuch"])).json.error.code).toBe("SESSION_NOT_FOUND");
    expect((await cli(["state", "save", "../x", "--session", "alice2"])).code).toBe(2);
    const sessions = (await cli(["sessions"])).json.daemons[0].sessions.map((s: { session: string }) => s.session);
    for (const name of ["t1", "t2", "t3"]) expect(sessions).not.toContain(name);
    expect((await cli(["state", "rm", "bad"])).json).toMatchObject({ ok: true, removed: "bad" });
    expect((await cli(["state", "rm", "renamed"])).code).toBe(0);
  });

  it("keeps saved states across a daemon restart", async () => {
    expect((await cli(["close", "--all"])).json).toMatchObject({ ok: true, stopped: true });
    expect((await cli(["state", "list"])).json.states.map((s: { name: string }) => s.name)).toEqual(["alice"]);
    expect((await cli(["exec", "--session", "again", "--isolated", "--state", "alice", "-c", account()])).json.result).toEqual({ cookie: true, local: true, idb: true });
  });

  it("refuses states past the caps with LIMIT_EXCEEDED, naming the cap", async () => {
    const capped = ["--profile", "capped"];
    const env = { BETTERWRIGHT_MAX_SAVED_STATES: "1" };
    expect((await cli([...capped, "exec", "--session", "s", "--isolated", "-c", signIn()], env)).json.ok).toBe(true);
    expect((await cli([...capped, "state", "save", "one", "--session", "s"], env)).code).toBe(0);
    const second = await cli([...capped, "state", "save", "two", "--session", "s"], env);
    expect(second.code).toBe(1);
    expect(second.json.error).toMatchObject({ code: "LIMIT_EXCEEDED", details: { limit: "maxStates", value: 1 } });
    expect(second.json.error.message).toContain("BETTERWRIGHT_MAX_SAVED_STATES");
    // Replacing the one there is fine.
    expect((await cli([...capped, "state", "save", "one", "--session", "s"], env)).code).toBe(0);
    expect((await cli([...capped, "close", "--all"], env)).code).toBe(0);

    const tiny = { BETTERWRIGHT_SAVED_STATE_MAX_BYTES: "200" };
    expect((await cli([...capped, "exec", "--session", "s", "--isolated", "-c", signIn()], tiny)).json.ok).toBe(true);
    const big = await cli([...capped, "state", "save", "big", "--session", "s"], tiny);
    expect(big.json.error).toMatchObject({ code: "LIMIT_EXCEEDED", details: { limit: "maxStateBytes", value: 200 } });
    expect((await cli([...capped, "state", "list"], tiny)).json.states.map((s: { name: string }) => s.name)).toEqual(["one"]);
    expect((await cli([...capped, "close", "--all"], tiny)).code).toBe(0);
  });
});
