// What a newcomer reads when something goes wrong: every message names what
// the user typed or asked for, in their words, never our plumbing (the guard's
// proxy, the snippet's wrapper, Playwright's terminal colours).
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

describe("the CLI's messages", () => {
  let server: TestServer;
  let home: string;
  let deadPort: number;

  beforeAll(async () => {
    server = await startServer({ "/": "<title>home</title><p>hello</p>" });
    home = tempHome("bw-messages-");
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    deadPort = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
  });

  afterAll(async () => {
    await runCli(["close", "--all"], { home });
    await destroyHome(home);
    await server.close();
  });

  it("policy check with policy flags is a dry run beside a busy daemon with other settings", async () => {
    const live = await runCli(["exec", "--session", "busy", "-c", `await page.goto(${JSON.stringify(server.url)}); return page.title()`], { home });
    expect(live.json, live.stderr).toMatchObject({ ok: true, result: "home" });
    const url = `http://localhost:${server.port}/`;
    const hardened = await runCli(["policy", "check", url, "--policy", "public-web", "--json"], { home });
    expect(hardened.stderr).toBe("");
    expect(hardened.code).toBe(1);
    expect(hardened.json).toMatchObject({ allowed: false, policy: { allowLoopback: false, onlyPorts: [80, 443] } });
    // The refusal says how to lift it.
    expect(hardened.json.reason).toContain(`--allow-host localhost:${server.port}`);
    const plain = await runCli(["policy", "check", url, "--json"], { home });
    expect(plain.json).toMatchObject({ allowed: true, policy: { allowLoopback: true } });
    // The daemon kept its settings and its session.
    const after = await runCli(["exec", "--session", "busy", "-c", "return page.url()"], { home });
    expect(after.json).toMatchObject({ ok: true, result: `${server.url}/` });
  });

  it("a URL without a scheme is a usage error that suggests one", async () => {
    const r = await runCli(["navigate", "example.com", "--json"], { home });
    expect(r.code).toBe(2);
    expect(r.json.error.code).toBe("INVALID_ARGUMENT");
    expect(r.json.error.message).toContain("https://example.com");
    const local = await runCli(["navigate", `localhost:${server.port}/`, "--json"], { home });
    expect(local.json.error.message).toContain(`http://localhost:${server.port}/`);
  });

  it("a refused port reads as a refused connection to that host and port, not as our proxy's failure", async () => {
    for (const args of [["navigate", `http://127.0.0.1:${deadPort}/`], ["exec", "-c", `await page.goto("http://127.0.0.1:${deadPort}/")`]]) {
      const r = await runCli([...args, "--json"], { home });
      expect(r.json.error.code, args[0]).toBe("NAVIGATION_FAILED");
      expect(r.json.error.message).toContain(`connection refused to 127.0.0.1:${deadPort}`);
      expect(r.json.error.message).not.toMatch(/SOCKS|proxy/i);
    }
  });

  it("a snippet that does not parse is told where, in the snippet as typed", async () => {
    const unfinished = await runCli(["exec", "-c", "return page.title(", "--json"], { home });
    expect(unfinished.json.error.code).toBe("SNIPPET_SYNTAX_ERROR");
    expect(unfinished.json.error.message).toMatch(/line 1\b/);
    expect(unfinished.json.error.message).not.toContain("'}'");
    const wrong = await runCli(["exec", "-c", "const a = 1;\nlet b = ;", "--json"], { home });
    expect(wrong.json.error.message).toContain("at line 2, column 9");
  });

  it("Playwright's colour codes never reach a message", async () => {
    const code = `await page.goto(${JSON.stringify(server.url)}); try { await page.click("#nowhere", { timeout: 300 }); } catch (e) { return e.message; }`;
    const caught = await runCli(["exec", "-c", code, "--json"], { home });
    expect(caught.json.ok).toBe(true);
    expect(caught.json.result).toContain("#nowhere");
    expect(caught.json.result).not.toContain("\u001b");
    const thrown = await runCli(["exec", "-c", `await page.click("#nowhere", { timeout: 300 })`, "--json"], { home });
    expect(thrown.json.error.message).toContain("#nowhere");
    expect(thrown.json.error.message).not.toContain("\u001b");
  });
});
