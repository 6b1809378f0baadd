// The MCP tools that are not typed operations: a sandboxed snippet, sessions,
// saved states and what is running. Declared like the operation table's
// entries (ArgSpec lists), so one schema mapping and one validator serve both.
import type { ArgSpec, OperationSpec } from "../../../shared/protocol/operations/index.js";
import { MAX_NAME_LENGTH } from "../../../shared/names.js";

const name = { kind: "string", max: MAX_NAME_LENGTH } as const;

export const MAX_LABELS = 8;
export const MAX_LABEL_CHARS = 128;

function tool<const N extends string>(toolName: N, help: string, args: readonly ArgSpec[], returns: string): OperationSpec<readonly ArgSpec[], unknown, N> {
  return { name: toolName, help, args, returns };
}

export const run = tool("run", "Run a JavaScript snippet (async function body) in the session's sandbox: page, pages(), openPage(), snapshot(), screenshot(), state, console; returns its result", [
  { name: "code", type: { kind: "string", max: 1_000_000 }, help: "the snippet, e.g. await page.goto(url); return page.title()", required: true },
  { name: "args", type: { kind: "json", maxChars: 1_000_000 }, help: "JSON data the snippet sees as `args`" },
  { name: "timeoutMs", type: { kind: "number", min: 100, max: 600_000, integer: true }, help: "budget in ms, queue wait included (default 30000)" },
], "the snippet's result, console and pages");

export const sessionCreate = tool("session_create", "Make a named session, e.g. one per user or role (isolated: its own cookies, storage, settings); pass its name as `session` to other tools", [
  { name: "name", type: name, help: "letters, digits, . - _", required: true },
  { name: "isolated", type: { kind: "boolean" }, help: "its own browser context (own cookies and storage)" },
  { name: "state", type: name, help: "isolated: start from this saved state (state_list)" },
  { name: "width", type: { kind: "number", min: 100, max: 8192, integer: true }, help: "isolated: viewport width (with height)" },
  { name: "height", type: { kind: "number", min: 100, max: 8192, integer: true }, help: "isolated: viewport height (with width)" },
  { name: "deviceScaleFactor", type: { kind: "number", min: 0.25, max: 5 }, help: "isolated: device pixel ratio" },
  { name: "locale", type: { kind: "string", max: 64 }, help: "isolated: BCP 47 locale, e.g. de-DE" },
  { name: "timezone", type: { kind: "string", max: 64 }, help: "isolated: IANA time zone, e.g. Europe/Berlin" },
  { name: "colorScheme", type: { kind: "string", max: 5, choices: ["light", "dark"] }, help: "isolated: preferred colour scheme" },
  { name: "labels", type: { kind: "strings", max: MAX_LABELS, itemMax: MAX_LABEL_CHARS }, help: "key=value labels shown by session_list, e.g. role=buyer" },
], "{ session, created, isolated, settings, state? }");

export const sessionList = tool("session_list", "This profile's sessions (every client's), with their labels and which one is this connection's", [], "{ sessions, current }");

export const sessionClose = tool("session_close", "Close a session and its pages (default: this connection's; it is made again on next use)", [
  { name: "name", type: name, help: "the session to close" },
], "{ closed }");

export const stateSave = tool("state_save", "Save a session's cookies, local storage and IndexedDB under a name, encrypted (replaces a state of that name)", [
  { name: "name", type: name, help: "the saved state's name", required: true },
], "{ name, bytes, cookies, origins }");

export const stateList = tool("state_list", "This profile's saved states: names, sizes, when saved", [], "{ states, totalBytes, caps }");

export const stateRemove = tool("state_remove", "Delete a saved state", [
  { name: "name", type: name, help: "the saved state's name", required: true },
], "{ removed, name }");

export const more = tool("more", "The rest of an answer cut for length (its last line gives the cursor)", [
  { name: "cursor", type: { kind: "string", max: 40 }, help: "the cursor the last part gave", required: true },
], "the next part");

export const runtimeInfo = tool("runtime_info", "Versions, profile, this connection's session, limits and whether the browser runs; starts no browser", [], "{ versions, profile, session, limits, daemon }");

/** Front-door tools that run in a session take `session`; these do not. */
export const SESSIONLESS = new Set<string>([more.name, sessionCreate.name, sessionList.name, sessionClose.name, stateList.name, stateRemove.name, runtimeInfo.name]);

export const FRONT_DOOR_TOOLS: readonly OperationSpec[] = [run, sessionCreate, sessionList, sessionClose, stateSave, stateList, stateRemove, more, runtimeInfo];
