// Every typed operation once, through the real CLI against local pages, and
// operations interleaved with snippets in one session's lane in the order
// they were accepted (asserted from inside: what each saw of the one before).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright } from "../../dist/client/index.js";
import { CANARY_PASSWORD } from "../helpers/canary.js";
import { cleanEnv, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const CONTROLS = `<title>Controls</title>
  <label>Name <input id="name"></label><label>Note <input id="note"></label>
  <label><input type="checkbox" id="agree"> Agree</label>
  <label>Colour <select id="colour"><option value="r">Red</option><option value="g">Green</option></select></label>
  <input type="file" id="file" aria-label="Attachment">
  <div id="hover" onmouseover="this.textContent='hovered'" style="width:100px;height:30px">hover me</div>
  <div id="src" draggable="true" ondragstart="event.dataTransfer.setData('text', 'x')" style="width:60px;height:30px">drag</div>
  <div id="dst" ondragover="event.preventDefault()" ondrop="event.preventDefault(); this.textContent='dropped'" style="width:60px;height:30px">drop here</div>
  <button id="later" onclick="setTimeout(() => { const p = document.createElement('p'); p.textContent = 'Arrived'; document.body.append(p) }, 300)">Later</button>
  <div style="height:3000px"></div><p id="bottom">Bottom</p>
  <form action="/submitted"><input name="q" aria-label="Query"></form>`;

describe("every typed operation", () => {
  let home: string;
  let server: TestServer;
  const S = ["--session", "all"];
  const op = async (...args: string[]) => {
    const r = await runCli([...args, ...S, "--json"], { home });
    expect(r.json, `${args.join(" ")}: exit ${r.code}: ${r.stdout.slice(0, 500)} ${r.stderr.slice(0, 500)}`).toMatchObject({ ok: true });
    return r.json.result;
  };
  const snippet = async (code: string) => (await runCli(["exec", ...S, "-c", code], { home })).json.result;
  const refOf = (text: string, what: string) => /\[((?:f\d+)?e\d+)\]/.exec(text.split("\n").find((l) => l.includes(what)) ?? "")?.[1];

  beforeAll(async () => {
    home = tempHome();
    server = await startServer({
      "/one": "<title>One</title><a href='/two'>two</a>",
      "/two": "<title>Two</title><p>second</p>",
      "/controls": CONTROLS,
      "/submitted": "<title>Submitted</title>",
      "/login": "<title>Login</title><form method='post' action='/welcome'><input name='user' autocomplete='username'><input type='password' name='password'><button>Sign in</button></form>",
      "/welcome": (_req, res) => { res.writeHead(200, { "content-type": "text/html" }).end("<title>Welcome</title>"); },
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("navigates, goes back and forward, reloads, reads and finds", async () => {
    expect(await op("navigate", `${server.url}/one`)).toMatchObject({ title: "One", status: 200 });
    expect(await op("navigate", `${server.url}/two`, "--wait-until", "domcontentloaded")).toMatchObject({ title: "Two" });
    expect(await op("back")).toMatchObject({ url: `${server.url}/one`, moved: true });
    expect(await op("forward")).toMatchObject({ url: `${server.url}/two`, moved: true });
    expect(await op("reload")).toMatchObject({ title: "Two", status: 200 });
    expect(await op("read")).toMatchObject({ url: `${server.url}/two`, title: "Two", text: "second", truncated: false });
    expect(await op("read", "--max-chars", "100")).toMatchObject({ totalChars: 6 });
    await op("navigate", `${server.url}/controls`);
    const found = await op("find", "/^- (button|checkbox)/");
    // The file input is a button named by its label.
    expect(found.matches).toEqual([expect.stringMatching(/^- checkbox "Agree" \[(f\d+)?e\d+\]$/), expect.stringMatching(/^- button "Attachment"/), expect.stringMatching(/^- button "Later"/)]);
    expect((await op("find", "colour")).count).toBeGreaterThan(0);
  });

  it("fills, types, selects, checks, presses, hovers, focuses, scrolls, drags and uploads", async () => {
    await op("navigate", `${server.url}/controls`);
    const snap = (await op("snapshot")).text as string;
    const ref = (what: string) => refOf(snap, what)!;
    expect(await op("fill", ref('textbox "Name"'), "Ada")).toMatchObject({ target: expect.stringContaining('"Name"') });
    await op("type", ref('textbox "Note"'), "hello");
    await op("type", " world");
    await op("fill_form", `${ref('textbox "Name"')}=Grace`);
    expect(await op("select", ref("combobox"), "Green")).toMatchObject({ selected: ["g"] });
    await op("check", ref('checkbox "Agree"'));
    await op("uncheck", ref('checkbox "Agree"'));
    await op("check", "--label", "Agree");
    await op("focus", ref('textbox "Note"'));
    await op("press", "End");
    await op("press", ref('textbox "Note"'), "!");
    await op("hover", "--selector", "#hover");
    await op("drag", "--args", JSON.stringify({ source: { selector: "#src" }, target: { selector: "#dst" } }));
    await op("scroll_into_view", "--selector", "#bottom");
    await op("scroll", "--dy", "-500");
    await op("scroll-into-view", "--selector", "#name");
    const state = await snippet(`return page.evaluate(() => ({
      name: document.getElementById('name').value, note: document.getElementById('note').value,
      colour: document.getElementById('colour').value, agree: document.getElementById('agree').checked,
      hover: document.getElementById('hover').textContent, drop: document.getElementById('dst').textContent }))`);
    expect(state).toEqual({ name: "Grace", note: "hello world!", colour: "g", agree: true, hover: "hovered", drop: "dropped" });
    // Upload takes files of the session's artifact folder only.
    const refused = await runCli(["upload", "--selector", "#file", "../../etc/passwd", ...S, "--json"], { home });
    expect(refused.json.error.code).toBe("INVALID_ARGUMENT");
    const shot = await op("screenshot");
    const uploaded = await runCli(["upload", "--selector", "#file", shot.path.split("/").pop(), ...S, "--json"], { home });
    expect(uploaded.json.ok).toBe(true);
    expect(await snippet("return page.evaluate(() => document.getElementById('file').files.length)")).toBe(1);
  });

  it("waits for text, text gone, a URL, a load state, an element and a pause", async () => {
    await op("navigate", `${server.url}/controls`);
    await op("click", "--role", "button", "--name", "Later");
    expect((await op("wait_for", "--text", "Arrived")).waitedMs).toBeGreaterThan(0);
    await snippet("await page.evaluate(() => document.querySelector('p:last-of-type').remove()); return 1");
    await op("wait_for", "--text-gone", "Arrived");
    await op("click", "--role", "button", "--name", "Later");
    await op("wait_for", "--args", JSON.stringify({ target: { text: "Arrived" } }));
    await op("fill", "--label", "Query", "cats");
    await op("press", "--label", "Query", "Enter");
    await op("wait_for", "--url", "**/submitted?q=cats");
    await op("wait_for", "--load", "load");
    expect((await op("wait_for", "--ms", "50")).waitedMs).toBeGreaterThanOrEqual(45);
  });

  it("screenshots to the artifact store, and opens, selects and closes tabs", async () => {
    await op("navigate", `${server.url}/one`);
    const shot = await op("screenshot", "--type", "jpeg");
    expect(shot).toMatchObject({ type: "jpeg", bytes: expect.any(Number), width: expect.any(Number) });
    const snap = (await op("snapshot")).text as string;
    expect(await op("screenshot", refOf(snap, 'link "two"')!)).toMatchObject({ type: "png" });
    const opened = await op("tabs", "new", `${server.url}/two`);
    expect(opened.active).toBe(opened.pages[opened.pages.length - 1].pageId);
    expect(opened.pages.map((p: { title: string }) => p.title)).toContain("Two");
    expect((await op("tabs", "select", opened.pages[0].pageId)).active).toBe(opened.pages[0].pageId);
    const closed = await op("tabs", "close", opened.active);
    expect(closed.pages).toHaveLength(opened.pages.length - 1);
    expect((await op("tabs")).pages).toHaveLength(opened.pages.length - 1);
  });

  it("fills a login from the vault without the secret reaching any output", async () => {
    await op("navigate", `${server.url}/login`);
    const filled = await op("credentials_fill", "--submit");
    expect(filled).toMatchObject({ username: "canary", filled: { password: true }, submitted: true });
    const after = await runCli(["observe", "network", ...S, "--json"], { home });
    expect(after.stdout).not.toContain(CANARY_PASSWORD);
    expect(after.stdout).not.toContain(encodeURIComponent(CANARY_PASSWORD));
    // A vault secret sent back as an argument is redacted from the transcript like any output.
    await op("navigate", `${server.url}/controls`);
    await op("fill", "--label", "Name", CANARY_PASSWORD);
  });

  it("runs operations and snippets of one session in the order they were accepted", async () => {
    const bw = new BetterWright({ home, env: cleanEnv(home) });
    try {
      const session = "lane";
      await bw.op("navigate", { url: `${server.url}/one` }, { session });
      const first = bw.run("await page.waitForTimeout(400); await page.evaluate(() => { document.title = 'set by the snippet' }); return 1", { session });
      const read = bw.op("read", {}, { session });
      const go = bw.op("navigate", { url: `${server.url}/two` }, { session });
      const last = bw.run("return page.url()", { session });
      const [e1, e2, e3, e4] = await Promise.all([first, read, go, last]);
      expect((e2.result as { title: string }).title).toBe("set by the snippet");
      expect(e3.ok).toBe(true);
      expect(e4.result).toBe(`${server.url}/two`);
      expect([e1.seq, e2.seq, e3.seq, e4.seq]).toEqual([e1.seq, e1.seq + 1, e1.seq + 2, e1.seq + 3]);
    } finally {
      await bw.close();
    }
  });
});
