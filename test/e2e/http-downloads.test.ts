// PDF downloads through the HTTP API, end to end: a click on a link and a
// navigation to a file are approved downloads of the session; PDFs within the
// cap are kept byte for byte and served as attachments; a file that is not a
// PDF, one past the cap (cancelled in flight by the quota service) and one
// past the per-session count are refused and listed in `failures`; what is
// kept outlives serve, and is checked again before it is served.
import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync, writeFileSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { call, startServe, type Served } from "../helpers/serve.js";

const CAP = 300_000;
const pdf = (bytes: number) => Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(bytes)]);
const REPORT = pdf(50_000);
const SECOND = pdf(1_000);
const THIRD = pdf(1_000);
const BIG = pdf(CAP + 100_000);

function attachment(body: Buffer, name: string, type = "application/pdf") {
  return (_req: http.IncomingMessage, res: http.ServerResponse) => void res.writeHead(200, { "content-type": type, "content-length": body.length, "content-disposition": `attachment; filename="${name}"` }).end(body);
}

describe("betterwright serve: PDF downloads", () => {
  let home: string;
  let pages: TestServer;
  let served: Served;
  const id = randomUUID();
  const args = ["--allow-host", "127.0.0.1", "--max-download-bytes", String(CAP), "--max-downloads", "2"];
  const downloads = async () => (await call(served, "GET", `/sessions/${id}/downloads`)).json;

  beforeAll(async () => {
    home = tempHome("bw-http-dl-");
    pages = await startServer({
      "/dl": `<title>downloads</title><style>body{margin:0}a{position:absolute;left:10px;width:100px;height:30px;display:block}</style>
        <a href="/report.pdf" style="top:10px">report</a>`,
      "/report.pdf": attachment(REPORT, "report.pdf"),
      "/fake.pdf": attachment(Buffer.from("this is no PDF at all\n"), "fake.pdf"),
      "/big.pdf": attachment(BIG, "big.pdf"),
      "/second.pdf": attachment(SECOND, "second.pdf"),
      "/third.pdf": attachment(THIRD, "third.pdf"),
    });
    served = await startServe(home, args);
    expect((await call(served, "POST", "/sessions", { body: { id, url: `${pages.url}/dl` } })).status).toBe(201);
  }, 90_000);

  afterAll(async () => {
    await served?.stop();
    await pages?.close();
    await destroyHome(home);
  }, 60_000);

  it("keeps a PDF a click downloads, byte for byte, and serves it as an attachment", async () => {
    expect(await call(served, "POST", `/sessions/${id}/input`, { body: { type: "click", x: 50, y: 25 } })).toMatchObject({ status: 200, json: { status: "active" } });
    const listed = await downloads();
    expect(listed).toEqual({ downloads: [{ id: expect.any(String), name: "report.pdf", size: REPORT.length, mimeType: "application/pdf" }], failures: [] });
    const file = await call(served, "GET", `/sessions/${id}/downloads/${listed.downloads[0].id}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="report\.pdf"/);
    expect(file.body.equals(REPORT)).toBe(true);
  });

  it("refuses a file that is not a PDF, one past the size cap (cancelled in flight) and one past the count, and lists each", async () => {
    for (const name of ["fake.pdf", "big.pdf", "second.pdf", "third.pdf"]) {
      // A navigation that becomes a download leaves the page where it was.
      expect(await call(served, "POST", `/sessions/${id}/navigate`, { body: { url: `${pages.url}/${name}` } }), name).toMatchObject({ status: 200, json: { url: `${pages.url}/dl` } });
    }
    const listed = await downloads();
    expect(listed.downloads.map((d: { name: string }) => d.name)).toEqual(["report.pdf", "second.pdf"]);
    expect(listed.failures).toEqual([
      { id: expect.any(String), name: "fake.pdf", code: "DOWNLOAD_UNSUPPORTED", message: expect.stringContaining("%PDF-"), createdAt: expect.any(String) },
      expect.objectContaining({ name: "big.pdf", code: "DOWNLOAD_TOO_LARGE" }),
      expect.objectContaining({ name: "third.pdf", code: "DOWNLOAD_LIMIT" }),
    ]);
    expect(await call(served, "GET", `/sessions/${id}/downloads/${randomUUID()}`)).toMatchObject({ status: 404, json: { error: { code: "NOT_FOUND" } } });
    expect(await call(served, "GET", `/sessions/${randomUUID()}/downloads`)).toMatchObject({ status: 404 });
  });

  it("keeps PDFs and failures across a close and a serve restart, and checks each file again before serving it", async () => {
    await call(served, "POST", `/sessions/${id}/close`);
    await served.stop();
    served = await startServe(home, args);
    const listed = await downloads();
    expect(listed.downloads).toHaveLength(2);
    expect(listed.failures).toHaveLength(3);
    const [report, second] = listed.downloads;
    expect((await call(served, "GET", `/sessions/${id}/downloads/${report.id}`)).body.equals(REPORT)).toBe(true);
    const kept = path.join(home, "serve", "profiles", "default", "downloads", id);
    expect(readdirSync(kept).sort()).toEqual([`${report.id}.pdf`, `${second.id}.pdf`].sort());
    writeFileSync(path.join(kept, `${second.id}.pdf`), Buffer.alloc(CAP + 1, 0x25));
    expect(await call(served, "GET", `/sessions/${id}/downloads/${second.id}`)).toMatchObject({ status: 413, json: { error: { code: "DOWNLOAD_TOO_LARGE" } } });
    writeFileSync(path.join(kept, `${second.id}.pdf`), "not a pdf");
    expect(await call(served, "GET", `/sessions/${id}/downloads/${second.id}`)).toMatchObject({ status: 422, json: { error: { code: "DOWNLOAD_UNSUPPORTED" } } });
  });
});
