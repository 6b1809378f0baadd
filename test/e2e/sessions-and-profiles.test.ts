// Sessions and profiles as a user meets them: sessions of one profile share
// cookies but not state or pages; another profile shares nothing; sessions
// run concurrently, runs of one session strictly in order; the CLI lists,
// closes, reads transcripts and runs a repl; the library's in-process mode
// behaves like the daemon and leaves no daemon behind.
import { existsSync, readdirSync } from "node:fs";
import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright } from "../../dist/client/index.js";
import { layoutFor } from "../../shared/paths.js";
import { cleanEnv, daemonPids, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { RawConnection } from "../helpers/raw-socket.js";

describe("sessions and profiles", () => {
  let home: string;
  let server: TestServer;
  /** The Cookie header the server saw on each /echo request, in order. */
  const seenCookies: string[] = [];

  beforeAll(async () => {
    home = tempHome("bw-sessions-");
    server = await startServer({
      "/set": (req: http.IncomingMessage, res: http.ServerResponse) => {
        const value = new URL(req.url ?? "/", "http://x").searchParams.get("v") ?? "one";
        res.writeHead(200, { "content-type": "text/html", "set-cookie": `sid=${value}; Path=/` }).end("<title>set</title>");
      },
      "/echo": (req: http.IncomingMessage, res: http.ServerResponse) => {
        seenCookies.push(req.headers.cookie ?? "");
        res.writeHead(200, { "content-type": "text/html" }).end("<title>echo</title>");
      },
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  const exec = (session: string, code: string, extra: string[] = []) => runCli([...extra, "exec", "--session", session, "-c", code], { home });
  const cookieProbe = () => `
    const seen = { secret: typeof state.secret };
    await page.goto(${JSON.stringify(`${server.url}/echo`)});
    seen.cookie = await page.evaluate(() => document.cookie);
    return seen;`;

  let betaRuns: string[] = [];

  it("another session shares the cookies but not the state or the pages; another profile shares neither", async () => {
    const alpha = await exec("alpha", `await page.goto(${JSON.stringify(`${server.url}/set?v=one`)}); state.secret = 42; return page.evaluate(() => document.cookie)`);
    expect(alpha.code).toBe(0);
    expect(alpha.json).toMatchObject({ ok: true, result: "sid=one", session: "alpha", profile: "default" });

    const betaFirst = await exec("beta", "return { secret: typeof state.secret, url: page.url() }");
    expect(betaFirst.json).toMatchObject({ ok: true, result: { secret: "undefined", url: "about:blank" } });
    expect(betaFirst.json.pages).toEqual([{ pageId: "p1", url: "about:blank", title: "", active: true }]);

    const beta = await exec("beta", cookieProbe());
    expect(beta.json).toMatchObject({ ok: true, result: { secret: "undefined", cookie: "sid=one" } });
    expect(seenCookies.at(-1)).toBe("sid=one");
    betaRuns = [betaFirst.json.runId, beta.json.runId];

    const other = await exec("alpha", cookieProbe(), ["--profile", "other"]);
    expect(other.code).toBe(0);
    expect(other.json).toMatchObject({ ok: true, profile: "other", result: { secret: "undefined", cookie: "" } });
    expect(seenCookies.at(-1)).toBe("");

    // The first profile's session still holds its state and page.
    const again = await exec("alpha", "return { secret: state.secret, url: page.url() }");
    expect(again.json.result).toEqual({ secret: 42, url: `${server.url}/set?v=one` });
    expect(new Set(daemonPids(home)).size).toBe(2);
  });

  it("runs two sessions' snippets at the same time, and one session's 100 runs in acceptance order", async () => {
    const bw = new BetterWright({ home, env: cleanEnv(home) });
    try {
      const timed = "const start = Date.now(); await new Promise((r) => setTimeout(r, 1000)); return { start, end: Date.now() }";
      const [a, b] = await Promise.all([bw.run(timed, { session: "o1" }), bw.run(timed, { session: "o2" })]);
      expect(a.ok && b.ok).toBe(true);
      const ra = a.result as { start: number; end: number };
      const rb = b.result as { start: number; end: number };
      expect(ra.end - ra.start).toBeGreaterThanOrEqual(1000);
      expect(ra.start < rb.end && rb.start < ra.end).toBe(true);

      const indexes = Array.from({ length: 100 }, (_, i) => i);
      const envelopes = await Promise.all(indexes.map((i) => bw.run(`(state.order ??= []).push(${i}); return ${i}`, { session: "order" })));
      expect(envelopes.map((e) => [e.ok, e.result])).toEqual(indexes.map((i) => [true, i]));
      expect(envelopes.map((e) => e.seq)).toEqual(indexes.map((i) => envelopes[0]!.seq + i));
      const order = await bw.run("return state.order", { session: "order" });
      expect(order.result).toEqual(indexes);
    } finally {
      await bw.close();
    }
  });

  it("lists both profiles' daemons and their sessions, reads a transcript, and closes a session", async () => {
    const listed = await runCli(["sessions", "--json"], { home });
    expect(listed.code).toBe(0);
    const daemons = listed.json.daemons as { profile: string; pid: number; sessions: { session: string; inFlight: number }[] }[];
    expect(daemons.map((d) => d.profile).sort(), listed.stdout + listed.stderr).toEqual(["default", "other"]);
    expect(daemons.map((d) => d.pid).sort()).toEqual(daemonPids(home).sort());
    const byProfile = Object.fromEntries(daemons.map((d) => [d.profile, d.sessions.map((s) => s.session).sort()]));
    expect(byProfile).toEqual({ default: ["alpha", "beta", "o1", "o2", "order"], other: ["alpha"] });

    const transcript = await runCli(["transcript", "--session", "beta", "--json"], { home });
    expect(transcript.code).toBe(0);
    const entries = transcript.stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(entries.map((e) => [e.seq, e.runId, e.ok])).toEqual([[1, betaRuns[0], true], [2, betaRuns[1], true]]);
    expect(entries[1].snippet).toContain("document.cookie");
    const since = await runCli(["transcript", "--session", "beta", "--since", "1", "--json"], { home });
    expect(since.stdout.trim().split("\n").map((line) => JSON.parse(line).seq)).toEqual([2]);

    const closed = await runCli(["close", "--session", "alpha", "--json"], { home });
    expect(closed.code).toBe(0);
    expect(closed.json).toMatchObject({ ok: true, closed: true, session: "alpha" });
    const after = await runCli(["sessions", "--json"], { home });
    const defaults = (after.json.daemons as { profile: string; sessions: { session: string }[] }[]).find((d) => d.profile === "default")!;
    expect(defaults.sessions.map((s) => s.session).sort()).toEqual(["beta", "o1", "o2", "order"]);
    const closedAgain = await runCli(["close", "--session", "alpha", "--json"], { home });
    expect(closedAgain.json).toMatchObject({ ok: true, closed: false });

    // Gone means gone: a new session of that name starts empty, and its transcript carries on.
    const fresh = await exec("alpha", "return { secret: typeof state.secret, url: page.url() }");
    expect(fresh.json).toMatchObject({ ok: true, result: { secret: "undefined", url: "about:blank" }, seq: 3 });
  });

  it("repl prints one envelope per snippet, in order, joining a chunk that only parses with the next", async () => {
    const input = [
      "state.n = 1",
      "return state.n",
      "",
      "state.n += 1",
      "return state.n",
      "",
      "function times10() {",
      "  const x = state.n;",
      "",
      "  return x * 10;",
      "}",
      "return times10()",
      "",
    ].join("\n");
    const repl = await runCli(["repl", "--session", "replay"], { home, input });
    expect(repl.code, repl.stdout + repl.stderr).toBe(0);
    const lines = repl.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    const envelopes = lines.map((line) => JSON.parse(line));
    expect(envelopes.map((e) => [e.ok, e.result, e.seq, e.session])).toEqual([
      [true, 1, 1, "replay"],
      [true, 2, 2, "replay"],
      [true, 20, 3, "replay"],
    ]);
  });

  it("a run goes on when its client's connection drops, and run.attach returns its envelope", async () => {
    const socketPath = layoutFor(home).socketPath;
    const runId = "dropped-connection-run";
    const dropped = await RawConnection.open(socketPath);
    await dropped.hello();
    dropped.write(`${JSON.stringify({ jsonrpc: "2.0", id: 99, method: "session.exec", params: {
      session: "attach", runId, code: "await new Promise((r) => setTimeout(r, 1000)); return 'finished without its caller'",
    } })}\n`);
    await new Promise((r) => setTimeout(r, 200));
    dropped.close();

    const again = await RawConnection.open(socketPath);
    try {
      await again.hello();
      const attached = await again.call("run.attach", { runId });
      expect(attached.result).toMatchObject({ ok: true, result: "finished without its caller", runId, session: "attach" });
      expect((await again.call("run.attach", { runId })).result).toEqual(attached.result);
      expect((await again.call("run.attach", { runId: "no-such-run" })).error?.data?.code).toBe("RUN_NOT_FOUND");
    } finally {
      again.close();
    }
  });

  it("in-process mode (daemon: false) keeps sessions apart the same way and leaves no daemon behind", async () => {
    const privateHome = tempHome("bw-inproc-");
    try {
      const bw = new BetterWright({ home: privateHome, daemon: false, env: cleanEnv(privateHome) });
      try {
        const alpha = await bw.run(`await page.goto(${JSON.stringify(`${server.url}/set?v=two`)}); state.secret = 7; return page.url()`, { session: "alpha" });
        expect(alpha).toMatchObject({ ok: true, result: `${server.url}/set?v=two`, session: "alpha" });
        const beta = await bw.run(cookieProbe(), { session: "beta" });
        expect(beta).toMatchObject({ ok: true, result: { secret: "undefined", cookie: "sid=two" } });
        expect(beta.pages).toHaveLength(1);
        const back = await bw.run("return { secret: state.secret, url: page.url() }", { session: "alpha" });
        expect(back.result).toEqual({ secret: 7, url: `${server.url}/set?v=two` });
      } finally {
        await bw.close();
      }
      const layout = layoutFor(privateHome);
      expect(existsSync(layout.socketPath)).toBe(false);
      expect(existsSync(layout.infoPath)).toBe(false);
      expect(daemonPids(privateHome)).toEqual([]);
    } finally {
      await destroyHome(privateHome);
    }
  });

  it("in-process mode falls back to an ephemeral profile while the profile's daemon holds the lock", async () => {
    const daemonsBefore = daemonPids(home).sort();
    const runtimeDir = layoutFor(home).runtimeDir;
    const bw = new BetterWright({ home, daemon: false, env: cleanEnv(home) });
    try {
      const probe = await bw.run(cookieProbe(), { session: "beta" });
      // A private browser: not the daemon's cookie jar, not its session state.
      expect(probe).toMatchObject({ ok: true, result: { secret: "undefined", cookie: "" } });
      expect(seenCookies.at(-1)).toBe("");
      expect(readdirSync(runtimeDir)).toHaveLength(1);
    } finally {
      await bw.close();
    }
    expect(existsSync(runtimeDir) ? readdirSync(runtimeDir) : []).toEqual([]);
    expect(daemonPids(home).sort()).toEqual(daemonsBefore);
    const daemonSide = await exec("beta", "return page.url()");
    expect(daemonSide.json, daemonSide.stdout).toMatchObject({ ok: true, result: `${server.url}/echo` });
  });
});
