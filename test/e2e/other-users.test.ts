// Another local user (nobody) against our home and socket: a short-socket
// folder made before us, a home made by them or open to all, a listener in the
// daemon's place, a link planted where the daemon writes. Every call must
// refuse with UNSAFE_PATH, send the listener nothing and write nothing outside
// the home.
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { layoutFor, transcriptPath } from "../../shared/paths.js";
import { destroyHome, runCli, type CliResult } from "../helpers/cli.js";
import { asNobody, fakeListener, NOBODY, sharedTmp, type FakeListener } from "../helpers/other-user.js";
import { describeNeeding, NEEDS_ROOT } from "../helpers/needs.js";

const PASSWORD = "hunter2-for-the-listener";

function expectRefused(result: CliResult, mentions: string): void {
  const where = `exit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
  expect(result.code, where).toBe(3);
  expect(result.json, where).toMatchObject({ ok: false, error: { code: "UNSAFE_PATH", retryable: false } });
  expect(result.json.error.message, where).toContain(mentions);
  expect(result.json.error.message, where).toContain("Fix:");
}

describeNeeding(NEEDS_ROOT, "another local user", () => {
  let base: string;
  let listener: FakeListener | undefined;
  const homes: string[] = [];

  beforeEach(() => {
    base = sharedTmp("bw-other-user-");
  });

  afterEach(async () => {
    await listener?.stop();
    listener = undefined;
    for (const home of homes.splice(0)) await destroyHome(home).catch(() => undefined);
    rmSync(base, { recursive: true, force: true });
  });

  /** A home of ours (0700) in the shared folder; `long` pushes its socket out to the short-socket folder. */
  function ourHome(long = false): string {
    const home = path.join(base, long ? "h".repeat(100) : "home");
    mkdirSync(home, { mode: 0o700 });
    homes.push(home);
    return home;
  }

  const vaultAdd = (home: string, env: NodeJS.ProcessEnv = {}) =>
    runCli(["--json", "vault", "add", "--site", "https://example.com", "--username", "me"], { home, input: PASSWORD, env, timeoutMs: 30_000 });

  // env-paths names the short-socket folder under TMPDIR after the last part of $HOME (root's is /root, a user's /home/<user>).
  const userDir = () => path.join(base, path.basename(homedir()));

  describe("the short-socket folder under the temp directory", () => {
    it("is not trusted when another user made its parent first: the client sends their listener nothing", async () => {
      const home = ourHome(true);
      // What betterwright computes under TMPDIR=base: base/<user>/betterwright/<hash>.sock.
      const inSharedTmp = path.join(userDir(), "betterwright", path.basename(layoutFor(home).socketPath));
      expect(layoutFor(home).socketPath).not.toBe(layoutFor(home).homeSocketPath);
      asNobody("mkdir", "-m", "0755", userDir());
      asNobody("mkdir", "-m", "0700", path.dirname(inSharedTmp));
      listener = await fakeListener(inSharedTmp);

      const result = await vaultAdd(home, { TMPDIR: base });
      expectRefused(result, userDir());
      expect(result.json.error.message).toContain(`uid ${NOBODY}`);
      expect(listener.received()).toBe(0);
      expect(result.stdout + result.stderr).not.toContain(PASSWORD);
    });

    it("is not made inside another user's folder: the daemon refuses to bind there", async () => {
      const home = ourHome(true);
      asNobody("mkdir", "-m", "0755", userDir());
      const result = await runCli(["--json", "vault", "list"], { home, env: { TMPDIR: base }, timeoutMs: 30_000 });
      expectRefused(result, userDir());
      expect(readdirSync(userDir())).toEqual([]);
    });
  });

  describe("the home", () => {
    it.each([
      ["made by another user, mode 0777", (home: string) => asNobody("mkdir", "-m", "0777", home), () => `uid ${NOBODY}`],
      ["ours, but open to everyone (0777)", (home: string) => { mkdirSync(home); chmodSync(home, 0o777); }, (home: string) => `chmod 700 ${home}`],
    ])("%s: refused before anything is written, by the client and by an in-process daemon", async (_what, make, fix) => {
      const home = path.join(base, "home");
      make(home);
      homes.push(home);
      const mentions = fix(home);
      expectRefused(await runCli(["--json", "vault", "list"], { home, timeoutMs: 30_000 }), mentions);
      // --no-daemon builds the daemon's host in the CLI's process: its own start-up check refuses too.
      expectRefused(await runCli(["--json", "--no-daemon", "exec", "-c", "return 1"], { home, timeoutMs: 30_000 }), mentions);
      expect(readdirSync(home)).toEqual([]);
    });

    it("with another user's listener in place of daemon.sock: the password goes nowhere", async () => {
      const home = path.join(base, "home");
      asNobody("mkdir", "-m", "0777", home);
      homes.push(home);
      listener = await fakeListener(path.join(home, "daemon.sock"));
      expectRefused(await vaultAdd(home), home);
      expect(listener.received()).toBe(0);
    });

    it("with a socket of another user in a home of ours: not connected to", async () => {
      const home = ourHome();
      const socket = layoutFor(home).socketPath;
      listener = await fakeListener(socket, true);
      chownSync(socket, NOBODY, NOBODY);
      const result = await vaultAdd(home);
      expectRefused(result, socket);
      expect(result.json.error.message).toContain("listening");
      expect(listener.received()).toBe(0);
    });

    it("with a socket of ours that others may write: not connected to", async () => {
      const home = ourHome();
      const socket = layoutFor(home).socketPath;
      listener = await fakeListener(socket, true);
      chmodSync(socket, 0o777);
      expectRefused(await vaultAdd(home), `chmod 600 ${socket}`);
      expect(listener.received()).toBe(0);
    });

    it("with a link planted in place of daemon.log, or of a folder the daemon uses: nothing is written through it", async () => {
      const home = ourHome();
      const outside = path.join(base, "outside.log");
      writeFileSync(outside, "root's own file\n", { mode: 0o600 });
      symlinkSync(outside, layoutFor(home).logPath);
      expectRefused(await runCli(["--json", "vault", "list"], { home, timeoutMs: 30_000 }), layoutFor(home).logPath);
      expect(readFileSync(outside, "utf8")).toBe("root's own file\n");

      rmSync(layoutFor(home).logPath);
      const elsewhere = path.join(base, "elsewhere");
      mkdirSync(elsewhere, { mode: 0o700 });
      symlinkSync(elsewhere, layoutFor(home).vaultDir);
      expectRefused(await runCli(["--json", "vault", "list"], { home, timeoutMs: 30_000 }), layoutFor(home).vaultDir);
      expect(readdirSync(elsewhere)).toEqual([]);
      expect(existsSync(layoutFor(home).infoPath)).toBe(false);
    });
  });

  it("a link left at a session's transcript: the run's line is not appended to the file it points at", async () => {
    const home = ourHome();
    const transcript = transcriptPath(layoutFor(home), "s4");
    mkdirSync(path.dirname(transcript), { recursive: true, mode: 0o700 });
    const outside = path.join(base, "root-owned.txt");
    writeFileSync(outside, "untouched\n", { mode: 0o644 });
    symlinkSync(outside, transcript);

    const run = await runCli(["exec", "--session", "s4", "-c", "return 41 + 1"], { home, timeoutMs: 60_000 });
    expect(run.json, run.stderr).toMatchObject({ ok: true, result: 42 });
    // The run is not lost for it, but it says the line went unsaved, and why.
    expect(run.json.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ code: "TRANSCRIPT_NOT_SAVED", message: expect.stringContaining("symbolic link") })]));
    expect(readFileSync(outside, "utf8")).toBe("untouched\n");
  });
});
