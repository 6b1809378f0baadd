// Failures that say what they waited for and what to do next, through the
// real CLI against local pages: a navigation that runs out of time names its
// URL (from a snippet and as an operation), a wait names its text, a target
// that matches nothing is ELEMENT_NOT_FOUND within the short element wait
// rather than the whole budget, a click under an overlay is ELEMENT_OBSCURED
// naming the overlay, and credentials_fill fails with the operations' codes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ELEMENT_WAIT_MS } from "../../shared/protocol/operations/index.js";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

// Far more than the short element wait, so that a failure well inside it is the short wait's, not the budget's.
const BUDGET_S = "25";
const OVERLAY = `<title>Shop</title>
  <div id="consent" aria-label="Cookie consent" style="position:fixed;inset:0;background:rgba(0,0,0,.4);z-index:9">We use cookies</div>
  <button onclick="this.textContent='bought'">Buy</button>`;

describe("failures that name what they waited for", () => {
  let home: string;
  let server: TestServer;
  const S = ["--session", "fails"];
  const run = async (...args: string[]) => (await runCli([...args, ...S, "--json"], { home })).json;

  beforeAll(async () => {
    home = tempHome();
    server = await startServer({
      // Never answers: a navigation to it waits until its budget ends.
      "/never": () => {},
      "/plain": "<title>Plain</title><h1>Plain</h1><button>Save</button>",
      "/shop": OVERLAY,
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("names the URL a navigation waited for when the budget ran out, from a snippet and as an operation", async () => {
    const url = `${server.url}/never?token=s3cret`;
    const snippet = await run("exec", "--timeout", "4", "-c", `await page.goto(${JSON.stringify(url)})`);
    expect(snippet).toMatchObject({ ok: false, error: { code: "SNIPPET_TIMEOUT" } });
    expect(snippet.error.message).toContain(`${server.url}/never`);
    expect(snippet.error.message).not.toContain("\u001b[");

    // In a session of its own: the snippet's page still waits for its answer.
    const op = (await runCli(["navigate", `${server.url}/never?op=1`, "--timeout", "4", "--session", "fails-nav", "--json"], { home })).json;
    expect(op).toMatchObject({ ok: false, error: { code: "SNIPPET_TIMEOUT" } });
    expect(op.error.message).toContain(`${server.url}/never`);
  });

  it("names the text a wait_for waited for", async () => {
    expect(await run("navigate", `${server.url}/plain`)).toMatchObject({ ok: true });
    const waited = await run("wait_for", "--text", "Order confirmed", "--timeout", "3");
    expect(waited).toMatchObject({ ok: false, error: { code: "SNIPPET_TIMEOUT" } });
    expect(waited.error.message).toContain("Order confirmed");
  });

  it("fails a target that matches nothing with ELEMENT_NOT_FOUND within the short wait, naming it and the page", async () => {
    expect(await run("navigate", `${server.url}/plain`)).toMatchObject({ ok: true });
    for (const verb of [["click", "--role", "button", "--name", "Publish"], ["check", "--role", "checkbox", "--name", "I accept"], ["fill", "--label", "Email", "x@example.test"]]) {
      const failed = await run(...verb, "--timeout", BUDGET_S);
      expect(failed, verb.join(" ")).toMatchObject({ ok: false, error: { code: "ELEMENT_NOT_FOUND" } });
      expect(failed.error.message).toContain(`${server.url}/plain`);
      expect(failed.error.message).toMatch(/snapshot/);
      expect(failed.durationMs).toBeLessThan(Number(BUDGET_S) * 1000 / 2);
      expect(failed.durationMs).toBeGreaterThanOrEqual(DEFAULT_ELEMENT_WAIT_MS - 100);
    }
    expect((await run("click", "--role", "button", "--name", "Publish", "--timeout", BUDGET_S)).error.message).toContain('button "Publish"');
  });

  it("waits as long for a missing target as BETTERWRIGHT_ELEMENT_WAIT_SECONDS says", async () => {
    expect(await run("navigate", `${server.url}/plain`)).toMatchObject({ ok: true });
    const failed = (await runCli(["click", "--role", "button", "--name", "Publish", "--timeout", BUDGET_S, ...S, "--json"], { home, env: { BETTERWRIGHT_ELEMENT_WAIT_SECONDS: "5" } })).json;
    expect(failed).toMatchObject({ ok: false, error: { code: "ELEMENT_NOT_FOUND", details: { waitedMs: 5_000 } } });
    expect(failed.durationMs).toBeGreaterThanOrEqual(4_900);
  });

  it("fails a click on a covered button with ELEMENT_OBSCURED, naming the cover, and never clicks it", async () => {
    expect(await run("navigate", `${server.url}/shop`)).toMatchObject({ ok: true });
    const failed = await run("click", "--role", "button", "--name", "Buy", "--timeout", BUDGET_S);
    expect(failed).toMatchObject({ ok: false, error: { code: "ELEMENT_OBSCURED" } });
    expect(failed.error.message).toContain('id="consent"');
    expect(failed.error.message).toContain('button "Buy"');
    expect(failed.durationMs).toBeLessThan(Number(BUDGET_S) * 1000 / 2);
    // Through a ref as well.
    const snap = await run("snapshot");
    const ref = /button "Buy" \[((?:f\d+)?e\d+)\]/.exec(snap.result.text)?.[1];
    expect(ref).toBeDefined();
    expect(await run("click", ref!, "--timeout", BUDGET_S)).toMatchObject({ ok: false, error: { code: "ELEMENT_OBSCURED" } });
    expect((await run("read")).result.text).not.toContain("bought");
    // Once the cover is gone, the same click works.
    await run("exec", "-c", "await page.evaluate(() => document.getElementById('consent').remove()); return 1");
    expect(await run("click", "--role", "button", "--name", "Buy")).toMatchObject({ ok: true });
    expect((await run("read")).result.text).toContain("bought");
  });

  it("fails credentials_fill on a page with no login form with ELEMENT_NOT_FOUND, in the short wait", async () => {
    expect(await run("navigate", `${server.url}/plain`)).toMatchObject({ ok: true });
    const failed = await run("credentials_fill", "--timeout", BUDGET_S);
    expect(failed).toMatchObject({ ok: false, error: { code: "ELEMENT_NOT_FOUND" } });
    expect(failed.durationMs).toBeLessThan(Number(BUDGET_S) * 1000 / 2);
  });
});
