// Snapshots and observation through the real CLI: a bounded snapshot pages
// through one capture with its cursor, a diff shows only what changed, a
// password never shows (nor reaches the transcript), observation buffers keep
// what pages did across runs and count what they dropped, and the verbs'
// --help comes from the operation table.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OBSERVE_CAPACITY } from "../../daemon/browser-worker/ops/observe/page-observer.js";
import { layoutFor, transcriptPath } from "../../shared/paths.js";
import { OPERATIONS } from "../../shared/protocol/operations/index.js";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

// Small enough that the whole snapshot stays inline (results past 12,000 characters are spilled to a file).
const rows = Array.from({ length: 80 }, (_, i) => `<tr><td>Item ${i}</td><td>${(i * 7) % 101}</td><td><a href="/item/${i}">open</a></td></tr>`).join("");

describe("snapshots and observation", () => {
  let home: string;
  let server: TestServer;
  const S = ["--session", "snaps"];
  const op = async (...args: string[]) => (await runCli([...args, ...S, "--json"], { home })).json;

  beforeAll(async () => {
    home = tempHome();
    server = await startServer({
      "/table": `<title>Table</title><h1>Inventory</h1><table><thead><tr><th>Name</th><th>Qty</th><th>Link</th></tr></thead><tbody>${rows}</tbody></table>`,
      "/form": `<title>Form</title><label>User <input id="u"></label><label>Password <input id="p" type="password" value="preset-pw-42"></label>
        <button onclick="document.getElementById('out').textContent = 'saved ' + document.getElementById('u').value">Save</button><p id="out">idle</p>`,
      "/noisy": `<title>Noisy</title><script>for (let i = 0; i < ${OBSERVE_CAPACITY.console + 100}; i++) console.log("line " + i); fetch("/data?q=1&token=s3cr3t#frag")</script>`,
      "/data": "{}",
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("pages a bounded snapshot with its cursor, and the parts make the whole capture", async () => {
    await op("navigate", `${server.url}/table`);
    const whole = await op("snapshot", "--max-chars", "10000");
    expect(whole.result.cursor).toBeUndefined();
    const parts: string[] = [];
    let part = await op("snapshot", "--max-chars", "700");
    expect(part.result.totalChars).toBe(whole.result.totalChars);
    parts.push(part.result.text);
    while (part.result.cursor) {
      expect(part.result.text.length).toBeLessThanOrEqual(700);
      part = await op("snapshot", "--cursor", part.result.cursor, "--max-chars", "700");
      expect(part.ok).toBe(true);
      parts.push(part.result.text);
    }
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.join("\n")).toBe(whole.result.text);
    // The interactive cut keeps the links and drops the rows' text.
    const interactive = await op("snapshot", "--interactive", "--max-chars", "10000");
    // Links that read the same say which row they are in; the rows' other cells are left out.
    expect(interactive.result.text).toContain('link "open"');
    expect(interactive.result.text).toMatch(/\[(f\d+)?e\d+\] \(in row "Item 7"\)/);
    expect(interactive.result.text).not.toContain("- row");
    expect(interactive.result.totalChars).toBeLessThan(whole.result.totalChars);
  });

  it("diffs against the page's previous snapshot: one change shows as that change", async () => {
    await op("navigate", `${server.url}/form`);
    await op("snapshot");
    await runCli(["exec", ...S, "-c", "await page.evaluate(() => { document.getElementById('out').textContent = 'changed' }); return 1"], { home });
    const diff = await op("snapshot", "--diff");
    expect(diff.result.diff).toMatchObject({ baseline: true, added: 1, removed: 1 });
    const changed = diff.result.text.split("\n").filter((l: string) => /^[+-] /.test(l));
    expect(changed).toEqual(["- - paragraph: idle", "+ - paragraph: changed"]);
    // After a navigation there is no baseline in the new document: the whole snapshot, and why.
    expect(await op("navigate", `${server.url}/form`)).toMatchObject({ ok: true });
    const fresh = await op("snapshot", "--diff");
    expect(fresh.result.diff).toMatchObject({ baseline: false });
    expect(fresh.result.text).toContain('button "Save"');
  });

  it("takes what find showed as the baseline: the next --diff lists only what changed since", async () => {
    await op("navigate", `${server.url}/form`);
    const found = await op("find", "Save");
    expect(found.result.matches[0]).toContain('button "Save"');
    await runCli(["exec", ...S, "-c", "await page.evaluate(() => { document.getElementById('out').textContent = 'after find' }); return 1"], { home });
    const diff = await op("snapshot", "--diff");
    expect(diff.result.diff).toMatchObject({ baseline: true, added: 1, removed: 1 });
    expect(diff.result.text).not.toContain('button "Save"');
  });

  it("never shows a password field's value, and keeps what was typed there out of the transcript", async () => {
    await op("navigate", `${server.url}/form`);
    const first = await op("snapshot");
    const pw = /textbox "Password" \[((?:f\d+)?e\d+)\]/.exec(first.result.text)![1]!;
    const user = /textbox "User" \[((?:f\d+)?e\d+)\]/.exec(first.result.text)![1]!;
    expect(first.result.text).not.toContain("preset-pw-42");
    expect((await op("fill", pw, "typed-pw-77")).ok).toBe(true);
    expect((await op("fill", user, "alice")).ok).toBe(true);
    const outputs = [
      await op("snapshot"), await op("snapshot", "--interactive"), await op("snapshot", "--diff"), await op("find", "Password"),
    ].map((e) => JSON.stringify(e));
    for (const out of outputs) {
      expect(out).not.toContain("typed-pw-77");
      expect(out).not.toContain("preset-pw-42");
    }
    expect(outputs[0]).toContain("alice");
    const transcript = readFileSync(transcriptPath(layoutFor(home, "default"), "snaps"), "utf8");
    expect(transcript).not.toContain("typed-pw-77");
    expect(transcript).toContain('"op":"fill"');
    expect(transcript).toContain('\\"value\\":\\"[REDACTED]\\"');
    expect(transcript).toContain('\\"value\\":\\"alice\\"');
  });

  it("names the page's title as it is now in the envelope of a snapshot, find and read, after the page renamed itself", async () => {
    await op("navigate", `${server.url}/form`);
    for (const [i, verb] of (["snapshot", "find", "read"] as const).entries()) {
      await runCli(["exec", ...S, "-c", `await page.evaluate(() => { document.title = "Renamed ${i}" }); return 1`], { home });
      const out = await op(verb, ...(verb === "find" ? ["Save"] : []));
      expect(out.pages[0].title, verb).toBe(`Renamed ${i}`);
      if (verb === "read") expect(out.result.title).toBe(`Renamed ${i}`);
    }
  });

  it("keeps console, errors and network per page across runs, bounded, and says what it dropped", async () => {
    await op("navigate", `${server.url}/noisy`);
    await runCli(["exec", ...S, "-c", "return 1"], { home });
    const first = await op("observe", "console", "--limit", "10");
    expect(first.result).toMatchObject({ source: "console", dropped: 100, more: true });
    expect(first.result.entries[0]).toMatchObject({ type: "log", text: "line 100" });
    const next = await op("observe", "console", "--since", String(first.result.nextCursor), "--limit", "20");
    expect(next.result.dropped).toBe(0);
    expect(next.result.entries[0].text).toBe("line 110");
    const network = await op("observe", "network");
    const data = network.result.entries.find((e: { url: string }) => e.url.includes("/data"));
    expect(data).toMatchObject({ type: "GET", status: 200, resourceType: "fetch" });
    expect(data.url).toBe(`${server.url}/data?q=1&token=REDACTED`);
    const errors = await op("observe", "errors");
    expect(errors.result).toMatchObject({ entries: [], dropped: 0 });
  });

  it("prints a snapshot as plain text on a terminal, and the envelope otherwise", async () => {
    await op("navigate", `${server.url}/form`);
    const plain = await runCli(["snapshot", ...S], { home, terminal: true });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^- textbox "User" \[(f\d+)?e\d+\]/m);
    expect(plain.stdout).toMatch(/\[page p1 · \d+ characters\]/);
    expect(() => JSON.parse(plain.stdout)).toThrow();
    const piped = await runCli(["snapshot", ...S], { home });
    expect(piped.json.result.text).toContain('textbox "User"');
  });

  it("prints each verb's --help from the operation table", async () => {
    for (const name of ["snapshot", "click", "wait_for"]) {
      const spec = OPERATIONS.find((o) => o.name === name)!;
      const help = await runCli([name, "--help"], { home });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(spec.help);
      for (const arg of spec.args.filter((a) => !a.positional)) expect(help.stdout).toContain(`--${arg.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    }
    const top = await runCli(["--help"], { home });
    for (const spec of OPERATIONS) expect(top.stdout).toContain(spec.name);
  });
});
