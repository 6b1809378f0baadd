// The live view in a real browser: Playwright drives the project's Chromium
// against `betterwright serve`. A person logs in with the token (an HttpOnly,
// SameSite=Strict cookie that is not the token), sees an HTTP session appear
// with its URL and transcript, opens it, and sees its screenshot change after
// the session navigates; then drives a session opened with hand-off by clicking
// its screenshot and typing. Page text from the web is shown as text, never markup.
import { createHash, randomUUID } from "node:crypto";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findBrowser } from "../../shared/browser-discovery.js";
import { destroyHome, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { call, startServe, type Served } from "../helpers/serve.js";

describe("betterwright serve: the live view", () => {
  let home: string;
  let pages: TestServer;
  let served: Served;
  let browser: Browser;
  let page: Page;
  const id = randomUUID();

  beforeAll(async () => {
    home = tempHome("bw-http-live-");
    pages = await startServer({
      "/alpha": `<title>alpha &lt;b id=injected&gt;x&lt;/b&gt;</title><body style="background:#c00"><h1>alpha</h1></body>`,
      "/beta": `<title>beta</title><body style="background:#00c"><h1>beta</h1></body>`,
      "/form": `<title>form</title><style>body{margin:0}</style>
        <button style="position:absolute;left:100px;top:200px;width:300px;height:100px" onclick="this.textContent='clicked'">press</button>
        <input id=i style="position:absolute;left:100px;top:400px" onfocus="document.getElementById('o').textContent='focused'" oninput="document.getElementById('o').textContent='typed:'+this.value"><p id=o style="position:absolute;top:0"></p>`,
    });
    served = await startServe(home, ["--allow-host", "127.0.0.1"]);
    const executablePath = findBrowser({ explicit: null, headless: true }).found?.path;
    if (!executablePath) throw new Error("no Chromium for the viewer");
    browser = await chromium.launch({ executablePath, headless: true });
    page = await browser.newPage();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await pages?.close();
    await destroyHome(home);
  }, 60_000);

  /** A digest of the screenshot the open card shows. */
  const shownShot = (): Promise<string> => page.evaluate(async (session) => {
    const img = document.querySelector(`[data-session="${session}"] img`) as HTMLImageElement | null;
    if (!img?.src) return "";
    const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
    return Array.from(bytes.slice(-4096)).join(",");
  }, id).then((s) => createHash("sha256").update(s).digest("hex"));

  it("asks for the token, and answers nothing without the login", async () => {
    await page.goto(`${served.url}/`);
    await expect.poll(() => page.locator("input[name=token]").count()).toBe(1);
    expect(await page.evaluate(async () => (await fetch("/live/sessions")).status)).toBe(401);
    await page.fill("input[name=token]", "not-the-token-but-long-enough-to-look-right");
    await page.click("button");
    expect(await page.textContent("body")).toContain("not this server");
  });

  it("logs in with the token into an HttpOnly, SameSite=Strict cookie that is not the token", async () => {
    await page.fill("input[name=token]", served.token);
    await page.click("button");
    await page.waitForSelector("#sessions", { state: "attached" });
    const cookies = await page.context().cookies();
    expect(cookies).toEqual([expect.objectContaining({ name: "bw_live", httpOnly: true, sameSite: "Strict" })]);
    expect(cookies[0]!.value).not.toContain(served.token);
    expect(await page.evaluate(() => document.cookie)).toBe("");
    expect(await page.content()).not.toContain(served.token);
  });

  it("shows a session as it appears, with its page as text, and its screenshot changing after it navigates", async () => {
    expect((await call(served, "POST", "/sessions", { body: { id, url: `${pages.url}/alpha` } })).status).toBe(201);
    const card = page.locator(`[data-session="${id}"]`);
    await card.waitFor({ timeout: 15_000 });
    await expect.poll(() => card.textContent(), { timeout: 10_000 }).toContain(`${pages.url}/alpha`);
    expect(await card.textContent()).toContain("<b id=injected>x</b>");
    expect(await page.locator("#injected").count()).toBe(0);
    expect(await card.textContent()).toContain("navigate");
    await card.click();
    await expect.poll(() => page.evaluate((s) => (document.querySelector(`[data-session="${s}"] img`) as HTMLImageElement | null)?.dataset.loaded ?? "", id), { timeout: 10_000 }).not.toBe("");
    const before = await shownShot();
    expect((await call(served, "POST", `/sessions/${id}/navigate`, { body: { url: `${pages.url}/beta` } })).status).toBe(200);
    await expect.poll(() => card.textContent(), { timeout: 10_000 }).toContain(`${pages.url}/beta`);
    await expect.poll(shownShot, { timeout: 10_000, interval: 500 }).not.toBe(before);
    // Each line says what ran, on which page, and how it ended.
    expect((await call(served, "GET", `/sessions/${id}/read`)).status).toBe(200);
    await expect.poll(async () => (await card.locator("li").allTextContents()).some((t) => /^#\d+ read .* · .*\/beta · ok$/.test(t)), { timeout: 10_000 }).toBe(true);
    // The view's own screenshots stay out of the transcript it shows.
    expect((await card.locator("li").allTextContents()).filter((t) => t.includes("screenshot"))).toEqual([]);
  });

  it("hands a session its opener allowed over to a person: a click on its screenshot and typed text reach the page, and the transcript", async () => {
    const driven = randomUUID();
    expect((await call(served, "POST", "/sessions", { body: { id: driven, url: `${pages.url}/form`, handoff: true } })).status).toBe(201);
    expect((await call(served, "POST", `/live/sessions/${id}/input`, { body: { type: "key", key: "Tab" } }))).toMatchObject({ status: 403, json: { error: { code: "UNAUTHORIZED" } } });
    await page.locator(`[data-session="${id}"]`).click({ position: { x: 5, y: 5 } });
    const card = page.locator(`[data-session="${driven}"]`);
    await card.waitFor({ timeout: 15_000 });
    await card.click({ position: { x: 5, y: 5 } });
    const img = card.locator("img");
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.naturalWidth), { timeout: 10_000 }).toBe(1280);
    const box = (await img.boundingBox())!;
    await img.click({ position: { x: (250 * box.width) / 1280, y: (250 * box.height) / 800 } });
    await expect.poll(async () => (await call(served, "GET", `/sessions/${driven}/read`)).json.text, { timeout: 10_000 }).toContain("clicked");
    // The text field below the button, clicked on the screenshot too, takes the text.
    await img.click({ position: { x: (120 * box.width) / 1280, y: (410 * box.height) / 800 } });
    await expect.poll(async () => (await call(served, "GET", `/sessions/${driven}/read`)).json.text, { timeout: 10_000 }).toContain("focused");
    await card.locator("input").fill("hello");
    await card.locator("button", { hasText: "Type" }).click();
    await expect.poll(async () => (await call(served, "GET", `/sessions/${driven}/read`)).json.text, { timeout: 10_000 }).toContain("typed:hello");
    await expect.poll(async () => (await card.locator("li").allTextContents()).join(" "), { timeout: 10_000 }).toContain("type");
    await call(served, "POST", `/sessions/${driven}/close`);
  });

  it("logs out", async () => {
    await page.click("text=Log out");
    await expect.poll(() => page.locator("input[name=token]").count()).toBe(1);
    expect(await page.evaluate(async () => (await fetch("/live/sessions")).status)).toBe(401);
  });
});
