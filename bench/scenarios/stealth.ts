// Stealth mode and the WebMCP bridge: the same calls on a default daemon and
// a stealth one (full Chromium, evaluation in an isolated world), and a page
// tool's round trip against a typed read of the same page.
import { BetterWright } from "../../client/index.js";
import type { BenchContext } from "../context.js";
import { compare, timeIt, type Row } from "../stats.js";

export async function stealthAndWebmcp(ctx: BenchContext): Promise<Row[]> {
  const runs = ctx.quick ? 5 : 30;
  const measure = async (name: string, stealth: boolean) => {
    const { home, env } = ctx.home(name);
    const bw = new BetterWright({ home, env, stealth });
    const session = { session: "bench" };
    const first = await timeIt(() => bw.op("navigate", { url: `${ctx.url}/webmcp` }, session), 1, 0);
    const evaluate = await timeIt(() => bw.run("return page.evaluate(() => document.title)", session), runs, 3);
    const locator = await timeIt(() => bw.run("return page.locator('#t').evaluate((el) => el.textContent)", session), runs, 3);
    const read = await timeIt(() => bw.op("read", { maxChars: 100 }, session), runs, 3);
    const call = await timeIt(() => bw.op("webmcp_call", { name: "add", input: { a: 2, b: 40 } }, session), runs, 3);
    await bw.close({ stopDaemon: true });
    return { first, evaluate, locator, read, call };
  };
  const plain = await measure("stealth-off", false);
  const hidden = await measure("stealth-on", true);
  return [
    compare("stealth: first call (daemon, full Chromium)", hidden.first, "default (headless shell)", plain.first),
    compare("stealth: run page.evaluate", hidden.evaluate, "default", plain.evaluate),
    compare("stealth: run locator.evaluate", hidden.locator, "default", plain.locator),
    compare("bw.op('webmcp_call') (default)", plain.call, "bw.op('read')", plain.read),
    compare("bw.op('webmcp_call') (stealth)", hidden.call, "default", plain.call),
  ];
}
