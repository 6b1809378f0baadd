// webmcp_tools, webmcp_call: the active page's WebMCP tools through the
// bridge, which bounds what the page says and marks it untrusted.
import { Ops } from "../../../../shared/protocol/operations/index.js";
import { UNTRUSTED_PAGE_DATA } from "../../../../shared/webmcp.js";
import { handle } from "../handler.js";
import { callTool, listTools } from "../../webmcp/bridge.js";
import { webmcpTimeoutMs } from "../../webmcp/budget.js";

export const webmcpHandlers = [
  handle(Ops.webmcpTools, async (ctx) => {
    const pageId = ctx.pages.active();
    const page = ctx.pages.get(pageId);
    return { pageId, url: page.url(), ...(await listTools(page)), untrusted: UNTRUSTED_PAGE_DATA };
  }),
  handle(Ops.webmcpCall, async (ctx, args) => {
    const pageId = ctx.pages.active();
    const timeoutMs = webmcpTimeoutMs(args.timeoutMs, ctx.run.remainingMs());
    return ctx.guard(() => callTool(ctx.pages.get(pageId), pageId, args.name, args.input ?? {}, { timeoutMs, confirm: args.confirm === true }));
  }),
];
