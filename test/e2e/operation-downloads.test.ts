// The `downloads` operation through the real CLI: an approved download is
// listed with its size and path, one no run approved with the reason it was
// refused, newest first, bounded, filtered by status, and still there after
// the daemon restarts (the session's history file is the record).
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifactDir, layoutFor } from "../../shared/paths.js";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

describe("the downloads operation", () => {
  let home: string;
  let server: TestServer;
  const S = ["--session", "dls"];
  const cli = (...args: string[]) => runCli([...args, "--json"], { home });
  const listed = async (...args: string[]) => {
    const r = await cli("downloads", ...args, ...S);
    expect(r.json, `downloads ${args.join(" ")}: exit ${r.code}: ${r.stdout.slice(0, 500)} ${r.stderr.slice(0, 500)}`).toMatchObject({ ok: true });
    return r.json.result;
  };

  beforeAll(async () => {
    home = tempHome();
    server = await startServer({
      "/": "<title>Files</title><a id=small href='/small'>small</a>",
      "/small": (_req, res) => {
        res.writeHead(200, { "content-type": "application/octet-stream", "content-disposition": "attachment; filename=\"hello.txt\"" }).end("hello");
      },
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("lists none for a session that downloaded nothing", async () => {
    expect(await listed()).toEqual({ downloads: [], total: 0, more: false });
  });

  it("lists an approved download with its size and path, and a refused one with its reason, newest first", async () => {
    const approved = await cli("exec", ...S, "--approve-downloads", "-c",
      `await page.goto(${JSON.stringify(server.url)}); await page.click("#small"); return await waitForDownload();`);
    expect(approved.json.result).toMatchObject({ status: "accepted", bytes: 5 });

    // Not approved: the click goes through, the download is cancelled and recorded.
    expect((await cli("click", "--selector", "#small", ...S)).json.ok).toBe(true);
    await expect.poll(async () => (await listed()).total, { timeout: 10_000 }).toBe(2);

    const { downloads, total, more } = await listed();
    expect({ total, more }).toEqual({ total: 2, more: false });
    const [refused, accepted] = downloads;
    expect(refused).toMatchObject({ status: "rejected", reason: "DOWNLOAD_NOT_APPROVED", suggestedFilename: "hello.txt", url: `${server.url}/small`, bytes: 0 });
    expect(refused.message).toEqual(expect.any(String));
    expect(refused.path).toBeUndefined();
    expect(accepted).toEqual(approved.json.result);
    expect(accepted).toMatchObject({ status: "accepted", suggestedFilename: "hello.txt", bytes: 5 });
    expect(path.dirname(accepted.path)).toBe(artifactDir(layoutFor(home, "default"), "dls"));
    expect(readFileSync(accepted.path, "utf8")).toBe("hello");
    expect(Date.parse(refused.at)).toBeGreaterThanOrEqual(Date.parse(accepted.at));

    expect(await listed("accepted")).toEqual({ downloads: [accepted], total: 1, more: false });
    expect(await listed("rejected")).toEqual({ downloads: [refused], total: 1, more: false });
    expect(await listed("--limit", "1")).toEqual({ downloads: [refused], total: 2, more: true });
    const bad = await cli("downloads", "--limit", "0", ...S);
    expect(bad.json.error).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/^--limit: /) });

    // Another session's downloads are not this one's.
    expect((await runCli(["downloads", "--session", "other", "--json"], { home })).json.result.total).toBe(0);

    // The history outlives the daemon.
    expect((await runCli(["close", "--all"], { home })).code).toBe(0);
    expect((await listed()).downloads).toEqual(downloads);
  });
});
