// The MCP tool list is the operation table seen through one schema mapping:
// every operation is a tool whose input schema has exactly the table's
// arguments (plus `session`), with its kinds, choices, bounds and required
// ones; the default list stays small; a schema-valid call is what the table's
// validator accepts.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkOperationArgs, OPERATIONS, TARGET_KINDS, checkTarget } from "../../shared/protocol/operations/index.js";
import { allTools, CORE_LIST_MAX_CHARS, CORE_TOOLS, selectTools } from "../../client/front-doors/mcp/tools.js";
import { FRONT_DOOR_TOOLS } from "../../client/front-doors/mcp/front-door-tools.js";
import { TARGET_SCHEMA, kindSchema } from "../../client/front-doors/mcp/schema.js";
import { BwError } from "../../shared/protocol/errors.js";

/** The size an MCP client receives for tools/list, as JSON characters. */
const listChars = (tools: ReturnType<typeof allTools>) => JSON.stringify({ tools: tools.map((t) => t.definition) }).length;

describe("MCP tools from the operation table", () => {
  const all = allTools();

  it("serves every operation and every front-door tool, once each", () => {
    const names = all.map((t) => t.spec.name);
    expect(names).toEqual([...OPERATIONS.map((o) => o.name), ...FRONT_DOOR_TOOLS.map((t) => t.name)]);
    expect(new Set(names).size).toBe(names.length);
  });

  it("gives each tool the table's arguments, kinds, choices and required ones, plus session where it runs in one", () => {
    for (const tool of all) {
      const schema = tool.definition.inputSchema as { type: string; properties: Record<string, Record<string, unknown>>; required?: string[]; additionalProperties: boolean };
      expect(schema.type).toBe("object");
      expect(schema.additionalProperties).toBe(false);
      const expected = [...tool.spec.args.map((a) => a.name), ...(tool.inSession ? ["session"] : [])];
      expect(Object.keys(schema.properties)).toEqual(expected);
      expect(schema.required ?? []).toEqual(tool.spec.args.filter((a) => a.required).map((a) => a.name));
      expect(tool.definition.description).toBe(tool.spec.help);
      for (const arg of tool.spec.args) {
        const prop = schema.properties[arg.name]!;
        expect(prop.description).toBe(arg.help);
        expect({ ...prop, description: undefined }).toEqual({ ...kindSchema(arg.type), description: undefined });
        if (arg.type.kind === "string" && arg.type.choices) expect(prop.enum).toEqual([...arg.type.choices]);
        if (arg.type.kind === "number" && arg.type.integer) expect(prop.type).toBe("integer");
      }
    }
  });

  it("every operation tool runs in a session and is annotated", () => {
    for (const tool of all.filter((t) => t.kind === "operation")) {
      expect(tool.inSession).toBe(true);
      expect(typeof tool.definition.annotations.readOnlyHint).toBe("boolean");
    }
    expect(all.find((t) => t.spec.name === "snapshot")!.definition.annotations.readOnlyHint).toBe(true);
    expect(all.find((t) => t.spec.name === "click")!.definition.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(all.find((t) => t.spec.name === "navigate")!.definition.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it("describes targets the way checkTarget reads them", () => {
    const objectBranch = (TARGET_SCHEMA.anyOf as Record<string, unknown>[])[1] as {
      properties: Record<string, { type: string }>; propertyNames: { enum: string[] }; additionalProperties: { type: string };
    };
    const fields = objectBranch.propertyNames.enum;
    for (const kind of TARGET_KINDS) expect(fields).toContain(kind);
    // Each field's type as the schema gives it: its own entry, else the one every other field has.
    const typeOf = (key: string) => objectBranch.properties[key]?.type ?? objectBranch.additionalProperties.type;
    const samples = [{ ref: "e1" }, { role: "button", name: "Go", exact: true }, { text: "Hi", exact: false }, { label: "Email" }, { placeholder: "you@" }, { testId: "x" }, { selector: "#a" }, { x: 1, y: 2 }];
    for (const sample of samples) {
      for (const [key, value] of Object.entries(sample)) {
        expect(fields).toContain(key);
        expect(typeOf(key)).toBe(typeof value);
      }
      expect(() => checkTarget(sample, "t")).not.toThrow();
    }
    expect(() => checkTarget({ bogus: "x" }, "t")).toThrow(BwError);
    expect(fields).not.toContain("bogus");
    expect(new RegExp((TARGET_SCHEMA.anyOf as { pattern?: string }[])[0]!.pattern!).test("f1e23")).toBe(true);
  });

  it("front-door tools are checked by the same validator", () => {
    const create = FRONT_DOOR_TOOLS.find((t) => t.name === "session_create")!;
    expect(checkOperationArgs(create, { name: "buyer", isolated: true, labels: ["role=buyer"] })).toEqual({ name: "buyer", isolated: true, labels: ["role=buyer"] });
    expect(() => checkOperationArgs(create, { name: "buyer", bogus: 1 })).toThrow(BwError);
    expect(() => checkOperationArgs(create, { width: 10 })).toThrow(/needs name/);
  });

  it("keeps the default (core) list small, and measures it", () => {
    const core = selectTools("core");
    expect(core.map((t) => t.spec.name).sort()).toEqual([...CORE_TOOLS].sort());
    const chars = listChars(core);
    console.log(`tools/list JSON: core ${core.length} tools, ${chars} characters (~${Math.round(chars / 4)} tokens); all ${all.length} tools, ${listChars(all)} characters`);
    expect(chars).toBeLessThanOrEqual(CORE_LIST_MAX_CHARS);
    expect(listChars(all)).toBeGreaterThan(chars);
  });

  it("docs/mcp.md states the sizes the code has, so the two cannot drift apart", () => {
    const doc = readFileSync(fileURLToPath(new URL("../../docs/mcp.md", import.meta.url)), "utf8");
    const row = (label: string) => {
      const match = new RegExp(`^\\| betterwright \`${label}\`[^|]*\\| (\\d+) \\| ([\\d,]+)(?: \\(~([\\d,]+) tokens\\))? \\|$`, "m").exec(doc);
      if (!match) throw new Error(`no row for ${label} in docs/mcp.md`);
      const n = (text: string | undefined) => (text === undefined ? undefined : Number(text.replace(/,/g, "")));
      return { tools: n(match[1]), characters: n(match[2]), tokens: n(match[3]) };
    };
    const core = selectTools("core");
    expect(row("core")).toEqual({ tools: core.length, characters: listChars(core), tokens: Math.round(listChars(core) / 400) * 100 });
    expect(row("--tools all")).toEqual({ tools: all.length, characters: listChars(all), tokens: undefined });
    const coreSentence = doc.slice(doc.indexOf("The core set:"), doc.indexOf("\n\n", doc.indexOf("The core set:")));
    expect([...coreSentence.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).sort()).toEqual([...CORE_TOOLS].sort());
  });

  it("selects tools by core, all or name, and refuses unknown ones", () => {
    expect(selectTools("all")).toHaveLength(all.length);
    expect(selectTools("navigate,snapshot").map((t) => t.spec.name)).toEqual(["navigate", "snapshot"]);
    expect(selectTools("core,observe").map((t) => t.spec.name)).toContain("observe");
    expect(() => selectTools("navigate,teleport")).toThrow(/no tool "teleport"/);
    expect(() => selectTools(" , ")).toThrow(BwError);
  });
});
