// action_and_wait for each waiter kind (navigation, response, popup,
// dialog), the `dialog` operation arming the next dialog, dialogs in the
// observation buffers, and the snippet's snapshot() answering as the
// operation when given its options.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

describe("actions and what they cause", () => {
  let home: string;
  let server: TestServer;
  const S = ["--session", "waits"];
  const op = async (...args: string[]) => (await runCli([...args, ...S, "--json"], { home })).json;

  beforeAll(async () => {
    home = tempHome();
    server = await startServer({
      "/start": `<title>Start</title>
        <a href="/next">Next</a>
        <button onclick="fetch('/api/data?token=abc')">Load</button>
        <button onclick="window.open('/popup')">Open</button>
        <button onclick="document.getElementById('out').textContent = confirm('Sure?') ? 'yes' : 'no'">Confirm</button>
        <button onclick="document.getElementById('out').textContent = prompt('Name?') ?? 'none'">Ask</button>
        <p id="out">-</p>`,
      "/next": "<title>Next</title>",
      "/popup": "<title>Popup</title>",
      "/api/data": (_req, res) => { res.writeHead(201, { "content-type": "application/json" }).end("{}"); },
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  const out = async () => (await runCli(["read", "--selector", "#out", ...S, "--json"], { home })).json.result.text;

  it("waits for the navigation, the response and the popup one click causes", async () => {
    await op("navigate", `${server.url}/start`);
    const nav = await op("action_and_wait", "navigation", "--role", "link", "--name", "Next", "--url", "**/next");
    expect(nav).toMatchObject({ ok: true, result: { event: "navigation", url: `${server.url}/next`, title: "Next", target: 'link "Next"' } });

    await op("navigate", `${server.url}/start`);
    const response = await op("action_and_wait", "response", "--role", "button", "--name", "Load", "--url", "**/api/*");
    expect(response.result).toMatchObject({ event: "response", status: 201, url: `${server.url}/api/data?token=REDACTED` });

    const popup = await op("action_and_wait", "popup", "--role", "button", "--name", "Open");
    expect(popup.result).toMatchObject({ event: "popup", url: `${server.url}/popup`, pageId: expect.stringMatching(/^p\d+$/) });
    expect(popup.pages.map((p: { pageId: string }) => p.pageId)).toContain(popup.result.pageId);
    await op("tabs", "close", popup.result.pageId);
  });

  it("answers the dialog one action causes as asked, and a dialog armed for, and dismisses the rest", async () => {
    await op("navigate", `${server.url}/start`);
    const accepted = await op("action_and_wait", "dialog", "--role", "button", "--name", "Confirm", "--dialog", "accept");
    expect(accepted.result).toMatchObject({ event: "dialog", type: "confirm", message: "Sure?" });
    expect(await out()).toBe("yes");

    expect((await op("dialog", "accept", "Ada")).result).toMatchObject({ armed: "accept" });
    await op("click", "--role", "button", "--name", "Ask");
    expect(await out()).toBe("Ada");
    // Armed once: the next one is dismissed again.
    await op("click", "--role", "button", "--name", "Confirm");
    expect(await out()).toBe("no");

    const seen = await op("observe", "dialogs");
    expect(seen.result.entries.map((e: { type: string; text: string }) => `${e.type}: ${e.text}`)).toEqual(["confirm: Sure?", "prompt: Name?", "confirm: Sure?"]);
  });

  it("refuses action_and_wait with nothing to do, and a url for a dialog", async () => {
    expect((await op("action_and_wait", "navigation")).error).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/target to click or a key/) });
    expect((await op("action_and_wait", "dialog", "--key", "Enter", "--url", "x")).error).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/^--url: /) });
  });

  it("gives a snippet the operation's snapshot when asked with its options, and its refs then act", async () => {
    await op("navigate", `${server.url}/start`);
    const fromSnippet = await runCli(["exec", ...S, "-c", "const s = await snapshot({ interactive: true }); return { text: s.text, plain: typeof (await snapshot()) }"], { home });
    expect(fromSnippet.json.result.plain).toBe("string");
    const ref = /button "Confirm" \[((?:f\d+)?e\d+)\]/.exec(fromSnippet.json.result.text)![1]!;
    await op("dialog", "accept");
    expect((await op("click", ref)).ok).toBe(true);
    expect(await out()).toBe("yes");
  });
});
