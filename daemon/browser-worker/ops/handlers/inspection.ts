// snapshot, find, read, observe: what the page shows and what it did.
import vm from "node:vm";
import { textContextAround } from "../../../../shared/protocol/envelope.js";
import { BwError } from "../../../../shared/protocol/errors.js";
import { DEFAULT_READ_CHARS, DEFAULT_SNAPSHOT_CHARS, Ops, type SnapshotResult } from "../../../../shared/protocol/operations/index.js";
import type { OperationCall } from "../op-context.js";
import { mapErrors } from "../op-errors.js";
import { handle } from "../handler.js";
import { capture, render, type Capture } from "../snapshot/take-snapshot.js";
import { diffLines } from "../snapshot/line-diff.js";
import { resolveElement } from "../targets.js";

/** How long a find's regular expression may run over the snapshot (a pathological one is cut off, not the worker). */
export const FIND_REGEX_BUDGET_MS = 200;
const DEFAULT_FIND_LIMIT = 20;
const DEFAULT_OBSERVE_LIMIT = 50;
/** These change no page: a title they read stands for the envelope (page-titles.ts). */
const READS_ONLY = { readsOnly: true };

/** A whole-page capture an answer showed becomes the page's baseline: the next --diff is against what the agent last saw. */
function setBaseline(taken: Capture, depth: number | undefined): void {
  taken.entry.baseline = { tree: taken.tree, document: taken.document, depth };
}

async function snapshot(ctx: OperationCall, args: { target?: Parameters<typeof resolveElement>[1]; interactive?: boolean; depth?: number; maxChars?: number; cursor?: string; diff?: boolean }): Promise<SnapshotResult> {
  const maxChars = args.maxChars ?? DEFAULT_SNAPSHOT_CHARS;
  if (args.cursor !== undefined) {
    const part = ctx.state.captures.resume(args.cursor, maxChars);
    if (!(await ctx.state.entry(part.pageId).document.still(part.document).catch(() => false))) {
      throw new BwError("STALE_REF", `snapshot cursor ${args.cursor} belongs to a document page ${part.pageId} has navigated away from: take a new snapshot`);
    }
    const binding = ctx.state.binding;
    const { pageId, document: _document, context, ...rest } = part;
    ctx.textCut(context);
    return { pageId, url: ctx.state.entry(pageId).page.url(), ...rest, refs: binding?.pageId === pageId ? binding.refs.size : 0, interactive: false };
  }
  const root = args.target === undefined ? undefined : (await resolveElement(ctx, args.target)).locator;
  const taken = await capture(ctx, { root, depth: args.depth });
  const interactive = args.interactive === true;
  const lines = render(taken, interactive);
  let text = lines.join("\n");
  let diff: SnapshotResult["diff"];
  const baseline = taken.entry.baseline;
  if (args.diff) {
    const usable = root === undefined && baseline !== undefined && baseline.document === taken.document && baseline.depth === args.depth;
    const changes = usable ? diffLines(render(taken, interactive, baseline.tree), lines) : undefined;
    if (changes) {
      text = changes.lines.length > 0 ? changes.lines.join("\n") : "(no changes)";
      diff = { baseline: true, added: changes.added, removed: changes.removed, unchanged: changes.unchanged };
    } else {
      const reason = !usable ? (baseline === undefined || root !== undefined ? "no previous whole-page snapshot of this page" : "the page shows another document than at its previous snapshot") : "too many changes to list";
      diff = { baseline: false, added: lines.length, removed: 0, unchanged: 0, reason };
    }
  }
  if (root === undefined) setBaseline(taken, args.depth);
  const { context, ...part } = ctx.state.captures.add(taken.pageId, taken.document, text, maxChars);
  ctx.textCut(context);
  return { pageId: taken.pageId, url: taken.entry.page.url(), ...part, refs: ctx.state.binding?.refs.size ?? 0, interactive, ...(diff ? { diff } : {}) };
}

/** A /regex/flags query, or undefined for plain text. */
function regexOf(query: string): RegExp | undefined {
  const m = /^\/(.+)\/([a-z]*)$/s.exec(query);
  if (!m) return undefined;
  try {
    return new RegExp(m[1]!, m[2]!.replace(/[gy]/g, ""));
  } catch (error) {
    throw new BwError("INVALID_ARGUMENT", `args.query: ${(error as Error).message}`);
  }
}

/** The indices of matching lines; a regular expression runs under a time limit in a context of its own. */
function matching(lines: string[], query: string): number[] {
  const re = regexOf(query);
  if (!re) {
    const needle = query.toLowerCase();
    return lines.flatMap((l, i) => (l.toLowerCase().includes(needle) ? [i] : []));
  }
  try {
    return vm.runInNewContext("const hits = []; for (let i = 0; i < lines.length; i++) if (re.test(lines[i])) hits.push(i); hits", { lines, re }, { timeout: FIND_REGEX_BUDGET_MS }) as number[];
  } catch {
    throw new BwError("INVALID_ARGUMENT", `args.query: the regular expression ran longer than ${FIND_REGEX_BUDGET_MS} ms over the snapshot; simplify it`);
  }
}

export const inspectionHandlers = [
  handle(Ops.snapshot, (ctx, args) => snapshot(ctx, args), READS_ONLY),
  handle(Ops.find, async (ctx, args) => {
    const taken = await capture(ctx, {});
    setBaseline(taken, undefined);
    const lines = render(taken, false);
    const hits = matching(lines, args.query);
    const limit = args.limit ?? DEFAULT_FIND_LIMIT;
    return { pageId: taken.pageId, matches: hits.slice(0, limit).map((i) => lines[i]!.trim()), count: hits.length, truncated: hits.length > limit };
  }, READS_ONLY),
  handle(Ops.read, async (ctx, args) => {
    const pageId = ctx.pages.active();
    const page = ctx.pages.get(pageId);
    const root = args.target === undefined ? page.locator("body") : (await resolveElement(ctx, args.target)).locator;
    const all = await mapErrors({ target: "read", ref: args.target !== undefined && "ref" in args.target }, () => root.innerText({ timeout: ctx.run.remainingMs() }));
    const max = args.maxChars ?? DEFAULT_READ_CHARS;
    const end = Math.min(max, all.length);
    ctx.textCut(textContextAround(all, 0, end));
    const title = await ctx.readTitle(pageId, () => page.title(), (t) => t).catch(() => "");
    return { url: page.url(), title, text: all.slice(0, end), totalChars: all.length, truncated: all.length > max };
  }, READS_ONLY),
  handle(Ops.observe, async (ctx, args) => {
    const pageId = ctx.pages.active();
    return ctx.state.entry(pageId).observer.read(pageId, args.source as "console", args.since ?? 0, args.limit ?? DEFAULT_OBSERVE_LIMIT);
  }),
];
