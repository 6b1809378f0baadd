// Every element an agent can act on has a ref, and acting on it by ref or by
// role and name works, through the real CLI: a web component whose checkbox
// is a visually hidden input under a drawn box, in its open shadow root
// (Playwright gives that input no ref, and a click on it lands on the box),
// and a checkbox and a button inside an iframe.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const TERMS = "I accept the terms and conditions";
const PAGE = `<title>Checkout</title>
  <terms-box></terms-box>
  <iframe src="/payment" title="Payment" style="width:400px;height:160px"></iframe>
  <script>
    customElements.define("terms-box", class extends HTMLElement {
      constructor() {
        super();
        this.attachShadow({ mode: "open" }).innerHTML =
          '<style>input { position: absolute; width: 1px; height: 1px; margin: -1px; clip: rect(0 0 0 0); pointer-events: none }</style>' +
          '<label style="cursor: pointer; display: inline-flex; gap: 4px"><input type="checkbox"><span style="width: 16px; height: 16px; border: 1px solid"></span><span>${TERMS}</span></label>';
      }
    });
  </script>`;
const PAYMENT = `<title>Payment</title><label><input type="checkbox"> Save card</label>
  <button onclick="document.getElementById('out').textContent = 'paid'">Pay</button><p id="out">unpaid</p>`;

describe("refs and targets inside shadow roots and frames", () => {
  let home: string;
  let server: TestServer;
  const S = ["--session", "shadow"];
  const run = async (...args: string[]) => (await runCli([...args, ...S, "--json"], { home })).json;
  const snapshotText = async () => (await run("snapshot")).result.text as string;
  const lineOf = (text: string, needle: string) => text.split("\n").find((l) => l.includes(needle)) ?? "";
  const refOn = (line: string) => /\[((?:f\d+)?e\d+)\]$/.exec(line.trim())?.[1];

  beforeAll(async () => {
    home = tempHome();
    server = await startServer({ "/": PAGE, "/payment": PAYMENT });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("gives the web component's checkbox a ref, and checks it by that ref and by role and name", async () => {
    expect(await run("navigate", `${server.url}/`)).toMatchObject({ ok: true });
    const line = lineOf(await snapshotText(), `checkbox "${TERMS}"`);
    const ref = refOn(line);
    expect(ref, line).toBeDefined();
    expect(await run("check", ref!, "--timeout", "20")).toMatchObject({ ok: true });
    expect(lineOf(await snapshotText(), `checkbox "${TERMS}"`)).toContain("[checked]");

    expect(await run("uncheck", "--role", "checkbox", "--name", TERMS, "--timeout", "20")).toMatchObject({ ok: true });
    expect(lineOf(await snapshotText(), `checkbox "${TERMS}"`)).not.toContain("[checked]");
    expect(await run("check", "--role", "checkbox", "--name", TERMS, "--timeout", "20")).toMatchObject({ ok: true });
    expect(lineOf(await snapshotText(), `checkbox "${TERMS}"`)).toContain("[checked]");
  });

  it("gives the iframe's elements refs, and acts on them by ref and by role and name", async () => {
    expect(await run("navigate", `${server.url}/`)).toMatchObject({ ok: true });
    const text = await snapshotText();
    const save = refOn(lineOf(text, 'checkbox "Save card"'));
    expect(save, text).toMatch(/^f\d+e\d+$/);
    expect(await run("check", save!, "--timeout", "20")).toMatchObject({ ok: true });
    expect(lineOf(await snapshotText(), 'checkbox "Save card"')).toContain("[checked]");

    expect(await run("uncheck", "--role", "checkbox", "--name", "Save card", "--timeout", "20")).toMatchObject({ ok: true });
    expect(lineOf(await snapshotText(), 'checkbox "Save card"')).not.toContain("[checked]");
    expect(await run("click", "--role", "button", "--name", "Pay", "--timeout", "20")).toMatchObject({ ok: true });
    expect(await snapshotText()).toContain("paid");
  });
});
