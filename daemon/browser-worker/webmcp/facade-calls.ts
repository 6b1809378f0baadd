// `page.webmcp.tools()` and `page.webmcp.callTool(name, input, { timeout,
// confirm })` as a snippet calls them: their arguments checked here (they
// come from the sandbox), then the same bridge the operations use.
import type { Page } from "playwright-core";
import { BwError } from "../../../shared/protocol/errors.js";
import { MAX_WEBMCP_INPUT_CHARS, MAX_WEBMCP_NAME_CHARS, UNTRUSTED_PAGE_DATA } from "../../../shared/webmcp.js";
import { callTool, listTools } from "./bridge.js";
import { webmcpTimeoutMs } from "./budget.js";

function plainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && typeof value !== "function";
}

function callOptions(value: unknown): { timeout?: number; confirm?: boolean } {
  if (value === undefined || value === null) return {};
  if (!plainObject(value)) throw new BwError("INVALID_ARGUMENT", "page.webmcp.callTool(name, input, options): options must be { timeout?, confirm? }");
  for (const key of Object.keys(value)) if (key !== "timeout" && key !== "confirm") throw new BwError("INVALID_ARGUMENT", `page.webmcp.callTool: unknown option ${JSON.stringify(key.slice(0, 40))} (it takes timeout and confirm)`);
  if (value.timeout !== undefined && (typeof value.timeout !== "number" || !(value.timeout > 0))) throw new BwError("INVALID_ARGUMENT", "page.webmcp.callTool: timeout must be a number of milliseconds above 0");
  if (value.confirm !== undefined && typeof value.confirm !== "boolean") throw new BwError("INVALID_ARGUMENT", "page.webmcp.callTool: confirm must be true or false");
  return value as { timeout?: number; confirm?: boolean };
}

/** One facade call of `page.webmcp`; `method` was checked against the facade spec. */
export async function webmcpFacadeCall(page: Page, pageId: string, method: string, args: unknown[], remainingMs: number): Promise<unknown> {
  if (method === "tools") {
    const { tools } = await listTools(page);
    return tools.map((tool) => ({ ...tool, untrusted: UNTRUSTED_PAGE_DATA }));
  }
  const [name, input, options] = args;
  if (typeof name !== "string" || name.length === 0 || name.length > MAX_WEBMCP_NAME_CHARS) {
    throw new BwError("INVALID_ARGUMENT", `page.webmcp.callTool: the tool's name must be a string of 1 to ${MAX_WEBMCP_NAME_CHARS} characters`);
  }
  if (input !== undefined && input !== null && !plainObject(input)) throw new BwError("INVALID_ARGUMENT", "page.webmcp.callTool: input must be a JSON object");
  const json = JSON.stringify(input ?? {});
  if (json.length > MAX_WEBMCP_INPUT_CHARS) throw new BwError("LIMIT_EXCEEDED", `page.webmcp.callTool: input is longer than ${MAX_WEBMCP_INPUT_CHARS} characters as JSON`);
  const { timeout, confirm } = callOptions(options);
  return callTool(page, pageId, name, JSON.parse(json), { timeoutMs: webmcpTimeoutMs(timeout, remainingMs), confirm: confirm === true });
}
