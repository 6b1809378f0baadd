// The WebMCP bridge: lists and calls the tools a page registers. It owns a
// CDP session of its own for each call, runs its code in an isolated world
// of the page's main frame (world-script.ts), hands nothing of that session to
// anyone, and detaches it on every path. A call past its time asks the page
// to cancel (the tool's AbortSignal) before the session goes. Tools that act
// on their own need `confirm`. Calls run in the page, so in the guarded browser.
import { randomBytes } from "node:crypto";
import type { CDPSession, Page } from "playwright-core";
import { BwError } from "../../../shared/protocol/errors.js";
import {
  boundResult, boundTool, MAX_WEBMCP_DESCRIPTION_CHARS, MAX_WEBMCP_NAME_CHARS, MAX_WEBMCP_RESULT_CHARS, MAX_WEBMCP_SCHEMA_CHARS, MAX_WEBMCP_TOOLS,
  UNTRUSTED_PAGE_DATA, type WebmcpCallResult, type WebmcpTool,
} from "../../../shared/webmcp.js";
import { callToolInWorld, cancelInWorld, listToolsInWorld } from "./world-script.js";

/** How long the page gets to take a cancellation before the bridge detaches anyway. */
const CANCEL_GRACE_MS = 1_000;
const WORLD_NAME = "betterwright-webmcp";

const UNSUPPORTED = "this page has no WebMCP (document.modelContext): the browser does not support it, or the page is not a secure context (https or localhost)";

interface World {
  run<T>(fn: (arg: never) => T | Promise<T>, arg: unknown): Promise<Awaited<T>>;
}

/** Opens the bridge's own CDP session and an isolated world of the main frame; both end with `work`. */
async function inWorld<T>(page: Page, work: (world: World) => Promise<T>): Promise<T> {
  let cdp: CDPSession;
  try {
    cdp = await page.context().newCDPSession(page);
  } catch (error) {
    throw new BwError("WEBMCP_UNSUPPORTED", `${UNSUPPORTED} (${(error as Error).message.split("\n")[0]})`);
  }
  try {
    const { frameTree } = await cdp.send("Page.getFrameTree");
    const { executionContextId } = await cdp.send("Page.createIsolatedWorld", { frameId: frameTree.frame.id, worldName: WORLD_NAME });
    const world: World = {
      run: async (fn, arg) => {
        const answer = await cdp.send("Runtime.callFunctionOn", {
          functionDeclaration: fn.toString(),
          executionContextId,
          arguments: [{ value: arg }],
          awaitPromise: true,
          returnByValue: true,
        });
        if (answer.exceptionDetails) throw new BwError("OPERATION_FAILED", `the WebMCP bridge failed in the page: ${String(answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text).split("\n")[0]!.slice(0, 300)}`);
        return answer.result.value;
      },
    };
    return await work(world);
  } catch (error) {
    throw worldError(error);
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/** A CDP failure while the bridge worked: the page went away or navigated, which ends the call. */
function worldError(error: unknown): BwError {
  if (error instanceof BwError) return error;
  const message = (error as Error)?.message?.split("\n")[0] ?? String(error);
  if (/context was destroyed|Cannot find context|Target closed|Session closed|detached|has been closed/i.test(message)) {
    return new BwError("OPERATION_FAILED", `the page navigated or closed while its WebMCP tool ran: ${message.slice(0, 300)}`);
  }
  return new BwError("OPERATION_FAILED", `WebMCP: ${message.slice(0, 300)}`);
}

async function describe(world: World): Promise<{ total: number; tools: WebmcpTool[] }> {
  const listed = await world.run(listToolsInWorld as never, {
    maxTools: MAX_WEBMCP_TOOLS, maxName: MAX_WEBMCP_NAME_CHARS, maxDescription: MAX_WEBMCP_DESCRIPTION_CHARS, maxSchema: MAX_WEBMCP_SCHEMA_CHARS,
  }) as { total?: unknown; tools?: unknown } | null;
  if (listed === null || listed === undefined) throw new BwError("WEBMCP_UNSUPPORTED", UNSUPPORTED);
  const raw = Array.isArray(listed.tools) ? listed.tools.slice(0, MAX_WEBMCP_TOOLS) : [];
  const tools = raw.map(boundTool).filter((t): t is WebmcpTool => t !== undefined);
  return { total: typeof listed.total === "number" ? listed.total : tools.length, tools };
}

/** The tools the page's main frame registers, bounded. */
export async function listTools(page: Page): Promise<{ tools: WebmcpTool[]; total: number; omitted: number }> {
  const { total, tools } = await inWorld(page, describe);
  return { tools, total, omitted: Math.max(0, total - tools.length) };
}

export interface CallOptions {
  /** At most this long; then the page is asked to cancel. */
  timeoutMs: number;
  /** The caller agrees to a tool that acts on its own. */
  confirm?: boolean;
}

/** Calls one of the page's tools and returns its result, marked untrusted. */
export async function callTool(page: Page, pageId: string, name: string, input: unknown, options: CallOptions): Promise<WebmcpCallResult> {
  return inWorld(page, async (world) => {
    const { tools } = await describe(world);
    const tool = tools.find((t) => t.name === name);
    if (!tool) {
      const names = tools.map((t) => t.name).join(", ").slice(0, 500);
      throw new BwError("WEBMCP_TOOL_NOT_FOUND", `the page registers no WebMCP tool ${JSON.stringify(name.slice(0, MAX_WEBMCP_NAME_CHARS))}; its tools: ${names || "none"}`);
    }
    if (tool.submits && options.confirm !== true) {
      throw new BwError("CONFIRMATION_REQUIRED", `the WebMCP tool ${JSON.stringify(name)} acts on its own (it submits or takes a consequential action): call it again with confirm: true if that is intended`);
    }
    const key = randomBytes(8).toString("hex");
    const call = world.run(callToolInWorld as never, { name, input: input ?? {}, key, maxChars: MAX_WEBMCP_RESULT_CHARS }) as Promise<Record<string, unknown>>;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<"expired">((resolve) => { timer = setTimeout(() => resolve("expired"), Math.max(1, options.timeoutMs)); });
    try {
      const outcome = await Promise.race([call, expired]);
      if (outcome === "expired") {
        call.catch(() => {});
        const asked = await Promise.race([world.run(cancelInWorld as never, key).catch(() => false), new Promise((r) => setTimeout(() => r(false), CANCEL_GRACE_MS))]);
        throw new BwError("SNIPPET_TIMEOUT", `the WebMCP tool ${JSON.stringify(name)} did not answer within ${options.timeoutMs} ms; ${asked === true ? "the page was asked to cancel it" : "it could not be asked to cancel"}`);
      }
      if (outcome.missing === "webmcp") throw new BwError("WEBMCP_UNSUPPORTED", UNSUPPORTED);
      if (outcome.missing === "tool") throw new BwError("WEBMCP_TOOL_NOT_FOUND", `the WebMCP tool ${JSON.stringify(name)} went away before it was called`);
      if (typeof outcome.error === "string") throw new BwError("OPERATION_FAILED", `the WebMCP tool ${JSON.stringify(name)} failed: ${outcome.error}`, { details: { untrusted: UNTRUSTED_PAGE_DATA } });
      return { pageId, tool: name, ...boundResult(outcome.text, outcome.totalChars), untrusted: UNTRUSTED_PAGE_DATA };
    } finally {
      clearTimeout(timer);
    }
  });
}
