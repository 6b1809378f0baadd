// screenshot, tabs, credentials_fill, downloads: operations served by what
// snippets already use (the screenshot and credential services, the page
// registry) and by the download history the artifact store keeps.
import { BwError } from "../../../../shared/protocol/errors.js";
import { DEFAULT_DOWNLOAD_ENTRIES, Ops, type DownloadsResult, type ScreenshotResult, type TabsResult } from "../../../../shared/protocol/operations/index.js";
import { assertNavigable } from "../../facades/facade-dispatch.js";
import type { OperationCall } from "../op-context.js";
import { mapErrors } from "../op-errors.js";
import { handle } from "../handler.js";
import { elementWait, resolveElement } from "../targets.js";
import { gotoSettled } from "../../failed-navigation.js";

function service(ctx: OperationCall, name: string, args: unknown[]): Promise<unknown> {
  const fn = ctx.scope(name);
  if (!fn) throw new BwError("INTERNAL_ERROR", `the ${name} service is not available in this worker`);
  return Promise.resolve(fn.call(ctx.run, args));
}

async function tabs(ctx: OperationCall): Promise<TabsResult> {
  const pages = await ctx.pages.infosWithTitles();
  return { active: pages.find((p) => p.active)?.pageId ?? null, pages };
}

function downloads(ctx: OperationCall, status: string | undefined, limit = DEFAULT_DOWNLOAD_ENTRIES): DownloadsResult {
  const matching = ctx.downloadHistory().filter((d) => status === undefined || d.status === status).reverse();
  return { downloads: matching.slice(0, limit), total: matching.length, more: matching.length > limit };
}

function pageIdArg(value: string | undefined, action: string): string {
  if (value === undefined || !/^p\d+$/.test(value)) throw new BwError("INVALID_ARGUMENT", `args.arg: tabs ${action} takes a page id such as p2`);
  return value;
}

export const serviceHandlers = [
  handle(Ops.screenshot, async (ctx, args) => {
    let selector: string | undefined;
    if (args.target !== undefined) {
      const target = args.target;
      if (!("ref" in target) && !("selector" in target)) throw new BwError("INVALID_ARGUMENT", "args.target: screenshot takes a ref or { selector }");
      // A ref is checked for staleness first; the capture then names the same element through its aria-ref.
      if ("ref" in target) await resolveElement(ctx, target);
      selector = "ref" in target ? `aria-ref=${target.ref}` : target.selector;
    }
    const options = { ...(args.fullPage ? { fullPage: true } : {}), ...(selector ? { selector } : {}), ...(args.type ? { type: args.type } : {}) };
    return (await service(ctx, "screenshot", [options])) as ScreenshotResult;
  }),
  handle(Ops.tabs, async (ctx, args) => {
    const action = args.action ?? "list";
    if (action === "new") {
      const url = args.arg;
      if (url !== undefined) assertNavigable(url);
      const id = await ctx.pages.open();
      ctx.pages.use(id);
      if (url !== undefined) await mapErrors({ navigation: true, target: url }, () => ctx.guard(() => gotoSettled(ctx.pages.get(id), url, ctx.run.remainingMs())));
    } else if (action === "select") {
      ctx.pages.use(pageIdArg(args.arg, action));
    } else if (action === "close") {
      await ctx.pages.get(pageIdArg(args.arg, action)).close();
    }
    return tabs(ctx);
  }),
  handle(Ops.downloads, async (ctx, args) => downloads(ctx, args.status, args.limit)),
  handle(Ops.credentialsFill, async (ctx, args) => {
    // The login form is waited for as any target is; a failure of the snippet service is this operation's.
    const timeout = await elementWait(ctx, ctx.pages.get(ctx.pages.active()));
    try {
      return await service(ctx, "credentials.fill", [{ ...(args.id ? { id: args.id } : {}), ...(args.submit ? { submit: true } : {}), timeout }]);
    } catch (error) {
      if (error instanceof BwError && error.code === "SNIPPET_ERROR") throw new BwError("OPERATION_FAILED", error.message);
      throw error;
    }
  }),
];
