// The envelope's title after a run that may have changed it: the browser's
// own copy of a page's title stands in for a read only while it says exactly
// what the last read said (daemon/browser-worker/shown-titles.ts). Every
// change a run makes must show in that run's envelope, however it is made,
// and a page without a title, whose copy is its address, is never taken at
// its copy's word.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright } from "../../dist/client/index.js";
import { cleanEnv, destroyHome, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

describe("envelope titles from the browser's copy", () => {
  let server: TestServer;
  let home: string;
  let bw: BetterWright;
  const run = async (code: string, session = "titles") => {
    const envelope = await bw.run(code, { session });
    expect(envelope.ok, JSON.stringify(envelope.error)).toBe(true);
    return { result: envelope.result, title: envelope.pages.find((p) => p.active)?.title };
  };

  beforeAll(async () => {
    server = await startServer({
      "/titled": `<title>Front</title><button onclick="document.title = 'clicked ' + (++window.n)">go</button><script>window.n = 0</script>`,
      "/plain": "<p>no title here</p>",
    });
    home = tempHome("bw-shown-titles-");
    bw = new BetterWright({ home, env: cleanEnv(home) });
  });

  afterAll(async () => {
    await bw.close();
    await destroyHome(home);
    await server.close();
  });

  it("shows every title a run sets, run after run, and keeps it through runs that change nothing", async () => {
    expect((await run(`await page.goto(${JSON.stringify(`${server.url}/titled`)}); return 1`)).title).toBe("Front");
    let expected = "Front";
    for (let i = 0; i < 100; i++) {
      if (i % 3 === 2) {
        expect(await run("return page.evaluate(() => document.body.childElementCount)"), `run ${i}`).toMatchObject({ title: expected });
        continue;
      }
      expected = `t${i}`;
      expect(await run(`return page.evaluate((i) => { document.title = "t" + i; return i }, ${i})`), `run ${i}`).toEqual({ result: i, title: expected });
    }
    for (let n = 1; n <= 20; n++) expect((await run('await page.click("button")')).title).toBe(`clicked ${n}`);
    expect((await run("return page.evaluate(() => new Promise((r) => setTimeout(() => { document.title = 'later'; r(1) }, 5)))")).title).toBe("later");
    expect((await run('return page.evaluate(() => { document.title = "" })')).title).toBe("");
    expect((await run('return page.evaluate(() => { document.title = "  spaced    out  " })')).title).toBe((await run("return (page.title())")).result);
  });

  it("gives each of many sessions its own title when their envelopes are built together", async () => {
    const sessions = Array.from({ length: 12 }, (_, k) => `together-${k}`);
    const titled = JSON.stringify(`${server.url}/titled`);
    await Promise.all(sessions.map((s) => run(`await page.goto(${titled}); return 1`, s)));
    // A page that made its address 1.5 MB long: read, never witnessed, no batch carries its address, and its
    // envelope carries the address cut at a delimiter.
    const long = await bw.run(`await page.goto(${titled}); return page.evaluate(() => { history.pushState(null, "", "/x/" + "u".repeat(1_500_000)); document.title = "long"; return location.href.length })`, { session: "long-address" });
    expect(long.ok, JSON.stringify(long.error)).toBe(true);
    expect(long.result as number).toBeGreaterThan(1_500_000);
    expect(long.pages[0]).toMatchObject({ title: "long", url: `${server.url}/x/…` });
    for (let round = 0; round < 8; round++) {
      const seen = await Promise.all(sessions.map(async (s, k) => {
        // Every other session leaves its title as the round before set it.
        const code = (round + k) % 2 ? "return page.evaluate(() => 1)" : `return page.evaluate((t) => { document.title = t; return 1 }, ${JSON.stringify(`${s} ${round}`)})`;
        return (await run(code, s)).title;
      }));
      expect(seen).toEqual(sessions.map((s, k) => ((round + k) % 2 ? (round === 0 ? "Front" : `${s} ${round - 1}`) : `${s} ${round}`)));
    }
  });

  it("never takes an untitled page's copy, its address, for its title, nor a title that reads as the address", async () => {
    expect((await run(`await page.goto(${JSON.stringify(`${server.url}/plain`)}); return 1`, "plain")).title).toBe("");
    expect((await run("return page.evaluate(() => 1)", "plain")).title).toBe("");
    const address = (await run("return page.evaluate(() => location.host + location.pathname)", "plain")).result as string;
    expect((await run("return page.evaluate(() => { document.title = location.host + location.pathname })", "plain")).title).toBe(address);
    expect((await run("return page.evaluate(() => 1)", "plain")).title).toBe(address);
    expect((await run('return page.evaluate(() => { document.title = "" })', "plain")).title).toBe("");
    expect((await run("return page.evaluate(() => 1)", "plain")).title).toBe("");
  });
});
