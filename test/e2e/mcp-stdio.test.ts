// `betterwright mcp` over stdio, driven by the official MCP SDK's client as an
// agent host drives it (node dist/bin/betterwright.js mcp), against pages on
// 127.0.0.1: the tool list (small by default, complete with --tools all), the
// browse → snapshot → click-by-ref loop, snippets, screenshots as images,
// errors with their codes, several servers of one profile on one daemon with
// a session each, isolated cookies, cancellation and progress, a daemon lost
// mid-call. Every server of the home states the same policy (a blocked
// loopback name), so they share one daemon.
import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS } from "../../shared/protocol/operations/index.js";
import { CORE_LIST_MAX_CHARS, CORE_TOOLS } from "../../client/front-doors/mcp/tools.js";
import { CLI, daemonPids, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { errorCodeOf, refOf, startStdioMcp, textOf, type StdioMcp } from "../helpers/mcp-client.js";
import { daemonProcessesOf, waitForExit } from "../helpers/procs.js";

const BLOCKED_NAME = "blocked.localhost";
const POLICY = ["--block-host", BLOCKED_NAME];

describe("betterwright mcp over stdio", () => {
  let home: string;
  let server: TestServer;
  let a: StdioMcp;
  const others: StdioMcp[] = [];

  const start = async (args: string[] = [], name?: string) => {
    const mcp = await startStdioMcp(home, [...POLICY, ...args], name);
    others.push(mcp);
    return mcp;
  };
  const sessionsOf = async (mcp: StdioMcp) => (await mcp.client.callTool({ name: "session_list", arguments: {} })).structuredContent as { current: string; sessions: { session: string; isolated: boolean; current?: boolean }[] };

  beforeAll(async () => {
    home = tempHome("bw-mcp-");
    server = await startServer({
      "/": `<title>Start</title><h1>Start</h1><button onclick="document.querySelector('#out').textContent='clicked'">Go</button><p id="out">waiting</p><a href="/second">next</a>`,
      "/second": "<title>Second</title><p>the second page</p>",
      "/set-cookie": (_req: http.IncomingMessage, res: http.ServerResponse) => {
        res.writeHead(200, { "content-type": "text/html", "set-cookie": "who=alice; Path=/" }).end("<title>set</title>");
      },
      "/cookie": (req: http.IncomingMessage, res: http.ServerResponse) => {
        res.writeHead(200, { "content-type": "text/html" }).end(`<title>cookie</title><p>cookie: ${req.headers.cookie ?? "none"}</p>`);
      },
    });
    a = await startStdioMcp(home, POLICY, "agent A");
  });

  afterAll(async () => {
    for (const mcp of [a, ...others]) await mcp?.close().catch(() => undefined);
    await destroyHome(home);
    await server.close();
  });

  it("lists a small core set by default, and every operation with the table's arguments under --tools all", async () => {
    const listed = await a.client.listTools();
    const chars = JSON.stringify(listed).length;
    console.log(`tools/list over stdio: core ${listed.tools.length} tools, ${chars} characters`);
    expect(chars).toBeLessThanOrEqual(CORE_LIST_MAX_CHARS);
    expect(listed.tools.map((t) => t.name).sort()).toEqual([...CORE_TOOLS].sort());

    const full = await start(["--tools", "all"]);
    const all = (await full.client.listTools()).tools;
    console.log(`tools/list over stdio: all ${all.length} tools, ${JSON.stringify({ tools: all }).length} characters`);
    for (const op of OPERATIONS) {
      const tool = all.find((t) => t.name === op.name);
      expect(tool, op.name).toBeDefined();
      expect(Object.keys(tool!.inputSchema.properties ?? {})).toEqual([...op.args.map((arg) => arg.name), "session"]);
      expect(tool!.description).toBe(op.help);
    }
    for (const name of ["run", "session_create", "session_list", "session_close", "state_save", "state_list", "state_remove", "runtime_info"]) expect(all.map((t) => t.name)).toContain(name);
    await full.close();
  });

  it("navigates, snapshots, clicks by ref and reads the result", async () => {
    const nav = await a.client.callTool({ name: "navigate", arguments: { url: `${server.url}/` } });
    expect(nav.isError).toBeFalsy();
    expect(JSON.parse(textOf(nav))).toMatchObject({ title: "Start", status: 200 });
    const snap = textOf(await a.client.callTool({ name: "snapshot", arguments: {} }));
    expect(snap).toMatch(/button "Go"/);
    const click = await a.client.callTool({ name: "click", arguments: { target: refOf(snap, 'button "Go"') } });
    expect(click.isError).toBeFalsy();
    const read = textOf(await a.client.callTool({ name: "read", arguments: {} }));
    expect(read).toContain("clicked");
    expect(read.startsWith(`Start — ${server.url}/`)).toBe(true);
  });

  it("says under a diff what changed, and under a whole snapshot that it is all of it", async () => {
    await a.client.callTool({ name: "navigate", arguments: { url: `${server.url}/` } });
    const first = textOf(await a.client.callTool({ name: "snapshot", arguments: { diff: true } }));
    expect(first).toMatch(/\[[^\]]*all of it[^\]]*\]$/);
    expect(first).not.toMatch(/diff: \d+ added/);
    await a.client.callTool({ name: "click", arguments: { target: refOf(first, 'button "Go"') } });
    const diff = textOf(await a.client.callTool({ name: "snapshot", arguments: { diff: true } }));
    expect(diff).toContain("+ - paragraph: clicked");
    expect(diff).toMatch(/diff: 2 added, 2 removed\]$/); // the paragraph, and the button now focused
    expect(diff).not.toContain("all of it");
  });

  it("runs a snippet in the connection's session, and returns screenshots as images", async () => {
    const run = await a.client.callTool({ name: "run", arguments: { code: "return { title: await page.title(), sum: 1 + 2 }" } });
    expect(run.isError).toBeFalsy();
    expect(textOf(run)).toContain('{"title":"Start","sum":3}');

    const shot = await a.client.callTool({ name: "screenshot", arguments: {} });
    const image = (shot.content as { type: string; data?: string; mimeType?: string }[]).find((c) => c.type === "image");
    expect(image?.mimeType).toBe("image/png");
    expect(Buffer.from(image!.data!, "base64").subarray(1, 4).toString()).toBe("PNG");
    expect(textOf(shot)).toMatch(/"width":\d+/);
  });

  it("fails with the stable code and the next step: a stale ref, a blocked URL, a bad argument", async () => {
    const snap = textOf(await a.client.callTool({ name: "snapshot", arguments: {} }));
    const link = refOf(snap, 'link "next"');
    await a.client.callTool({ name: "navigate", arguments: { url: `${server.url}/second` } });
    const stale = await a.client.callTool({ name: "click", arguments: { target: link } });
    expect(errorCodeOf(stale)).toBe("STALE_REF");
    expect(textOf(stale)).toMatch(/Next: take a new snapshot/);

    const blocked = await a.client.callTool({ name: "run", arguments: { code: `await page.goto("http://${BLOCKED_NAME}:${server.port}/")` } });
    expect(errorCodeOf(blocked)).toBe("BLOCKED_URL");
    expect(textOf(blocked)).toMatch(/Next: the network policy refuses this address/);
    expect(server.requests.some((r) => r.includes(BLOCKED_NAME))).toBe(false);

    const bad = await a.client.callTool({ name: "click", arguments: { target: "#not-a-ref" } });
    expect(errorCodeOf(bad)).toBe("INVALID_ARGUMENT");
    const unknown = await a.client.callTool({ name: "navigate", arguments: { url: `${server.url}/`, bogus: true } });
    expect(errorCodeOf(unknown)).toBe("INVALID_ARGUMENT");
  });

  it("keeps snippets in the sandbox", async () => {
    const probes = [
      "return typeof process + typeof require + typeof fetch",
      "return this.constructor.constructor('return process')().pid",
      "return (async () => (await import('node:fs')).readFileSync('/etc/passwd', 'utf8'))()",
    ];
    const results = await Promise.all(probes.map((code) => a.client.callTool({ name: "run", arguments: { code } })));
    expect(textOf(results[0]!)).toContain('"undefinedundefinedundefined"');
    for (const escape of results.slice(1)) {
      expect(escape.isError).toBe(true);
      expect(["SNIPPET_ERROR", "SNIPPET_SYNTAX_ERROR"]).toContain(errorCodeOf(escape));
    }
  });

  it("serves several MCP clients of one profile from one daemon, each in a session of its own", async () => {
    await a.client.callTool({ name: "navigate", arguments: { url: `${server.url}/second` } });
    const b = await start(["--tools", "all"], "agent B");
    const bRead = textOf(await b.client.callTool({ name: "read", arguments: {} }));
    expect(bRead).toContain("about:blank");
    const listing = await sessionsOf(b);
    const aListing = await sessionsOf(a);
    expect(listing.current).toMatch(/^mcp-agent-b-[0-9a-f]{6}$/);
    expect(aListing.current).toMatch(/^mcp-agent-a-[0-9a-f]{6}$/);
    expect(listing.sessions.map((s) => s.session)).toEqual(expect.arrayContaining([listing.current, aListing.current]));
    expect(daemonPids(home)).toHaveLength(1);
    expect(daemonProcessesOf(home)).toHaveLength(1);
    const info = JSON.parse(textOf(await b.client.callTool({ name: "runtime_info", arguments: {} })));
    expect(info.daemon.pid).toBe(daemonPids(home)[0]);
    expect(info.daemon.browser).toBe("running");

    // B reaches A's session by name, and sees A's page there.
    const inA = textOf(await b.client.callTool({ name: "read", arguments: { session: aListing.current } }));
    expect(inA).toContain("the second page");

    // Sessions made by a tool, with labels the server shows (tools and the sessions resource), and saved states.
    const made = await b.client.callTool({ name: "session_create", arguments: { name: "mcp-buyer", isolated: true, locale: "en-GB", labels: ["role=buyer"] } });
    expect(made.structuredContent).toMatchObject({ session: "mcp-buyer", created: true, isolated: true, settings: { locale: "en-GB" }, labels: { role: "buyer" } });
    expect((await b.client.callTool({ name: "navigate", arguments: { url: `${server.url}/set-cookie`, session: "mcp-buyer" } })).isError).toBeFalsy();
    const resource = await b.client.readResource({ uri: "betterwright://sessions" });
    const fromResource = JSON.parse((resource.contents[0] as { text: string }).text) as { sessions: { session: string; labels?: Record<string, string> }[] };
    expect(fromResource.sessions.find((s) => s.session === "mcp-buyer")?.labels).toEqual({ role: "buyer" });
    const saved = await b.client.callTool({ name: "state_save", arguments: { name: "buyer-login", session: "mcp-buyer" } });
    expect(saved.structuredContent).toMatchObject({ name: "buyer-login", cookies: 1 });
    expect(JSON.stringify((await b.client.callTool({ name: "state_list", arguments: {} })).structuredContent)).toContain("buyer-login");
    expect((await b.client.callTool({ name: "state_remove", arguments: { name: "buyer-login" } })).structuredContent).toMatchObject({ removed: true });
    expect(errorCodeOf(await b.client.callTool({ name: "state_remove", arguments: { name: "buyer-login" } }))).toBe("STATE_NOT_FOUND");
    expect((await b.client.callTool({ name: "session_close", arguments: { name: "mcp-buyer" } })).structuredContent).toMatchObject({ closed: true });

    // Its own session goes when the connection does.
    await b.close();
    const until = Date.now() + 10_000;
    while ((await sessionsOf(a)).sessions.some((s) => s.session === listing.current) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect((await sessionsOf(a)).sessions.map((s) => s.session)).not.toContain(listing.current);
  });

  it("gives --isolated connections a cookie jar of their own; shared ones see the profile's", async () => {
    await a.client.callTool({ name: "navigate", arguments: { url: `${server.url}/set-cookie` } });
    const shared = await start([], "agent shared");
    const isolated = await start(["--isolated"], "agent iso");
    await shared.client.callTool({ name: "navigate", arguments: { url: `${server.url}/cookie` } });
    await isolated.client.callTool({ name: "navigate", arguments: { url: `${server.url}/cookie` } });
    expect(textOf(await shared.client.callTool({ name: "read", arguments: {} }))).toContain("cookie: who=alice");
    expect(textOf(await isolated.client.callTool({ name: "read", arguments: {} }))).toContain("cookie: none");
    const isoSession = (await sessionsOf(isolated)).sessions.find((s) => s.current);
    expect(isoSession?.isolated).toBe(true);
    await shared.close();
    await isolated.close();
  });

  it("ends a long wait when the client cancels it, and reports progress while a call runs", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = a.client.callTool({ name: "wait_for", arguments: { text: "this text never appears" } }, { signal: controller.signal });
    setTimeout(() => controller.abort("the user pressed stop"), 1_000);
    await expect(waiting).rejects.toThrow();
    // The session's lane is free again at once: the next call does not queue behind a 30 s wait.
    const next = await a.client.callTool({ name: "run", arguments: { code: "return 7" } });
    expect(textOf(next)).toContain("7");
    expect(Date.now() - started).toBeLessThan(15_000);

    const progress: unknown[] = [];
    const paused = await a.client.callTool({ name: "wait_for", arguments: { ms: 2_600 } }, { onprogress: (p) => void progress.push(p) });
    expect(paused.isError).toBeFalsy();
    expect(progress.length).toBeGreaterThanOrEqual(1);
  });

  it("prints the configuration an agent host needs", async () => {
    const printed = await runCli(["--profile", "work", "mcp", "--isolated", "--print-config"], { home });
    expect(printed.code).toBe(0);
    const entry = printed.json.mcpServers.betterwright;
    expect(entry.command).toBe(process.execPath);
    expect(entry.args).toEqual([CLI, "mcp", "--profile", "work", "--isolated"]);
    // The policy a server was started with is part of how the host must start it again.
    const hardened = await runCli(["mcp", "--policy", "public-web", "--block-host", "ads.example", "--print-config"], { home });
    expect(hardened.json.mcpServers.betterwright.args).toEqual([CLI, "mcp", "--policy", "public-web", "--block-host", "ads.example"]);
    // So are the remote browsers it places sessions on.
    const remote = await runCli(["mcp", "--browser-endpoint", "ws://10.0.0.20:3000/grid", "--trust-remote-egress", "--print-config"], { home });
    expect(remote.json.mcpServers.betterwright.args).toEqual([CLI, "mcp", "--trust-remote-egress", "--browser-endpoint", "ws://10.0.0.20:3000/grid"]);
  });

  it("keeps a --session lane open after its connection ends", async () => {
    const lane = await start(["--session", "mcp-shared-lane"]);
    const nav = await lane.client.callTool({ name: "navigate", arguments: { url: `${server.url}/second` } });
    // A failed navigation names its error (a code, Chromium's net:: error) here rather than as an error page further on.
    expect(nav.isError, textOf(nav)).toBeFalsy();
    expect(JSON.parse(textOf(nav))).toMatchObject({ title: "Second", status: 200 });
    expect((await sessionsOf(lane)).current).toBe("mcp-shared-lane");
    await lane.close();
    await new Promise((r) => setTimeout(r, 500));
    expect((await sessionsOf(a)).sessions.map((s) => s.session)).toContain("mcp-shared-lane");
    expect(textOf(await a.client.callTool({ name: "read", arguments: { session: "mcp-shared-lane" } }))).toContain("the second page");
  });

  it("answers a call cut short by the daemon's death with a tool error, and the next call works", async () => {
    const [pid] = daemonPids(home);
    const waiting = a.client.callTool({ name: "wait_for", arguments: { ms: 8_000 } });
    await new Promise((r) => setTimeout(r, 1_000));
    process.kill(-pid!, "SIGKILL");
    expect(await waitForExit([pid!], 10_000)).toEqual([]);
    const cut = await waiting;
    expect(cut.isError).toBe(true);
    expect(["SESSION_RESET", "DAEMON_UNAVAILABLE", "BROWSER_DISCONNECTED"]).toContain(errorCodeOf(cut));
    const again = await a.client.callTool({ name: "navigate", arguments: { url: `${server.url}/` } });
    expect(again.isError).toBeFalsy();
    expect(daemonPids(home)).toHaveLength(1);
    expect(daemonPids(home)[0]).not.toBe(pid);
  });
});
