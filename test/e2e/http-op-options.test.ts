// What the HTTP front door asks of a typed operation besides its arguments:
// `create` (a session an operation meets for the first time is made isolated
// with its settings, never silently shared) and `approveDownloads` (a download
// the operation starts finishes before it answers; without it, it is cancelled).
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright } from "../../dist/client/index.js";
import { cleanEnv, destroyHome, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

describe("typed operations: create and approveDownloads", () => {
  let home: string;
  let server: TestServer;
  let bw: BetterWright;

  beforeAll(async () => {
    home = tempHome();
    server = await startServer({
      "/": "<title>home</title><a id=dl href=/file.pdf download>get</a>",
      "/file.pdf": (_req, res) => void res.writeHead(200, { "content-type": "application/pdf", "content-disposition": "attachment; filename=file.pdf" }).end(PDF),
    });
    bw = new BetterWright({ home, env: cleanEnv(home) });
  });
  afterAll(async () => {
    await bw?.close({ stopDaemon: true });
    await server?.close();
    await destroyHome(home);
  });

  it("makes a session the operation meets first the way `create` says, and refuses one made otherwise", async () => {
    const create = { isolated: true, settings: { viewport: { width: 640, height: 480 } } };
    const first = await bw.op("navigate", { url: `${server.url}/` }, { session: "iso", create });
    expect(first).toMatchObject({ ok: true, result: { title: "home" } });
    expect((await bw.sessions()).find((s) => s.session === "iso")).toMatchObject({ isolated: true, settings: { viewport: { width: 640, height: 480 } } });
    const inner = await bw.op("read", {}, { session: "iso", create });
    expect(inner.ok).toBe(true);
    await bw.op("navigate", { url: "about:blank" }, { session: "shared" });
    const mismatch = await bw.op("read", {}, { session: "shared", create }).catch((e: { code: string }) => e);
    expect(mismatch).toMatchObject({ code: "SESSION_EXISTS" });
  });

  it("reports a navigation that became a download, cancelled when the operation was not approved for it", async () => {
    const refused = await bw.op("navigate", { url: `${server.url}/file.pdf` }, { session: "dl" });
    expect(refused).toMatchObject({ ok: true, result: { download: true, status: null }, downloads: [{ status: "rejected", reason: "DOWNLOAD_NOT_APPROVED" }] });
    const history = (await bw.artifacts({ session: "dl" })).sessions[0]?.downloads ?? [];
    expect(history.map((d) => d.reason)).toEqual(["DOWNLOAD_NOT_APPROVED"]);
  });

  it("lets an approved operation's download finish before the operation answers: a navigation to a file, a click on a link", async () => {
    const navigated = await bw.op("navigate", { url: `${server.url}/file.pdf` }, { session: "ok", approveDownloads: true });
    expect(navigated).toMatchObject({ ok: true, result: { download: true }, downloads: [{ status: "accepted", bytes: PDF.length, suggestedFilename: "file.pdf" }] });
    await bw.op("navigate", { url: `${server.url}/` }, { session: "ok" });
    const clicked = await bw.op("click", { target: { selector: "#dl" } }, { session: "ok", approveDownloads: true });
    expect(clicked).toMatchObject({ ok: true, downloads: [{ status: "accepted", bytes: PDF.length }] });
    expect(readFileSync(clicked.downloads![0]!.path!)).toEqual(PDF);
    // Without approval an operation waits for nothing.
    const plain = await bw.op("read", {}, { session: "ok" });
    expect(plain.downloads).toBeUndefined();
  });
});
