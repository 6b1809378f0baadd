// One voice for the CLI: typed verbs print text for a person at a terminal and
// the envelope for programs (piped, or --json); a usage error is one line on
// stderr naming what was typed, with a guess at what was meant, and exit 2.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, runCli, startCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { call, startServe } from "../helpers/serve.js";

const PNG_MAGIC = "89504e47";

describe("the CLI's voice", () => {
  let server: TestServer;
  let home: string;

  beforeAll(async () => {
    server = await startServer({ "/": "<title>Front page</title><h1>Welcome</h1><button>Go</button>" });
    home = tempHome("bw-voice-");
  });

  afterAll(async () => {
    await runCli(["close", "--all"], { home });
    await destroyHome(home);
    await server.close();
  });

  it("a typed verb prints a line for people on a terminal, the envelope when piped or with --json", async () => {
    const url = `${server.url}/`;
    const onTerminal = await runCli(["navigate", url], { home, terminal: true });
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.stdout.trim()).toBe(`Front page  ${url}  [200]`);
    const piped = await runCli(["navigate", url], { home });
    expect(piped.json).toMatchObject({ ok: true, result: { url, title: "Front page", status: 200 } });
    const asked = await runCli(["tabs", "--json"], { home, terminal: true });
    expect(JSON.parse(asked.stdout)).toMatchObject({ ok: true, result: { active: "p1" } });
    const tabs = await runCli(["tabs"], { home, terminal: true });
    expect(tabs.stdout.trim()).toBe(`* p1  Front page  ${url}`);
    const failed = await runCli(["click", "e999"], { home, terminal: true });
    expect(failed.code).toBe(1);
    expect(failed.stdout.trim()).toMatch(/^betterwright: .*e999.* \[STALE_REF\]$/);
  });

  it("screenshot FILE writes the image there and prints its path", async () => {
    const file = path.join(home, "shots", "..", "out.png");
    const r = await runCli(["screenshot", file], { home, terminal: true });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe(path.resolve(file));
    expect(readFileSync(file).subarray(0, 4).toString("hex")).toBe(PNG_MAGIC);
    expect(statSync(file).isFile()).toBe(true);
    const piped = await runCli(["screenshot", path.join(home, "two.jpg")], { home });
    expect(piped.json).toMatchObject({ ok: true, result: { type: "jpeg", file: path.join(home, "two.jpg") } });
    const wrong = await runCli(["screenshot", path.join(home, "notes.txt")], { home });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^betterwright: FILE: .*notes\.txt.*\.png/);
  });

  it("a usage error is one line on stderr naming the flag as typed, exit 2; JSON with --json", async () => {
    const bad = await runCli(["snapshot", "--max-chars", "5"], { home });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr.trim().split("\n")).toEqual(["betterwright: --max-chars: must be at least 200 [INVALID_ARGUMENT]"]);
    const json = await runCli(["snapshot", "--max-chars", "5", "--json"], { home });
    expect(json.code).toBe(2);
    expect(json.json).toEqual({ ok: false, error: { code: "INVALID_ARGUMENT", message: "--max-chars: must be at least 200", retryable: false } });
    const execBad = await runCli(["exec", "--args", "{", "-c", "return 1"], { home });
    expect(execBad.code).toBe(2);
    expect(execBad.stderr.trim().split("\n")).toEqual(["betterwright: --args: not valid JSON [INVALID_ARGUMENT]"]);
  });

  it("an unknown command or flag gets a guess at what was meant", async () => {
    const command = await runCli(["exce", "-c", "return 1"], { home });
    expect(command.code).toBe(2);
    expect(command.stderr.trim()).toBe("betterwright: Unknown command 'exce'. Did you mean 'exec'? [INVALID_ARGUMENT]");
    const flag = await runCli(["exec", "--sesion", "x", "-c", "return 1"], { home });
    expect(flag.stderr.trim()).toBe("betterwright: Unknown flag '--sesion' for exec. Did you mean '--session'? [INVALID_ARGUMENT]");
    const verbFlag = await runCli(["snapshot", "--max-char", "300", "--json"], { home });
    expect(verbFlag.json.error.message).toBe("Unknown flag '--max-char' for snapshot. Did you mean '--max-chars'?");
    const sub = await runCli(["vault", "lst"], { home });
    expect(sub.stderr).toContain("Did you mean 'vault list'?");
  });

  it("typed verbs take exec's session-creation flags, --isolated included", async () => {
    const r = await runCli(["navigate", "--isolated", "--session", "iso", `${server.url}/`], { home });
    expect(r.json, r.stderr).toMatchObject({ ok: true });
    const listed = await runCli(["sessions", "--json"], { home });
    const iso = listed.json.daemons[0].sessions.find((s: { session: string }) => s.session === "iso");
    expect(iso).toMatchObject({ isolated: true });
  });

  it("close --all stops every profile's daemon that sessions lists; --profile narrows it to one", async () => {
    for (const profile of ["default", "one", "two", "three"]) {
      const r = await runCli([...(profile === "default" ? [] : ["--profile", profile]), "exec", "-c", "return 1"], { home });
      expect(r.json, r.stderr).toMatchObject({ ok: true });
    }
    const narrowed = await runCli(["--profile", "three", "close", "--all", "--json"], { home });
    expect(narrowed.json).toMatchObject({ ok: true, stopped: true, profile: "three" });
    const listed = async () => ((await runCli(["sessions", "--json"], { home })).json.daemons as { profile: string }[]).map((d) => d.profile).sort();
    expect(await listed()).toEqual(["default", "one", "two"]);
    const all = await runCli(["close", "--all"], { home, terminal: true });
    expect(all.code).toBe(0);
    expect(all.stdout).toContain("stopped the daemon of profile one");
    expect(await listed()).toEqual([]);
  });

  it("mcp started by hand on a terminal says what it speaks and how to configure a host; from a host, nothing", async () => {
    const started = startCli(["mcp"], { home, terminal: true });
    let seen = "";
    started.child.stdout!.on("data", (d) => (seen += d));
    const until = Date.now() + 30_000;
    while (!seen.includes("--print-config") && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    started.child.kill("SIGTERM");
    await started.result.catch(() => undefined);
    expect(seen).toContain("betterwright mcp speaks MCP");
    expect(seen).toContain("betterwright mcp --print-config");
    const fromHost = await runCli(["mcp"], { home, input: "" });
    expect(fromHost.stderr).not.toContain("speaks MCP");
  });

  it("serve announces an --allow-host on stderr and in /health: it lets through more than the public web", async () => {
    const served = await startServe(home, ["--profile", "served", "--allow-host", `127.0.0.1:${server.port}`]);
    try {
      expect(served.stderr()).toMatch(new RegExp(`serve: the network policy is custom, not public-web: .*also allowed: 127\\.0\\.0\\.1:${server.port}`));
      expect((await call(served, "GET", "/health", { token: null })).json).toEqual({ status: "ok", policy: "custom" });
    } finally {
      await served.stop();
    }
    const plain = await startServe(home, ["--profile", "plain"]);
    try {
      expect(plain.stderr()).not.toContain("not public-web");
      expect((await call(plain, "GET", "/health", { token: null })).json).toEqual({ status: "ok" });
    } finally {
      await plain.stop();
    }
  });

  it("help names one-letter flags as they are typed", async () => {
    const help = await runCli(["screenshot", "--help"], { home });
    expect(help.stdout).toContain("(with -y)");
    expect(help.stdout).not.toContain("--y");
  });
});
