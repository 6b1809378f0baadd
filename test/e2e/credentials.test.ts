// credentials.* end to end: the real CLI, daemon, worker and Chromium against
// a login page on 127.0.0.1. The saved password is a unique canary: the page
// receives it, and it appears nowhere else a model or a log could see it.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectExisting } from "../../client/library/daemon-client.js";
import { layoutFor, transcriptPath } from "../../shared/paths.js";
import { VaultFill, VaultShow } from "../../shared/protocol/methods/index.js";
import { REDACTED } from "../../daemon/vault/redactor.js";
import { CANARY_ELSEWHERE } from "../helpers/canary.js";
import { destroyHome, runCli, tempHome, type CliResult } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const LOGIN_FORM = `<title>Sign in</title>
<form method="post" action="/session">
  <label>Email <input name="user" type="email"></label>
  <label>Password <input name="pw" type="password"></label>
  <button type="submit">Sign in</button>
</form>`;

/** Every file under `dir`, recursively (sockets and other non-files skipped). */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

function spellings(secret: string): string[] {
  return [secret, encodeURIComponent(secret), new URLSearchParams({ v: secret }).toString().slice(2), Buffer.from(secret).toString("base64").replace(/=+$/, ""), JSON.stringify(secret).slice(1, -1)];
}

describe("credentials in snippets", () => {
  let home: string;
  let server: TestServer;
  const posts: string[] = [];
  const outputs: CliResult[] = [];
  const canary = `Cnry-${randomBytes(9).toString("hex")}!&`;
  const cli = async (args: string[], input?: string): Promise<CliResult> => {
    const result = await runCli(args, { home, ...(input === undefined ? {} : { input }) });
    outputs.push(result);
    return result;
  };
  const exec = async (code: string) => (await cli(["exec", "--session", "login", "-c", code])).json;

  beforeAll(async () => {
    // The suite's canary lives off this test's pages: they pin what credentials.list() offers.
    home = tempHome(undefined, { canarySite: CANARY_ELSEWHERE });
    server = await startServer({
      "/login": LOGIN_FORM,
      "/signup": LOGIN_FORM.replace("Sign in</title>", "Sign up</title>").replace("</label>\n  <button", "</label>\n  <label>Again <input name=\"pw2\" type=\"password\"></label>\n  <button"),
      "/welcome": "<title>Welcome</title><p>signed in</p>",
      "/session": (req: http.IncomingMessage, res: http.ServerResponse) => {
        let body = "";
        req.on("data", (chunk) => (body += chunk));
        req.on("end", () => {
          posts.push(`${req.headers.host} ${body}`);
          res.writeHead(303, { location: "/welcome" }).end();
        });
      },
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("fills the right password on its site, and the canary leaks nowhere", async () => {
    const added = await cli(["vault", "add", "--site", `${server.url}/login`, "--username", "alice@example.com", "--json"], canary);
    expect(added.code).toBe(0);
    const id = added.json.entry.id as string;
    // An https login for the same host must never be offered over http.
    const tls = await cli(["vault", "add", "--site", `https://127.0.0.1:${server.port}`, "--username", "tls-only", "--json"], `${canary}-tls`);
    expect(tls.code, tls.stdout + tls.stderr).toBe(0);

    // The vault service answered without starting a browser; its fill side is not on the socket.
    const before = await cli(["sessions", "--json"]);
    expect(before.json.daemons[0].browser.running).toBe(false);
    const connection = (await connectExisting(layoutFor(home)))!;
    try {
      await expect(connection.peer.call(VaultFill, { pageUrl: `${server.url}/login`, id })).rejects.toThrow(/unknown method/);
    } finally {
      connection.peer.close();
    }

    const filled = await exec(`
      await page.goto(${JSON.stringify(`${server.url}/login`)});
      const listed = await credentials.list();
      const report = await credentials.fill();
      const value = await page.inputValue("input[type=password]");
      console.log("typed", value);
      const copies = { b64: btoa(value), uri: encodeURIComponent(value), json: JSON.stringify({ value }) };
      await page.click("button");
      await page.waitForURL("**/welcome");
      return { listed, report, value, copies, url: page.url() };`);
    expect(filled.error).toBeUndefined();
    expect(filled.result.listed).toEqual([{ id, site: server.url, username: "alice@example.com", provisional: false }]);
    expect(filled.result.report).toEqual({
      id, site: server.url, username: "alice@example.com", provisional: false, filled: { username: true, password: true }, submitted: false,
    });
    expect(filled.result.value).toBe(REDACTED);
    expect(filled.result.copies.b64).toContain(REDACTED);
    expect(filled.result.copies.uri).toBe(REDACTED);
    expect(filled.console).toEqual([{ type: "log", text: `typed ${REDACTED}`, source: "snippet" }]);
    expect(posts).toEqual([`127.0.0.1:${server.port} ${new URLSearchParams({ user: "alice@example.com", pw: canary })}`]);

    // An error, a page title and the snippet's own text carry it too: all redacted.
    const thrown = await exec(`
      await page.goto(${JSON.stringify(`${server.url}/login`)});
      await credentials.fill({ id: ${JSON.stringify(id)}, submit: false });
      await page.evaluate(() => { document.title = document.querySelector("input[type=password]").value; });
      throw new Error("the password is " + await page.inputValue("input[type=password]") + " // ${canary}");`);
    expect(thrown.ok).toBe(false);
    expect(thrown.error.message).toBe(`the password is ${REDACTED} // ${REDACTED}`);
    expect(thrown.pages[0].title).toBe(REDACTED);

    // Another site (localhost is a different host from 127.0.0.1) sees nothing and gets nothing.
    const elsewhere = await exec(`
      await page.goto(${JSON.stringify(`http://localhost:${server.port}/login`)});
      const listed = await credentials.list();
      const byDefault = await credentials.fill().then(() => "filled", (e) => e.code);
      const byId = await credentials.fill({ id: ${JSON.stringify(id)} }).then(() => "filled", (e) => e.code);
      return { listed, byDefault, byId, typed: await page.inputValue("input[type=password]") };`);
    expect(elsewhere.result).toEqual({ listed: [], byDefault: "VAULT_NOT_FOUND", byId: "VAULT_NOT_FOUND", typed: "" });
    expect(posts).toHaveLength(1);

    const layout = layoutFor(home);
    const transcript = readFileSync(transcriptPath(layout, "login"), "utf8");
    expect(transcript).toContain(REDACTED);
    expect((await cli(["close", "--all"])).code).toBe(0);

    const vaultEnc = path.join(layout.vaultDir, "vault.enc");
    const leaks: string[] = [];
    for (const spelling of spellings(canary)) {
      for (const out of outputs) if (out.stdout.includes(spelling) || out.stderr.includes(spelling)) leaks.push(`cli output: ${spelling}`);
      for (const file of filesUnder(home)) {
        if (readFileSync(file).includes(spelling)) leaks.push(`${path.relative(home, file)}: ${spelling}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(statSync(vaultEnc).size).toBeGreaterThan(0);
    expect(readFileSync(layout.logPath, "utf8")).toContain("worker");
  });

  it("a generated password survives a daemon restart and is committed by id", async () => {
    const generated = await exec(`
      await page.goto(${JSON.stringify(`${server.url}/signup`)});
      const entry = await credentials.generateAndFill({ username: "newbie@example.com", submit: true });
      await page.waitForURL("**/welcome");
      return entry;`);
    expect(generated.error).toBeUndefined();
    const id = generated.result.id as string;
    expect(generated.result).toMatchObject({ site: server.url, username: "newbie@example.com", provisional: true, filled: { username: true, password: true }, submitted: true });
    const body = new URLSearchParams(posts.at(-1)!.split(" ")[1]);
    const password = body.get("pw")!;
    expect(password.length).toBeGreaterThanOrEqual(12);
    expect(body.get("pw2")).toBe(password);
    expect(body.get("user")).toBe("newbie@example.com");

    expect((await cli(["close", "--all"])).code).toBe(0);
    const pending = await cli(["vault", "list", "--json"]);
    expect(pending.json.entries.find((e: { id: string }) => e.id === id)).toMatchObject({ provisional: true });

    const committed = await exec(`
      await page.goto(${JSON.stringify(`${server.url}/login`)});
      const entry = await credentials.commitGenerated(${JSON.stringify(id)});
      return { entry, listed: await credentials.list() };`);
    expect(committed.ok).toBe(true);
    expect(committed.result.entry).toMatchObject({ id, provisional: false, username: "newbie@example.com" });
    expect(committed.result.listed.map((e: { id: string; provisional: boolean }) => [e.id, e.provisional])).toContainEqual([id, false]);

    const discarded = await exec(`
      const again = await credentials.generateAndFill({ username: "throwaway" });
      await credentials.discardGenerated(again.id);
      return (await credentials.list()).map((e) => e.id).includes(again.id);`);
    expect(discarded.result).toBe(false);

    // Owner methods are not on the worker's side; the owner still reads the password back.
    const connection = (await connectExisting(layoutFor(home)))!;
    try {
      expect((await connection.peer.call(VaultShow, { id })).password).toBe(password);
    } finally {
      connection.peer.close();
    }
    for (const out of outputs) expect(out.stdout + out.stderr).not.toContain(password);
  });
});
