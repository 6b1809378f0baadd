// A snippet's JSON `args`, from every front door: the CLI's --args, the
// library's run(code, { args }) and the MCP run tool. The snippet sees them as
// ordinary objects of its own context (nothing of the host's reaches it through
// them), `args` is undefined when none were given, bad JSON is a usage error,
// and the transcript keeps them beside the snippet.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright } from "../../client/index.js";
import { cleanEnv, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startStdioMcp } from "../helpers/mcp-client.js";

describe("a snippet's args", () => {
  let home: string;
  beforeAll(() => {
    home = tempHome("bw-args-");
  });
  afterAll(async () => {
    await destroyHome(home);
  });

  it("reach the snippet from the CLI as data of its own realm; absent, args is undefined", async () => {
    const given = { url: "about:blank", list: [1, { deep: true }], text: "é\u2028" };
    const r = await runCli(["exec", "--session", "args", "--args", JSON.stringify(given), "-c", `
      let leaked = "no";
      try { leaked = typeof args.constructor.constructor("return process")(); } catch (e) { leaked = e.name; }
      args.list.push(2);
      return { args, isArray: Array.isArray(args.list), leaked }`], { home });
    expect(r.json).toMatchObject({ ok: true, result: { args: { ...given, list: [1, { deep: true }, 2] }, isArray: true, leaked: "EvalError" } });
    const none = await runCli(["exec", "--session", "args", "-c", "return typeof args"], { home });
    expect(none.json).toMatchObject({ ok: true, result: "undefined" });
    const transcript = await runCli(["transcript", "--session", "args", "--json"], { home });
    expect(transcript.stdout).toContain("// args: ");
  });

  it("refuses --args that is not JSON with exit 2, before anything runs", async () => {
    const r = await runCli(["exec", "--session", "args", "--args", "{not json", "-c", "return 1"], { home });
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).toMatch(/--args: not valid JSON/);
  });

  it("reach the snippet from the library and from the MCP run tool", async () => {
    const bw = new BetterWright({ home, env: cleanEnv(home) });
    try {
      expect(await bw.run("return args.n * 2", { session: "lib", args: { n: 21 } })).toMatchObject({ ok: true, result: 42 });
      await expect(bw.run("return 1", { session: "lib", args: { big: "x".repeat(1_000_001) } })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    } finally {
      await bw.close();
    }
    const mcp = await startStdioMcp(home);
    try {
      const result = await mcp.client.callTool({ name: "run", arguments: { code: "return args.who", args: { who: "mcp" } } });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.content)).toContain("mcp");
    } finally {
      await mcp.close();
    }
  });
});
