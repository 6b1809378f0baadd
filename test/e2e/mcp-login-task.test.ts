// Signing in over `betterwright mcp` with the default (core) tools, as an
// agent does it: navigate, snapshot, fill both fields, click, and read the
// page where the click's answer does not already say who signed in. Held to
// what Playwright's MCP server took for the same task (5 calls, 1,959 bytes
// with browser_fill_form; docs/performance.md). The password never comes back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { countedCalls, startStdioMcp, type StdioMcp } from "../helpers/mcp-client.js";

const PEER_CALLS = 5;
const PEER_BYTES = 1_959;
const USER = "ada";
const PASSWORD = "correct horse 8731";
const WELCOME = "Welcome, ada";

const LOGIN = `<title>Sign in</title><main><h1>Sign in</h1>
  <form method="post" action="/login"><label>Username <input name="user" autocomplete="username"></label>
  <label>Password <input name="password" type="password" autocomplete="current-password"></label><button>Sign in</button></form></main>`;

describe("the login task over MCP with the core tools", () => {
  let home: string;
  let server: TestServer;
  let mcp: StdioMcp;

  beforeAll(async () => {
    home = tempHome("bw-mcp-login-");
    server = await startServer({
      "/login": (req, res) => {
        if (req.method !== "POST") return void res.writeHead(200, { "content-type": "text/html" }).end(LOGIN);
        let body = "";
        req.on("data", (d) => (body += d));
        req.on("end", () => {
          const form = new URLSearchParams(body);
          const ok = form.get("user") === USER && form.get("password") === PASSWORD;
          res.writeHead(ok ? 303 : 401, ok ? { location: "/welcome" } : { "content-type": "text/html" }).end(ok ? "" : LOGIN);
        });
      },
      "/welcome": `<title>Welcome</title><main><h1>${WELCOME}</h1><p>You have 3 new messages.</p></main>`,
    });
    mcp = await startStdioMcp(home);
  });

  afterAll(async () => {
    await mcp?.close().catch(() => undefined);
    await destroyHome(home);
    await server.close();
  });

  it("signs in in no more calls and bytes than Playwright's MCP server, filling the form in one call", async () => {
    const tools = new Set((await mcp.client.listTools()).tools.map((t) => t.name));
    const task = countedCalls(mcp.client);
    const call = task.call;
    const refOf = (text: string, line: string) => {
      const ref = new RegExp(`${line.replace(/"/g, '\\"')} \\[((?:f\\d+)?e\\d+)\\]`).exec(text)?.[1];
      expect(ref, text).toBeDefined();
      return ref!;
    };

    await call("navigate", { url: `${server.url}/login` });
    const form = await call("snapshot", {});
    const fields = [{ target: refOf(form, 'textbox "Username"'), value: USER }, { target: refOf(form, 'textbox "Password"'), value: PASSWORD }];
    // As an agent would: one call for the form where the tools offer one, else one per field.
    if (tools.has("fill_form")) await call("fill_form", { fields });
    else for (const field of fields) await call("fill", field);
    const clicked = await call("click", { target: refOf(form, 'button "Sign in"') });
    if (!clicked.includes(WELCOME)) expect(await call("read", {})).toContain(WELCOME);

    console.log(`login task over MCP (core tools): ${task.calls} calls, ${task.bytes} bytes; Playwright MCP: ${PEER_CALLS} calls, ${PEER_BYTES} bytes`);
    expect(tools.has("fill_form")).toBe(true);
    expect(task.calls).toBeLessThanOrEqual(PEER_CALLS);
    expect(task.bytes).toBeLessThanOrEqual(PEER_BYTES);
    for (const answer of task.answers) expect(answer).not.toContain(PASSWORD);
  });
});
