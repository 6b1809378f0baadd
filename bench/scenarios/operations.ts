// 10. Typed operations: a warm CLI verb against a warm exec doing the same,
// and the library's op() against run(), on the fixed form and table pages.
import { BetterWright } from "../../client/index.js";
import type { BenchContext } from "../context.js";
import { startSnapshotPages } from "../snapshot-pages.js";
import { compare, timeIt, type Row } from "../stats.js";

export async function operations(ctx: BenchContext): Promise<Row[]> {
  const runs = ctx.quick ? 5 : 30;
  const pages = await startSnapshotPages();
  const { home, env } = ctx.home("operations");
  try {
    await ctx.exec(env, "navigate", `${pages.url}/form`);
    const execRead = await timeIt(() => ctx.exec(env, "exec", "-c", "return page.url()"), runs);
    const verbRead = await timeIt(() => ctx.exec(env, "read", "--max-chars", "100"), runs);
    const verbSnapshot = await timeIt(() => ctx.exec(env, "snapshot", "--interactive"), runs);

    const bw = new BetterWright({ home, env });
    const session = { session: "ops" };
    await bw.op("navigate", { url: `${pages.url}/form` }, session);
    const run = await timeIt(() => bw.run("return page.url()", session), runs, 3);
    // Each operation next to the snippet that does the same in Playwright.
    const read = await timeIt(() => bw.op("read", { maxChars: 100 }, session), runs, 3);
    const readSnippet = await timeIt(() => bw.run("return [page.url(), await page.title(), (await page.locator('body').innerText()).slice(0, 100)]", session), runs, 3);
    const snapshot = await timeIt(() => bw.op("snapshot", {}, session), runs, 3);
    const rawForm = await timeIt(() => bw.run("return (await page.ariaSnapshot({ mode: 'ai' })).length", session), runs, 3);
    const ref = /button "Clear" \[((?:f\d+)?e\d+)\]/.exec(((await bw.op("snapshot", {}, session)).result as { text: string }).text)![1]!;
    const click = await timeIt(() => bw.op("click", { target: ref }, session), runs, 3);
    const clickSnippet = await timeIt(() => bw.run("await page.getByRole('button', { name: 'Clear', exact: true }).click()", session), runs, 3);
    const stale = await timeIt(() => bw.op("click", { target: "e999" }, session), runs, 3);
    await bw.op("navigate", { url: `${pages.url}/table` }, session);
    const table = await timeIt(() => bw.op("snapshot", {}, session), ctx.quick ? 3 : 10, 1);
    const rawTable = await timeIt(() => bw.run("return (await page.ariaSnapshot({ mode: 'ai' })).length", session), ctx.quick ? 3 : 10, 1);
    await bw.close();
    return [
      { name: "warm exec -c 'return page.url()'", sample: execRead },
      compare("warm CLI verb: read", verbRead, "warm exec", execRead, "≤ 1.1×"),
      compare("warm CLI verb: snapshot --interactive (form)", verbSnapshot, "warm exec", execRead),
      { name: "bw.run('return page.url()')", sample: run },
      compare("bw.op('read')", read, "snippet: url, title, innerText", readSnippet, "≤ 1.2×"),
      compare("bw.op('snapshot') (form)", snapshot, "snippet: raw ariaSnapshot({ mode: 'ai' })", rawForm),
      compare("bw.op('click', ref)", click, "snippet: getByRole().click()", clickSnippet, "≤ 1.2×"),
      compare("bw.op('click', stale ref) → STALE_REF", stale, "bw.run('return page.url()')", run),
      compare("bw.op('snapshot') (300-row table, first 8,000 chars)", table, "snippet: raw ariaSnapshot({ mode: 'ai' })", rawTable),
    ];
  } finally {
    await pages.close();
  }
}
