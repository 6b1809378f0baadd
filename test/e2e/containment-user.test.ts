// Containment as an ordinary user gets it: bwrap without privileges, in a
// user namespace of its own. The test makes a user, gives it a home and a
// vault, and runs the CLI as that user with the compromised-worker preload
// (fixtures/compromised-worker.mjs): the worker reaches neither the network
// nor that user's vault, and navigation and a vault fill still work. Needs
// root (to make the user) and a kernel that lets unprivileged users make user
// namespaces; where either is missing it says so and skips.
import { execFileSync, spawn } from "node:child_process";
import { chownSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";
import { compromisedEnv, outsideListener, planFor, readFindings, workloadServer, type Finding, type Findings, type Plan } from "../helpers/compromised.js";
import type { TestServer } from "../helpers/http-server.js";
import { describeNeeding, skipFor } from "../helpers/needs.js";
import { daemonProcessesOf, waitForExit } from "../helpers/procs.js";

const isRoot = process.getuid?.() === 0;
const USER = `bwc${process.pid}`;
const PASSWORD = `user-pw-${process.pid}`;

interface Run { code: number | null; stdout: string; stderr: string; json: any }

function tryExec(file: string, args: string[]): string | undefined {
  try {
    return execFileSync(file, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch {
    return undefined;
  }
}

describeNeeding(!isRoot ? "needs root: it makes a user with useradd" : tryExec("useradd", ["--help"]) === undefined ? "useradd is missing" : undefined, "a compromised worker of an ordinary user, contained without privileges", () => {
  let base: string;
  let home: string;
  let otherHome: string;
  let uid: number;
  let gid: number;
  let why: string | undefined;
  let server: TestServer;
  let outside: Awaited<ReturnType<typeof outsideListener>>;
  let plan: Plan;
  let found: Findings;
  let first: Run;
  let env: NodeJS.ProcessEnv = {};
  const posts: string[] = [];

  const asUser = (args: string[], env: NodeJS.ProcessEnv, input = "", forHome = home): Promise<Run> =>
    new Promise((resolve) => {
      const child = spawn("setpriv", ["--reuid", String(uid), "--regid", String(gid), "--clear-groups", process.execPath, CLI, ...args], {
        cwd: base,
        env: { PATH: process.env.PATH, HOME: base, BETTERWRIGHT_HOME: forHome, ...env },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("close", (code) => {
        let json: unknown;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        resolve({ code, stdout, stderr, json });
      });
      child.stdin.end(input);
    });

  beforeAll(async () => {
    execFileSync("useradd", ["-M", "-U", "-s", "/usr/sbin/nologin", USER]);
    uid = Number(execFileSync("id", ["-u", USER], { encoding: "utf8" }).trim());
    gid = Number(execFileSync("id", ["-g", USER], { encoding: "utf8" }).trim());
    base = mkdtempSync(path.join(tmpdir(), "bw-user-"));
    home = path.join(base, "bw");
    otherHome = path.join(base, "bw-other");
    for (const dir of [home, otherHome]) mkdirSync(dir, { mode: 0o700 });
    for (const dir of [base, home, otherHome]) chownSync(dir, uid, gid);
    // The user must be able to read the build (a checkout under /root, say, it cannot).
    if (tryExec("setpriv", ["--reuid", String(uid), "--regid", String(gid), "--clear-groups", process.execPath, "-e", `require("fs").accessSync(${JSON.stringify(CLI)})`]) === undefined) {
      why = `${USER} cannot read ${CLI}`;
      return;
    }
    // Unprivileged bwrap needs user namespaces the kernel lets this user make.
    const trial = tryExec("setpriv", ["--reuid", String(uid), "--regid", String(gid), "--clear-groups", "bwrap", "--unshare-user", "--unshare-net", "--ro-bind", "/", "/", "true"]);
    if (trial === undefined) {
      why = "bwrap cannot make user namespaces as an ordinary user here (kernel.unprivileged_userns_clone, user.max_user_namespaces or AppArmor)";
      return;
    }
    server = await workloadServer(posts);
    outside = await outsideListener();
    plan = planFor(home, otherHome, outside.port, true, `${process.pid}`);
    // What planFor planted in the home is the user's, as it would be.
    execFileSync("chown", ["-R", `${uid}:${gid}`, base]);
    // The daemon this starts is the one whose worker gets the preload: every call to this home carries it.
    env = compromisedEnv(plan);
    const added = await asUser(["vault", "add", "--site", "http://127.0.0.1", "--username", "user", "--json"], env, PASSWORD);
    expect(added.code, added.stderr).toBe(0);
    expect((await asUser(["policy", "check", server.url], {}, "", otherHome)).code).toBe(0);
    first = await asUser(["exec", "-c", `await page.goto(${JSON.stringify(server.url)}); return page.title()`], env);
    found = await readFindings(home);
  }, 120_000);

  afterAll(async () => {
    if (uid !== undefined) {
      for (const h of [home, otherHome]) if (h) await asUser(["close", "--all"], {}, "", h);
      const left = [home, otherHome].filter(Boolean).flatMap((h) => daemonProcessesOf(h));
      for (const pid of left) process.kill(pid, "SIGKILL");
      await waitForExit(left, 5_000);
    }
    await outside?.close();
    await server?.close();
    rmSync(base, { recursive: true, force: true });
    tryExec("userdel", [USER]);
    for (const file of Object.values(plan?.writes ?? {})) rmSync(file, { force: true });
  });

  it("runs as the user, in a network namespace of loopback only, and reaches nothing outside it", (ctx) => {
    if (skipFor(ctx, why)) return;
    expect(found.fixtureError).toBeUndefined();
    expect(found.uid).toBe(uid);
    expect(found.network).toEqual({ interfaces: ["lo"], routesOut: 0 });
    expect(found["control:inside-loopback"]).toMatchObject({ ok: true });
    expect(found["connect:outside-loopback"]).toMatchObject({ ok: false, code: "ECONNREFUSED" });
    expect(found["connect:metadata"]).toMatchObject({ ok: false, code: "ENETUNREACH" });
    expect((found["resolve:dns"] as Finding).ok).toBe(false);
    expect(outside.connections()).toBe(0);
  });

  it("reads nothing of the user's vault, daemons or other profile, writes nowhere else, and connects to no daemon", (ctx) => {
    if (skipFor(ctx, why)) return;
    for (const name of Object.keys(plan.reads)) expect(found[`read:${name}`], name).toMatchObject({ ok: false, code: "ENOENT" });
    for (const name of Object.keys(plan.writes)) expect((found[`write:${name}`] as Finding).ok, name).toBe(false);
    for (const name of Object.keys(plan.sockets)) expect(found[`socket:${name}`], name).toMatchObject({ ok: false, code: "ENOENT" });
  });

  it("still navigates through the guard and fills the user's login from the vault", async (ctx) => {
    if (skipFor(ctx, why)) return;
    expect(first.json, first.stderr).toMatchObject({ ok: true, result: "Contained" });
    expect((first.json.warnings ?? []).map((w: { code: string }) => w.code)).not.toContain("CONTAINMENT_UNAVAILABLE");
    const filled = await asUser(["exec", "-c", `
      await page.goto(${JSON.stringify(`${server.url}/login`)});
      const r = await credentials.fill({ submit: true });
      await page.waitForURL("**/session");
      return r.filled;`], env);
    expect(filled.json, filled.stderr).toMatchObject({ ok: true, result: { username: true, password: true } });
    expect(posts.some((body) => new URLSearchParams(body).get("pw") === PASSWORD)).toBe(true);
  });
});
