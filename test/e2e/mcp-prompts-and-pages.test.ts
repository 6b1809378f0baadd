// `betterwright mcp` through the official SDK's client: the BrowserMesh
// contract's prompts (parallel_roles, diagnose_page), its read-only sessions
// resource and its instructions (which a switch leaves out), and an answer
// too long for one reply handed out in parts with `more` instead of as a
// path on the server's disk (unless the host asked for files).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, tempHome } from "../helpers/cli.js";
import { errorCodeOf, startStdioMcp, textOf, type StdioMcp } from "../helpers/mcp-client.js";

// A result past the envelope's bound (12,000 characters), which the daemon spills to a file.
const LONG = "return Array.from({ length: 4000 }, (_, i) => 'line ' + i).join('\\n')";
const FOOTER = /\n\[characters (\d+)–(\d+) of (\d+)(?:; more: call more with cursor "([^"]+)")?[^\]]*\]$/;

describe("MCP prompts, resource, instructions and answers in parts", () => {
  let home: string;
  const servers: StdioMcp[] = [];
  const start = async (args: string[] = []) => {
    const mcp = await startStdioMcp(home, args);
    servers.push(mcp);
    return mcp;
  };

  beforeAll(() => {
    home = tempHome("bw-mcp-prompts-");
  });

  afterAll(async () => {
    for (const mcp of servers) await mcp.close().catch(() => undefined);
    await destroyHome(home);
  });

  it("publishes parallel_roles and diagnose_page, renders them with their arguments, and refuses an unknown one", async () => {
    const mcp = await start();
    const { prompts } = await mcp.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(["diagnose_page", "parallel_roles"]);
    expect(prompts.find((p) => p.name === "parallel_roles")!.arguments!.map((a) => a.name)).toEqual(["task", "roles"]);

    const roles = await mcp.client.getPrompt({ name: "parallel_roles", arguments: { task: "buy a lamp and approve the order", roles: "buyer, admin" } });
    const text = (roles.messages[0]!.content as { text: string }).text;
    expect(text).toContain("buy a lamp and approve the order");
    expect(text).toContain('session_create with name "buyer", isolated true');
    expect(text).toContain('pass session "admin"');

    const diagnose = await mcp.client.getPrompt({ name: "diagnose_page", arguments: { url: "http://127.0.0.1:9/broken" } });
    const steps = (diagnose.messages[0]!.content as { text: string }).text;
    expect(steps).toContain("navigate to http://127.0.0.1:9/broken");
    expect(steps).toContain("observe errors");

    await expect(mcp.client.getPrompt({ name: "teleport", arguments: {} })).rejects.toThrow(/no prompt "teleport"/);
    await expect(mcp.client.getPrompt({ name: "diagnose_page", arguments: {} })).rejects.toThrow(/url is required/);
  });

  it("lists the read-only sessions resource and sends its instructions, unless --no-instructions", async () => {
    const mcp = await start();
    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["betterwright://sessions"]);
    const listing = JSON.parse((await mcp.client.readResource({ uri: "betterwright://sessions" })).contents[0]!.text as string);
    expect(listing).toHaveProperty("sessions");
    expect(mcp.client.getInstructions()).toMatch(/snapshot/);
    expect(mcp.client.getInstructions()).toMatch(/\bfind\b/);

    const quiet = await start(["--no-instructions"]);
    expect(quiet.client.getInstructions()).toBeUndefined();
    expect((await quiet.client.listPrompts()).prompts).toHaveLength(2);
  });

  it("hands out an answer too long for one reply in parts with more, whole, and never as a path", async () => {
    const mcp = await start();
    const whole = JSON.stringify(Array.from({ length: 4000 }, (_, i) => `line ${i}`).join("\n"));
    const parts: string[] = [];
    let text = textOf(await mcp.client.callTool({ name: "run", arguments: { code: LONG } }));
    for (let i = 0; i < 20; i++) {
      expect(text).not.toMatch(/result cut|\/artifacts\//);
      const footer = FOOTER.exec(text.split("\n\n")[0]!.trimEnd()) ?? FOOTER.exec(text);
      expect(footer, text.slice(-300)).not.toBeNull();
      parts.push(text.slice(0, footer!.index));
      expect(Number(footer![3])).toBe(whole.length);
      if (footer![4] === undefined) break;
      text = textOf(await mcp.client.callTool({ name: "more", arguments: { cursor: footer![4] } }));
    }
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.join("")).toBe(whole);
    expect(errorCodeOf(await mcp.client.callTool({ name: "more", arguments: { cursor: "a999.0" } }))).toBe("INVALID_ARGUMENT");

    const files = await start(["--large-results", "files"]);
    const asFile = textOf(await files.client.callTool({ name: "run", arguments: { code: LONG } }));
    expect(asFile).toMatch(/result cut: .* in \/\S+/);
  });
});
