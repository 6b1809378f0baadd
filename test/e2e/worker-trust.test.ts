// Nothing a worker writes is trusted by another process. A compromised worker
// (fixtures/compromised-worker.mjs with compromised-pipe.mjs) forges what it
// returns to the daemon, plants a PDF and a `.downloads.jsonl` line for
// `serve`, swaps its session folder for a link to a folder of the user's it
// cannot see, and floods the store with reservations. The daemon refuses
// malformed outcomes and lives on; serve writes no file outside its folder;
// no front door hands out a file through a link; another profile's files stay.
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layoutFor } from "../../shared/paths.js";
import { daemonPids, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { compromisedEnv, quietPlan, readFindings, type Plan } from "../helpers/compromised.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { connectHttpMcp, startHttpMcp } from "../helpers/mcp-client.js";
import { call, startServe } from "../helpers/serve.js";

const PIPE = "compromised-pipe.json";
const TOKEN = randomBytes(24).toString("base64url");
const emptyOutcome = { ok: true, console: [], pages: [], artifacts: [], warnings: [] };
/** A PNG's signature and then bytes nobody but the user may read. */
const SECRET_PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(`secret-${randomBytes(8).toString("hex")}`)]);

let pages: TestServer;
let outside: string;
const homes: string[] = [];

function home(prefix: string): string {
  const made = tempHome(prefix);
  homes.push(made);
  return made;
}

/** A traversal from any folder to `file` (without its extension) in the test's own outside folder. */
const traversal = (name: string) => `${"../".repeat(24)}${outside.slice(1)}/${name}`;
const artifactsOf = (h: string, profile = "default") => path.join(layoutFor(h, profile).artifactsRoot, profile);

beforeAll(async () => {
  outside = mkdtempSync(path.join(tmpdir(), "bw-outside-"));
  pages = await startServer({
    "/": "<title>plain</title>",
    "/forge-pdf": "<title>FORGE-PDF</title>",
    "/plant-pdf": "<title>PLANT-PDF</title>",
  });
});

afterAll(async () => {
  for (const h of homes) await destroyHome(h);
  await pages?.close();
  rmSync(outside, { recursive: true, force: true });
}, 60_000);

describe("the daemon checks every worker outcome", () => {
  it("refuses an outcome with a field the protocol does not declare, or no outcome at all, and serves the next run", async () => {
    const h = home("bw-trust-forge-");
    const plan = quietPlan(h, {
      artifactsDir: artifactsOf(h),
      forge: {
        "FORGE-FIELD": { ...emptyOutcome, result: "forged", injected: "evil" },
        "FORGE-JUNK": ["not", "an", "outcome"],
        "FORGE-PATH": { ...emptyOutcome, result: "forged", artifacts: [{ kind: "screenshot", path: "/etc/passwd", bytes: 1 }] },
        "FORGE-VERDICT": { ...emptyOutcome, ok: false, result: "evil" },
        "FORGE-OP": { ...emptyOutcome, result: { url: "evil", title: "evil", status: 200 }, console: [{ type: "{pad:100}", text: "evil", source: "page" }] },
      },
    });
    const env = compromisedEnv(plan);
    const first = await runCli(["exec", "-c", "return 'warm'"], { home: h, env });
    expect(first.json).toMatchObject({ ok: true, result: "warm" });
    const [daemon] = daemonPids(h);
    for (const marker of ["FORGE-FIELD", "FORGE-JUNK", "FORGE-PATH", "FORGE-VERDICT"]) {
      const r = await runCli(["exec", "-c", `return ${JSON.stringify(marker)}`], { home: h, env });
      expect(r.json, marker).toMatchObject({ ok: false, error: { code: "INTERNAL_ERROR" } });
      expect(r.stdout).not.toContain("evil");
      expect(r.stdout).not.toContain("/etc/passwd");
      expect(r.json.result).toBeUndefined();
    }
    const after = await runCli(["exec", "-c", "return 1 + 1"], { home: h, env });
    expect(after.json).toMatchObject({ ok: true, result: 2 });
    // An operation's outcome is checked the same way (last: the page it leaves holds the marker).
    const op = await runCli(["navigate", `${pages.url}/?FORGE-OP`], { home: h, env });
    expect(op.json).toMatchObject({ ok: false, error: { code: "INTERNAL_ERROR" } });
    expect(op.stdout).not.toContain("evil");
    expect(daemonPids(h)).toEqual([daemon]);
  }, 120_000);

  it("ends a worker whose reply is past the frame bound: the run fails at once, the daemon lives on", async () => {
    const h = home("bw-trust-huge-");
    const env = compromisedEnv(quietPlan(h, { artifactsDir: artifactsOf(h), forge: { "FORGE-HUGE": { ...emptyOutcome, result: "evil{pad:9000000}" } } }));
    expect((await runCli(["exec", "-c", "return 'warm'"], { home: h, env })).json).toMatchObject({ ok: true });
    const [daemon] = daemonPids(h);
    const started = Date.now();
    const huge = await runCli(["exec", "--timeout", "120", "-c", "return 'FORGE-HUGE'"], { home: h, env, timeoutMs: 150_000 });
    expect(huge.json).toMatchObject({ ok: false, error: { code: "SESSION_RESET" } });
    expect(huge.stdout).not.toContain("evil");
    // Not the budget's end: the lost reply is not waited for.
    expect(Date.now() - started).toBeLessThan(60_000);
    const after = await runCli(["exec", "-c", "return 1 + 1"], { home: h, env });
    expect(after.json).toMatchObject({ ok: true, result: 2 });
    expect(daemonPids(h)).toEqual([daemon]);
  }, 120_000);
});

describe("serve trusts no id, path or folder of the worker's", () => {
  let h: string;
  let served: Awaited<ReturnType<typeof startServe>>;
  const secretDir = () => path.join(outside, "private");

  beforeAll(async () => {
    h = home("bw-trust-serve-");
    mkdirSync(secretDir(), { mode: 0o700 });
    writeFileSync(path.join(secretDir(), "secret.png"), SECRET_PNG, { mode: 0o600 });
    const pdf = `%PDF-1.4 forged ${randomBytes(4).toString("hex")}`;
    const download = (id: string) => ({ id, url: `${pages.url}/x.pdf`, suggestedFilename: "x.pdf", status: "accepted", path: "{dir}/download-forged.pdf", bytes: pdf.length, at: new Date().toISOString() });
    const plan: Plan = quietPlan(h, {
      artifactsDir: artifactsOf(h),
      plant: {
        "FORGE-PDF": { pdf, line: {} },
        "PLANT-PDF": { pdf, line: download(traversal("from-history")) },
      },
      forge: {
        "FORGE-PDF": { ...emptyOutcome, pages: [{ pageId: "p1", url: `${pages.url}/forge-pdf`, title: "FORGE-PDF", active: true }], downloads: [download(traversal("from-outcome"))] },
      },
      swap: { target: secretDir(), file: "secret.png" },
    });
    served = await startServe(h, ["--allow-host", "127.0.0.1", "--navigation-timeout", "20"], compromisedEnv(plan));
  }, 90_000);

  afterAll(async () => {
    await served?.stop();
  });

  it("writes no PDF outside its folder for a download id a forged outcome names", async () => {
    const reply = await call(served, "POST", "/sessions", { body: { id: randomUUID(), url: `${pages.url}/forge-pdf` } });
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(existsSync(path.join(outside, "from-outcome.pdf"))).toBe(false);
  }, 60_000);

  it("writes no PDF outside its folder for a forged line of the session's .downloads.jsonl, when the session is opened again", async () => {
    const id = randomUUID();
    expect((await call(served, "POST", "/sessions", { body: { id, url: `${pages.url}/plant-pdf` } })).status).toBe(201);
    expect((await readFindings(h, "default", 20_000, PIPE) as { planted?: string[] }).planted?.length).toBeGreaterThan(0);
    expect((await call(served, "POST", `/sessions/${id}/close`)).status).toBeLessThan(300);
    expect((await call(served, "POST", "/sessions", { body: { id, url: `${pages.url}/` } })).status).toBe(201);
    expect(existsSync(path.join(outside, "from-history.pdf"))).toBe(false);
    const downloads = (await call(served, "GET", `/sessions/${id}/downloads`)).json;
    expect(JSON.stringify(downloads)).not.toContain("from-history");
  }, 60_000);

  it("hands out no screenshot through a session folder swapped for a link", async () => {
    const id = randomUUID();
    expect((await call(served, "POST", "/sessions", { body: { id, url: `${pages.url}/` } })).status).toBe(201);
    const shot = await call(served, "GET", `/sessions/${id}/screenshot`);
    expect(shot.body.includes(SECRET_PNG)).toBe(false);
    expect(shot.status).toBeGreaterThanOrEqual(400);
    expect((await readFindings(h, "default", 20_000, PIPE) as { swapped?: string[] }).swapped?.length).toBeGreaterThan(0);
  }, 60_000);
});

describe("MCP trusts no folder of the worker's", () => {
  it("returns no image content through a session folder swapped for a link", async () => {
    const h = home("bw-trust-mcp-");
    const secretDir = mkdtempSync(path.join(outside, "mcp-private-"));
    writeFileSync(path.join(secretDir, "secret.png"), SECRET_PNG, { mode: 0o600 });
    const plan = quietPlan(h, { artifactsDir: artifactsOf(h), swap: { target: secretDir, file: "secret.png" } });
    const server = await startHttpMcp(h, ["--http", "127.0.0.1:0", "--allow-host", "127.0.0.1"], { ...compromisedEnv(plan), BETTERWRIGHT_TOKEN: TOKEN });
    try {
      const { client } = await connectHttpMcp(server.url, TOKEN);
      await client.callTool({ name: "navigate", arguments: { url: pages.url } });
      const result = await client.callTool({ name: "screenshot", arguments: {} }) as { content: { type: string; data?: string }[] };
      await client.close();
      const images = result.content.filter((c) => c.type === "image").map((c) => Buffer.from(c.data ?? "", "base64"));
      expect(images.some((bytes) => bytes.equals(SECRET_PNG))).toBe(false);
      expect((await readFindings(h, "default", 20_000, PIPE) as { swapped?: string[] }).swapped?.length).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  }, 90_000);
});

describe("a worker's reservations", () => {
  it("never evict another profile's files, however many it sends", async () => {
    const h = home("bw-trust-reserve-");
    // Another profile's download, the oldest file of the store.
    const other = path.join(artifactsOf(h, "other"), "s", "download-20200101T000000000Z-0000-old.bin");
    mkdirSync(path.dirname(other), { recursive: true, mode: 0o700 });
    writeFileSync(other, Buffer.alloc(600_000, 7), { mode: 0o600 });
    utimesSync(other, new Date("2020-01-01"), new Date("2020-01-01"));
    const count = 12;
    const plan = quietPlan(h, { artifactsDir: artifactsOf(h), reserve: { "RESERVE-NOW": { session: "flood", bytes: 100_000, count } } });
    const env = { ...compromisedEnv(plan), BETTERWRIGHT_ARTIFACT_GLOBAL_CAP_BYTES: "1000000" };
    const r = await runCli(["exec", "-c", "return 'RESERVE-NOW'"], { home: h, env });
    expect(r.json).toMatchObject({ ok: true });
    let replies: Record<string, { ok?: true; error?: string }> = {};
    for (const until = Date.now() + 30_000; Object.keys(replies).length < count && Date.now() < until; ) {
      replies = ((await readFindings(h, "default", 20_000, PIPE)) as unknown as { replies: typeof replies }).replies;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const answers = Object.values(replies);
    expect(answers).toHaveLength(count);
    // The shared cap holds: what did not fit in this profile's room was refused, not made room for elsewhere.
    expect(answers.filter((a) => a.error === "QUOTA_EXCEEDED").length).toBeGreaterThan(0);
    expect(readFileSync(other).length).toBe(600_000);
  }, 120_000);
});
