// Bidirectional and invisible formatting controls from a page never reach a
// person raw: a title holding U+202E (which shows what follows it reversed)
// and text holding the isolates and marks come out as `\u` escapes in the
// CLI's JSON, the snapshot text for people, the transcript's text view and
// the live view's data; JSON still parses to the page's own value.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { call, startServe } from "../helpers/serve.js";

const TITLE = "invoice\u202Efdp.exe";
const TEXT = "left\u2067right\u2069 mark\u200F\u200E alm\u061C embed\u202A\u202B\u202C\u202D iso\u2066\u2068";
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe("bidi controls in output", () => {
  let home: string;
  let server: TestServer;
  const S = ["--session", "bidi"];

  beforeAll(async () => {
    home = tempHome("bw-bidi-");
    server = await startServer({ "/": `<title>${TITLE}</title><p>${TEXT}</p>` });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("escapes them in the CLI's JSON, which parses to the page's value", async () => {
    const r = await runCli(["navigate", `${server.url}/`, ...S, "--json"], { home });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(BIDI);
    expect(r.stdout).toContain("\\u202e");
    expect(r.json.pages[0].title).toBe(TITLE);
    const read = await runCli(["read", ...S, "--json"], { home });
    expect(read.stdout).not.toMatch(BIDI);
    expect(read.json.result.text).toContain(TEXT.trim());
  }, 60_000);

  it("escapes them in the snapshot text and the transcript printed for people", async () => {
    // On a terminal, as a person runs it: the text, not the envelope.
    const snap = await runCli(["snapshot", ...S], { home, terminal: true });
    expect(snap.code).toBe(0);
    expect(snap.stdout).toContain("left\\u2067right\\u2069");
    expect(snap.stdout + snap.stderr).not.toMatch(BIDI);
    const transcript = await runCli(["transcript", ...S], { home, terminal: true });
    expect(transcript.code).toBe(0);
    expect(transcript.stdout).toContain("\\u202e");
    expect(transcript.stdout).not.toMatch(BIDI);
  }, 60_000);

  it("escapes them in the live view's data", async () => {
    // A profile of its own: serve states its own policy, and the CLI's daemon stays as it is.
    const served = await startServe(home, ["--profile", "live", "--allow-host", "127.0.0.1"]);
    try {
      const id = randomUUID();
      expect((await call(served, "POST", "/sessions", { body: { id, url: `${server.url}/` } })).status).toBe(201);
      const live = await call(served, "GET", "/live/sessions");
      expect(live.status).toBe(200);
      const session = live.json.sessions.find((s: { name: string }) => s.name.endsWith(id));
      expect(session.title).toBe("invoice\\u202efdp.exe");
      expect(JSON.stringify(live.json)).not.toMatch(BIDI);
    } finally {
      await served.stop();
    }
  }, 120_000);
});
