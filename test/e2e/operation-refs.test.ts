// Refs that never point at the wrong element: through the real CLI, a ref
// acts on the element it named; after a navigation (of the page or of a
// frame), a DOM replacement, or from another page, it fails at once with
// STALE_REF and the element that now has that ref is never clicked. A locator
// that matches several elements acts on none.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

/** A button that reports its click to the server (so a click is seen even when its page is gone). */
const button = (label: string, path: string) => `<button onclick="fetch('${path}')">${label}</button>`;

describe("typed operations on refs", () => {
  let home: string;
  let server: TestServer;
  const S = ["--session", "refs"];

  const op = async (...args: string[]) => {
    const r = await runCli([...args, ...S, "--json"], { home });
    return { ...r, envelope: r.json };
  };
  /** The ref of the first snapshot line that contains `text`. */
  const refOf = (snapshotText: string, text: string) => /\[((?:f\d+)?e\d+)\]/.exec(snapshotText.split("\n").find((l) => l.includes(text)) ?? "")?.[1];
  const clicks = (path: string) => server.requests.filter((r) => r === path).length;

  beforeAll(async () => {
    home = tempHome();
    server = await startServer({
      "/a": `<title>A</title><h1>First</h1>${button("Safe", "/safe")}${button("Keep", "/keep")}<a href="/b">to b</a>`,
      // The same shape: the element at Safe's place is Danger.
      "/b": `<title>B</title><h1>Second</h1>${button("Danger", "/danger")}${button("Keep", "/keep")}<a href="/a">to a</a>`,
      "/framed": `<title>Framed</title><iframe id="f" src="/frame-safe"></iframe>`,
      "/frame-safe": button("Safe", "/safe"),
      "/frame-danger": button("Danger", "/danger"),
      "/dup": `<title>Dup</title><button onclick="fetch('/dup-clicked')">Save</button><button onclick="fetch('/dup-clicked')">Save</button><button onclick="fetch('/one')">Once</button>`,
      "/safe": "", "/keep": "", "/danger": "", "/dup-clicked": "", "/one": "",
    });
    const nav = await op("navigate", `${server.url}/a`);
    expect(nav.envelope).toMatchObject({ ok: true, result: { url: `${server.url}/a`, title: "A", status: 200 } });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("clicks the element a ref of the latest snapshot names", async () => {
    const snap = await op("snapshot");
    expect(snap.code).toBe(0);
    const safe = refOf(snap.envelope.result.text, '"Safe"')!;
    expect(safe).toBeDefined();
    const click = await op("click", safe);
    expect(click.envelope).toMatchObject({ ok: true, result: { target: `button "Safe" [${safe}]` } });
    await expect.poll(() => clicks("/safe")).toBe(1);
  });

  it("refuses a ref after its page navigated, at once, and never clicks what now has that ref", async () => {
    await op("navigate", `${server.url}/a`);
    const safe = refOf((await op("snapshot")).envelope.result.text, '"Safe"')!;
    await op("navigate", `${server.url}/b`);
    // Playwright's own refs for the new document exist too (a snippet asked for them).
    const raw = await runCli(["exec", ...S, "-c", "return page.ariaSnapshot({ mode: 'ai' })"], { home });
    expect(raw.json.result).toContain("Danger");
    const before = clicks("/danger");
    const stale = await op("click", safe);
    expect(stale.code).toBe(1);
    expect(stale.envelope.error).toMatchObject({ code: "STALE_REF" });
    expect(stale.envelope.error.message).toMatch(/navigated/);
    // At once: far from the 30 s default budget an unresolvable locator would wait out.
    expect(stale.envelope.durationMs).toBeLessThan(2_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(clicks("/danger")).toBe(before);
  });

  it("refuses a frame's ref after the frame navigated, where Playwright would resolve it to the new button", async () => {
    await op("navigate", `${server.url}/framed`);
    const safe = refOf((await op("snapshot")).envelope.result.text, '"Safe"')!;
    expect(safe).toMatch(/^f\d+e\d+$/);
    await runCli(["exec", ...S, "-c", "await page.evaluate(() => { document.getElementById('f').src = '/frame-danger' }); await page.frameLocator('#f').getByText('Danger').waitFor(); return 1"], { home });
    // The same ref string now names Danger in Playwright's own snapshot of the new frame document.
    const raw = await runCli(["exec", ...S, "-c", "return page.ariaSnapshot({ mode: 'ai' })"], { home });
    expect(raw.json.result).toContain(`button "Danger" [ref=${safe}]`);
    const before = clicks("/danger");
    const stale = await op("click", safe);
    expect(stale.envelope.error).toMatchObject({ code: "STALE_REF" });
    expect(stale.envelope.durationMs).toBeLessThan(2_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(clicks("/danger")).toBe(before);
  });

  it("refuses a ref whose element was replaced, one the latest snapshot lacks, and one of another page", async () => {
    const before = clicks("/danger");
    await op("navigate", `${server.url}/a`);
    const keep = refOf((await op("snapshot")).envelope.result.text, '"Keep"')!;
    await runCli(["exec", ...S, "-c", `await page.evaluate(() => { document.body.innerHTML = ${JSON.stringify(button("Keep", "/danger"))} }); return 1`], { home });
    const replaced = await op("click", keep);
    expect(replaced.envelope.error).toMatchObject({ code: "STALE_REF" });
    expect(replaced.envelope.error.message).toMatch(/no longer points at an element/);
    expect(replaced.envelope.durationMs).toBeLessThan(2_000);

    expect((await op("click", "e999")).envelope.error).toMatchObject({ code: "STALE_REF", message: expect.stringMatching(/not in the latest snapshot/) });

    await op("navigate", `${server.url}/a`);
    const safe = refOf((await op("snapshot")).envelope.result.text, '"Safe"')!;
    const opened = await op("tabs", "new", `${server.url}/b`);
    expect(opened.envelope.result.active).toBe("p2");
    const other = await op("click", safe);
    expect(other.envelope.error).toMatchObject({ code: "STALE_REF", message: expect.stringMatching(/snapshot of page p1, but p2 is the active page/) });
    await op("tabs", "close", "p2");
    await new Promise((r) => setTimeout(r, 200));
    expect(clicks("/danger")).toBe(before);
  });

  it("refuses a locator that matches several elements, naming the count, and the session goes on", async () => {
    await op("navigate", `${server.url}/dup`);
    const ambiguous = await op("click", "--role", "button", "--name", "Save");
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.envelope.error).toMatchObject({ code: "LOCATOR_AMBIGUOUS", details: { count: 2 } });
    expect(ambiguous.envelope.error.message).toMatch(/matches 2 elements/);
    const text = await op("click", "--text", "Save");
    expect(text.envelope.error).toMatchObject({ code: "LOCATOR_AMBIGUOUS", details: { count: 2 } });
    await new Promise((r) => setTimeout(r, 200));
    expect(clicks("/dup-clicked")).toBe(0);
    const once = await op("click", "--role", "button", "--name", "Once");
    expect(once.envelope).toMatchObject({ ok: true, result: { target: 'button "Once"' } });
    await expect.poll(() => clicks("/one")).toBe(1);
  });

  it("refuses bad arguments with INVALID_ARGUMENT naming the argument as the user typed it (exit 2)", async () => {
    const selector = await op("click", "#submit");
    expect(selector.code).toBe(2);
    expect(selector.envelope.error).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/^TARGET: /) });
    const button = await op("click", "e1", "--button", "fourth");
    expect(button.envelope.error).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/^--button: /) });
    const missing = await op("navigate");
    expect(missing.envelope.error).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/^URL: /) });
    const scheme = await op("navigate", "file:///etc/passwd");
    expect(scheme.envelope.error.code).toBe("BLOCKED_URL");
  });
});
