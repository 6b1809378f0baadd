// The MCP tool list: every typed operation of the table plus the front door's
// own tools, each with an input schema made from its ArgSpec list, and the
// selection `--tools core|all|NAME,…` makes of them. Pure.
import { BwError } from "../../../shared/protocol/errors.js";
import { OPERATIONS, type OperationName, type OperationSpec } from "../../../shared/protocol/operations/index.js";
import { FRONT_DOOR_TOOLS, SESSIONLESS } from "./front-door-tools.js";
import { objectSchema, type JsonSchema } from "./schema.js";

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: ToolAnnotations;
}

export interface ToolEntry {
  spec: OperationSpec;
  /** A typed operation (bw.op), or one of the front door's own tools. */
  kind: "operation" | "front-door";
  /** It runs in a session, so it takes `session`. */
  inSession: boolean;
  definition: ToolDefinition;
}

// Operations that change nothing on the page or in the browser (a screenshot
// writes only to the artifact store). Any other operation, including one
// added to the table later, is announced as one that may change things.
const READ_ONLY = new Set<string>(["snapshot", "find", "read", "screenshot", "observe", "downloads", "wait_for", "webmcp_tools"] satisfies OperationName[]);
// Operations that change the page but destroy nothing by themselves.
const NOT_DESTRUCTIVE = new Set<string>(["navigate", "back", "forward", "reload", "hover", "focus", "scroll", "scroll_into_view"] satisfies OperationName[]);
const FRONT_DOOR_READ_ONLY = new Set(["more", "session_list", "state_list", "runtime_info"]);

/** The default set: what an agent needs to browse, read and act; the rest is `--tools all` or named. */
export const CORE_TOOLS: readonly string[] = [
  "navigate", "back", "snapshot", "find", "read", "click", "type", "fill", "fill_form", "select", "press", "wait_for", "screenshot", "tabs",
  "run", "more", "session_create", "session_list", "session_close", "state_save", "state_list",
];

/** The budget of the default list's tools/list JSON, in characters (the bound is 20 KB; Playwright's MCP server sends about 18 KB). */
export const CORE_LIST_MAX_CHARS = 16_000;

// Its bounds are the session-name rule's (validateName), which refuses a bad name with its own words.
export const SESSION_ARG: JsonSchema = { type: "string", description: "another session (default: this connection's)" };

// openWorldHint is left out where it is true: that is its default (MCP's ToolAnnotations), and every byte of
// the core list is paid for in each conversation.
function annotations(spec: OperationSpec, kind: ToolEntry["kind"]): ToolAnnotations {
  if (kind === "operation") {
    if (READ_ONLY.has(spec.name)) return { readOnlyHint: true };
    return { readOnlyHint: false, destructiveHint: !NOT_DESTRUCTIVE.has(spec.name) };
  }
  if (FRONT_DOOR_READ_ONLY.has(spec.name)) return { readOnlyHint: true, openWorldHint: false };
  if (spec.name === "run") return { readOnlyHint: false, destructiveHint: true };
  return { readOnlyHint: false, destructiveHint: spec.name.endsWith("_close") || spec.name.endsWith("_remove"), openWorldHint: false };
}

function entry(spec: OperationSpec, kind: ToolEntry["kind"]): ToolEntry {
  const inSession = kind === "operation" || !SESSIONLESS.has(spec.name);
  return {
    spec,
    kind,
    inSession,
    definition: {
      name: spec.name,
      description: spec.help,
      inputSchema: objectSchema(spec.args, inSession ? { session: SESSION_ARG } : {}),
      annotations: annotations(spec, kind),
    },
  };
}

/** Every tool there is, operations first, in the table's order. */
export function allTools(): ToolEntry[] {
  return [...OPERATIONS.map((spec) => entry(spec, "operation")), ...FRONT_DOOR_TOOLS.map((spec) => entry(spec, "front-door"))];
}

/** `core`, `all`, or a comma-separated list of tool names and the word core: the tools served, in allTools() order. */
export function selectTools(selection: string): ToolEntry[] {
  const all = allTools();
  const words = selection.split(",").map((w) => w.trim()).filter((w) => w.length > 0);
  if (words.length === 0) throw new BwError("INVALID_ARGUMENT", "--tools: name core, all, or tools separated by commas");
  const wanted = new Set<string>();
  for (const word of words) {
    if (word === "all") all.forEach((t) => wanted.add(t.spec.name));
    else if (word === "core") CORE_TOOLS.forEach((n) => wanted.add(n));
    else if (all.some((t) => t.spec.name === word)) wanted.add(word);
    else throw new BwError("INVALID_ARGUMENT", `--tools: no tool ${JSON.stringify(word.slice(0, 40))}; the tools are core, all, ${all.map((t) => t.spec.name).join(", ")}`);
  }
  return all.filter((t) => wanted.has(t.spec.name));
}
