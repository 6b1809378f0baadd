// A compromised worker reaches neither the network nor the vault. The test
// injects a preload into the processes the CLI starts (NODE_OPTIONS, never a
// product switch); in the worker it plays a snippet that escaped node:vm and
// tries the network, the vault, other profiles, the daemon's files and
// sockets, and writes outside its folders. Every attempt fails, and the real
// workload (navigation through the guard, screenshots, downloads, a vault fill
// through the daemon) still works. Nothing leaves the machine: the metadata and
// DNS probes run only in the contained worker, after it has checked it has no
// route out. Where containment is not available the daemon says so on every
// envelope, in its log and in doctor, and requireContainment refuses to start.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeContainment } from "../../shared/containment.js";
import { layoutFor } from "../../shared/paths.js";
import { CANARY_PASSWORD } from "../helpers/canary.js";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { compromisedEnv, outsideListener, planFor, readFindings, workloadServer, type Finding, type Findings, type Plan } from "../helpers/compromised.js";
import type { TestServer } from "../helpers/http-server.js";
import { describeNeeding } from "../helpers/needs.js";

const containment = await probeContainment({ env: process.env });
const marker = `${process.pid}-${Date.now()}`;
const warningCodes = (envelope: { warnings?: { code: string }[] }) => (envelope.warnings ?? []).map((w) => w.code);

const failed = (finding: unknown) => finding as Finding & { ok: false };

// Both modes: stealth mode launches full Chromium with its own flags, and the containment must hold the same.
describeNeeding(containment.active ? undefined : `containment unavailable: ${containment.reason}`, "a compromised worker, contained", () => describe.each(["default", "stealth"])("%s mode", (mode) => {
  let home: string;
  let otherHome: string;
  let server: TestServer;
  let outside: Awaited<ReturnType<typeof outsideListener>>;
  let plan: Plan;
  let env: NodeJS.ProcessEnv;
  let first: Awaited<ReturnType<typeof runCli>>;
  let found: Findings;
  const posts: string[] = [];

  beforeAll(async () => {
    home = tempHome("bw-contain-");
    otherHome = tempHome("bw-contain-other-");
    server = await workloadServer(posts);
    outside = await outsideListener();
    // Another profile's daemon, with a socket and a vault of its own.
    expect((await runCli(["policy", "check", server.url], { home: otherHome })).code).toBe(0);
    plan = planFor(home, otherHome, outside.port, true, marker);
    env = { ...compromisedEnv(plan), ...(mode === "stealth" ? { BETTERWRIGHT_STEALTH: "1" } : {}) };
    first = await runCli(["exec", "-c", `await page.goto(${JSON.stringify(server.url)}); return page.title()`], { home, env });
    found = await readFindings(home);
  }, 90_000);

  afterAll(async () => {
    for (const file of Object.values(plan?.writes ?? {})) rmSync(file, { force: true });
    await destroyHome(home);
    await destroyHome(otherHome);
    await outside.close();
    await server.close();
  });

  it("runs in a network namespace with loopback only, and cannot see the daemon's processes", () => {
    expect(found.fixtureError).toBeUndefined();
    expect(found.network).toEqual({ interfaces: ["lo"], routesOut: 0 });
    expect(found.isolated).toBe(true);
    expect(found.daemonVisible).toBe(false);
    expect(found.pids).toBeLessThan(20);
    // The controls: its own loopback, temp folder and profile work, so every refusal below is the containment's.
    for (const control of ["control:inside-loopback", "control:write-own-tmp", "control:read-own-profile"]) expect(found[control], control).toMatchObject({ ok: true });
  });

  it("reaches no address outside its namespace: not the test's loopback server, not this machine's addresses, not the metadata address, not a resolver", () => {
    expect(failed(found["connect:outside-loopback"])).toMatchObject({ ok: false, code: "ECONNREFUSED" });
    for (const address of plan.hostAddresses) expect(failed(found[`connect:host-${address}`]).ok, address).toBe(false);
    expect(failed(found["connect:metadata"])).toMatchObject({ ok: false, code: "ENETUNREACH" });
    expect(failed(found["resolve:dns"]).ok).toBe(false);
    expect(failed(found["resolve:lookup"]).ok).toBe(false);
    expect(outside.connections()).toBe(0);
  });

  it("reads neither the vault nor another profile, config.json, the daemon's log or info file, nor another home's vault", () => {
    for (const name of Object.keys(plan.reads)) expect(failed(found[`read:${name}`]), name).toMatchObject({ ok: false, code: "ENOENT" });
    expect(failed(found["read:vault-key-through-proc"])).toMatchObject({ ok: false, code: "ENOENT" });
  });

  it("writes nothing outside its own folders", () => {
    for (const [name, file] of Object.entries(plan.writes)) {
      // Not even into the view's own empty folders (the home's path, /tmp): they are read-only; the rest is absent.
      expect(failed(found[`write:${name}`]).ok, name).toBe(false);
      expect(["EROFS", "ENOENT"], name).toContain(failed(found[`write:${name}`]).code);
      expect(existsSync(file), file).toBe(false);
    }
  });

  it("connects to neither its own daemon's socket nor another daemon's", () => {
    expect(failed(found["socket:ownDaemon"])).toMatchObject({ ok: false, code: "ENOENT" });
    expect(failed(found["socket:otherDaemon"])).toMatchObject({ ok: false, code: "ENOENT" });
  });

  it("still does the real work: navigation through the guard, with no containment warning", () => {
    expect(first.json, first.stderr).toMatchObject({ ok: true, result: "Contained" });
    expect(warningCodes(first.json)).not.toContain("CONTAINMENT_UNAVAILABLE");
    expect(server.requests).toContain("/");
  });

  it("says it is contained: doctor, and the daemon's status", async () => {
    const doctor = await runCli(["doctor", "--json"], { home });
    expect(doctor.json.checks.find((c: { name: string }) => c.name === "containment")).toMatchObject({ ok: true, detail: expect.stringContaining("own network, mount and pid namespaces") });
    const status = await runCli(["sessions", "--json"], { home });
    expect(status.json.daemons[0].containment).toMatchObject({ active: true, tool: "bwrap" });
    expect(status.json.daemons[0].settings.stealth).toBe(mode === "stealth");
  });

  it("still takes screenshots, accepts an approved download and fills a login from the vault through the daemon", async () => {
    const r = await runCli(["exec", "--approve-downloads", "-c", `
      await page.goto(${JSON.stringify(server.url)});
      const shot = await screenshot();
      await page.click("#file");
      const download = await waitForDownload();
      await page.goto(${JSON.stringify(`${server.url}/login`)});
      const filled = await credentials.fill({ submit: true });
      await page.waitForURL("**/session");
      return { shot, download, filled: filled.filled };`], { home, env });
    expect(r.json, r.stderr).toMatchObject({ ok: true });
    const { shot, download, filled } = r.json.result;
    expect(existsSync(shot.path)).toBe(true);
    expect(download).toMatchObject({ status: "accepted", suggestedFilename: "note.txt", bytes: 10 });
    expect(existsSync(download.path)).toBe(true);
    expect(filled).toEqual({ username: true, password: true });
    expect(posts.some((body) => new URLSearchParams(body).get("pw") === CANARY_PASSWORD)).toBe(true);
  });
}));

describe("where the worker cannot be contained", () => {
  let home: string;
  let server: TestServer;
  // No bwrap on this PATH (the CLI, daemon and browser are started by absolute path).
  const noBwrap = { PATH: mkdtempSync(path.join(tmpdir(), "bw-no-bwrap-")) };

  beforeAll(async () => {
    home = tempHome("bw-uncontained-");
    server = await workloadServer([]);
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
    rmSync(noBwrap.PATH, { recursive: true, force: true });
  });

  it("refuses to start with --require-containment, or requireContainment in config.json, and starts nothing", async () => {
    const refused = await runCli(["exec", "--require-containment", "-c", "return 1"], { home, env: noBwrap });
    expect(refused.code).toBe(3);
    expect(refused.json.error).toMatchObject({ code: "CONTAINMENT_UNAVAILABLE" });
    expect(refused.json.error.message).toContain("bubblewrap");
    const viaEnv = await runCli(["exec", "-c", "return 1"], { home, env: { ...noBwrap, BETTERWRIGHT_REQUIRE_CONTAINMENT: "1" } });
    expect(viaEnv.json.error).toMatchObject({ code: "CONTAINMENT_UNAVAILABLE" });
    expect(existsSync(layoutFor(home).infoPath)).toBe(false);
  });

  it("runs, and says so on every envelope (snippets and typed operations), in its log and in doctor", async () => {
    const ran = await runCli(["exec", "-c", `await page.goto(${JSON.stringify(server.url)}); return page.title()`], { home, env: noBwrap });
    expect(ran.json, ran.stderr).toMatchObject({ ok: true, result: "Contained" });
    expect(ran.json.warnings).toContainEqual({ code: "CONTAINMENT_UNAVAILABLE", message: expect.stringContaining("uncontained") });
    const failedRun = await runCli(["exec", "-c", "throw new Error('no')"], { home, env: noBwrap });
    expect(warningCodes(failedRun.json)).toContain("CONTAINMENT_UNAVAILABLE");
    const op = await runCli(["reload", "--json"], { home, env: noBwrap });
    expect(warningCodes(op.json), op.stdout + op.stderr).toContain("CONTAINMENT_UNAVAILABLE");
    const doctor = await runCli(["doctor", "--json"], { home, env: noBwrap });
    const check = doctor.json.checks.find((c: { name: string }) => c.name === "containment");
    expect(check).toMatchObject({ ok: true, detail: expect.stringContaining("UNAVAILABLE"), fix: expect.stringContaining("bubblewrap") });
    const status = await runCli(["sessions", "--json"], { home, env: noBwrap });
    expect(status.json.daemons[0].containment).toMatchObject({ active: false });
  });
});
