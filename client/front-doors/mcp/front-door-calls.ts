// The front door's own tools (sessions, saved states, runtime info) as calls
// of the library's public API. Arguments arrive checked against their
// declarations in front-door-tools.ts.
import type { CreateSessionOptions, SessionSettings } from "../../index.js";
import { BwError } from "../../../shared/protocol/errors.js";
import type { McpConnection } from "./connection.js";
import type { FrontDoor } from "./front-door.js";
import { parseLabels } from "./labels.js";
import type { CallResult } from "./results.js";

function jsonResult(value: Record<string, unknown>): CallResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

/** session_create's flat arguments as the library's options (the daemon checks the settings). */
export function createOptions(args: Record<string, unknown>): CreateSessionOptions {
  const settings: SessionSettings = {};
  if ((args.width === undefined) !== (args.height === undefined)) throw new BwError("INVALID_ARGUMENT", "args: give width and height together");
  if (typeof args.width === "number" && typeof args.height === "number") settings.viewport = { width: args.width, height: args.height };
  if (typeof args.deviceScaleFactor === "number") settings.deviceScaleFactor = args.deviceScaleFactor;
  if (typeof args.locale === "string") settings.locale = args.locale;
  if (typeof args.timezone === "string") settings.timezone = args.timezone;
  if (args.colorScheme === "light" || args.colorScheme === "dark") settings.colorScheme = args.colorScheme;
  const hasSettings = Object.keys(settings).length > 0;
  const isolated = args.isolated === true || hasSettings || typeof args.state === "string";
  if (args.isolated === false && isolated) throw new BwError("INVALID_ARGUMENT", "args: settings and state need an isolated session");
  return {
    ...(isolated ? { isolated: true } : {}),
    ...(hasSettings ? { settings } : {}),
    ...(typeof args.state === "string" ? { state: args.state } : {}),
  };
}

/** Every session of the profile, with the labels this server gave them and which one is this connection's. */
export async function sessionListing(door: FrontDoor, connection: McpConnection): Promise<Record<string, unknown>> {
  const sessions = await door.bw.sessions();
  return {
    current: connection.session,
    sessions: sessions.map((s) => {
      const labels = door.labels.get(s.session);
      return { ...s, ...(labels ? { labels } : {}), ...(s.session === connection.session ? { current: true } : {}) };
    }),
  };
}

async function runtimeInfo(door: FrontDoor, connection: McpConnection): Promise<CallResult> {
  const status = await door.bw.status();
  return jsonResult({
    versions: { ...door.options.versions, daemon: status.version, node: process.versions.node },
    profile: door.bw.profile,
    session: connection.session,
    tools: door.options.tools.map((t) => t.spec.name),
    limits: { timeoutMs: door.options.timeoutMs, maxImageBytes: door.options.maxImageBytes },
    daemon: { pid: status.pid, uptimeMs: status.uptimeMs, sessions: status.sessions.length, browser: status.browser.running ? "running" : "not started" },
  });
}

export async function callFrontDoorTool(door: FrontDoor, connection: McpConnection, name: string, args: Record<string, unknown>, session: string): Promise<CallResult> {
  switch (name) {
    case "more":
      return { content: [{ type: "text", text: connection.answers.more(String(args.cursor)) }] };
    case "session_create": {
      const target = String(args.name);
      const labels = parseLabels((args.labels as string[] | undefined) ?? []);
      const created = await door.bw.createSession(target, createOptions(args));
      if (args.labels !== undefined) door.labels.set(target, labels);
      return jsonResult({ ...created, ...(door.labels.get(target) ? { labels: door.labels.get(target) } : {}) });
    }
    case "session_list":
      return jsonResult(await sessionListing(door, connection));
    case "session_close": {
      const target = typeof args.name === "string" ? args.name : connection.session;
      const closed = await door.bw.closeSession(target);
      connection.forget(target);
      door.labels.forget(target);
      return jsonResult({ session: target, closed });
    }
    case "state_save":
      return jsonResult({ ...(await door.bw.states.save(String(args.name), { session })) });
    case "state_list":
      return jsonResult({ ...(await door.bw.states.list()) });
    case "state_remove":
      return jsonResult({ ...(await door.bw.states.remove(String(args.name)).then(() => ({ removed: true, name: String(args.name) }))) });
    case "runtime_info":
      return runtimeInfo(door, connection);
    default:
      throw new BwError("INTERNAL_ERROR", `the tool ${name} has no handler`);
  }
}
