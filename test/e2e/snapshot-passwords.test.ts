// A snapshot never shows what is in a password field, wherever the field is:
// the main document, a web component's open shadow root, an iframe, nor a
// text field the page copies the password into. A page that breaks the DOM
// methods the masking reads with still gets its snapshot, every field value
// masked. Through the real CLI, daemon and Chromium.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const PAGE = `<title>Sign in</title>
  <label>Main password <input type="password" value="main-preset-31"></label>
  <label>Mirror <input id="mirror"></label>
  <secret-box></secret-box>
  <iframe src="/frame" title="Vault" style="width:400px;height:120px"></iframe>
  <script>
    customElements.define("secret-box", class extends HTMLElement {
      constructor() {
        super();
        this.attachShadow({ mode: "open" }).innerHTML = '<label>Shadow password <input type="password" value="shadow-preset-52"></label>';
      }
    });
    // The page copies whatever is typed into its first password field into a plain text field.
    document.querySelector("input[type=password]").addEventListener("input", (e) => { document.getElementById("mirror").value = e.target.value; });
  </script>`;
const FRAME = `<title>Vault</title><label>Frame password <input type="password" value="frame-preset-73"></label>`;
// Every DOM query the page's own scripts could reach throws.
const BROKEN = `<title>Broken</title><label>Password <input type="password" value="broken-preset-94"></label><button>Go</button>
  <script>for (const proto of [Document.prototype, Element.prototype, DocumentFragment.prototype]) proto.querySelectorAll = () => { throw new Error("no"); };</script>`;

const SECRETS = ["main-preset-31", "shadow-preset-52", "frame-preset-73", "typed-main-18", "typed-shadow-27", "typed-frame-36"];

describe("password values in snapshots", () => {
  let home: string;
  let server: TestServer;
  const S = ["--session", "pw"];
  const run = async (...args: string[]) => (await runCli([...args, ...S, "--json"], { home })).json;
  const navigate = async (path: string) => {
    const out = await run("navigate", `${server.url}${path}`);
    expect(out, JSON.stringify(out.error)).toMatchObject({ ok: true });
  };
  const refOf = (text: string, needle: string) => /\[((?:f\d+)?e\d+)\]/.exec(text.split("\n").find((l) => l.includes(needle)) ?? "")?.[1];

  beforeAll(async () => {
    home = tempHome();
    server = await startServer({ "/": PAGE, "/frame": FRAME, "/broken": BROKEN });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("masks them in the main document, a shadow root, an iframe and a field the page copies one into", async () => {
    await navigate("/");
    const first = (await run("snapshot")).result.text as string;
    expect(first).toContain('textbox "Shadow password"');
    expect(first).toContain('textbox "Frame password"');
    for (const [label, value] of [["Main password", "typed-main-18"], ["Shadow password", "typed-shadow-27"], ["Frame password", "typed-frame-36"]] as const) {
      const ref = refOf(first, `textbox "${label}"`);
      expect(ref, first).toBeDefined();
      expect(await run("fill", ref!, value)).toMatchObject({ ok: true });
    }
    const outputs = [await run("snapshot"), await run("snapshot", "--interactive"), await run("snapshot", "--diff"), await run("find", "password")];
    for (const out of outputs) {
      expect(out).toMatchObject({ ok: true });
      const json = JSON.stringify(out);
      for (const secret of [...SECRETS, "main-preset-31"]) expect(json).not.toContain(secret);
    }
    // The mirror shows the typed password: masked like the field itself.
    expect(outputs[0].result.text).toMatch(/textbox "Mirror" \[(f\d+)?e\d+\]: ••••••/);
  });

  it("still snapshots a page whose DOM queries throw, masking every field's value, and its refs still act", async () => {
    await navigate("/broken");
    const first = await run("snapshot");
    const shown = JSON.stringify(first);
    expect(first, shown).toMatchObject({ ok: true });
    expect(shown).not.toContain("broken-preset-94");
    expect(first.result.text).toMatch(/textbox "Password" \[(f\d+)?e\d+\]: ••••••/);
    const ref = refOf(first.result.text, 'button "Go"');
    expect(ref, first.result.text).toBeDefined();
    const clicked = await run("click", ref!);
    expect(clicked, JSON.stringify(clicked)).toMatchObject({ ok: true });
    const again = await run("snapshot");
    expect(again, JSON.stringify(again)).toMatchObject({ ok: true });
  });
});
