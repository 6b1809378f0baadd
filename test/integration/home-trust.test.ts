// The daemon's own checks, without a client in front: it refuses a home
// another user could change, folders under it that are links or someone
// else's, and it writes no file (log, transcript, vault, info file) through a
// link. No browser is launched here.
import { chownSync, closeSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import net from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { composeDaemon } from "../../daemon/compose.js";
import { Logger } from "../../daemon/log.js";
import { Transcript } from "../../daemon/sessions/transcript.js";
import { openVault } from "../../daemon/vault/vault.js";
import { resolveConfig, daemonSettingsOf } from "../../shared/config.js";
import { layoutFor } from "../../shared/paths.js";
import { checkSocket, ensurePrivateDir, openPrivateFile, writeFileAtomic } from "../../shared/secure-fs.js";
import { NOBODY } from "../helpers/other-user.js";
import { itNeeding, NEEDS_ROOT } from "../helpers/needs.js";

const UNSAFE = expect.objectContaining({ code: "UNSAFE_PATH" });

describe("the daemon's home and files", () => {
  let root: string;
  let outside: string;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "bw-home-trust-"));
    outside = path.join(root, "outside.txt");
    writeFileSync(outside, "untouched\n", { mode: 0o600 });
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  const daemonIn = (home: string) => {
    const { settings } = resolveConfig({ flags: { home }, env: {} });
    const daemonSettings = daemonSettingsOf(settings);
    return composeDaemon({
      bootstrap: { home, profile: "default", settings: daemonSettings, defaultTimeoutMs: 30_000 },
      serving: true,
      policy: daemonSettings.policy,
      containment: { active: false, reason: "not asked here", fix: "none" },
      env: {},
      now: Date.now,
    });
  };

  it("refuses to start in a home others can write, and writes nothing there", () => {
    const home = path.join(root, "home");
    mkdirSync(home);
    chmodSync(home, 0o777);
    expect(() => daemonIn(home)).toThrow(expect.objectContaining({ code: "UNSAFE_PATH", message: expect.stringContaining(`chmod 700 ${home}`) }));
    expect(readdirSync(home)).toEqual([]);
  });

  itNeeding(NEEDS_ROOT, "refuses to start in another user's home, or with another user's folder in it", () => {
    const home = path.join(root, "home");
    mkdirSync(home, { mode: 0o700 });
    chownSync(home, NOBODY, NOBODY);
    expect(() => daemonIn(home)).toThrow(UNSAFE);
    chownSync(home, 0, 0);
    const sessions = layoutFor(home).sessionsRoot;
    mkdirSync(sessions, { mode: 0o700 });
    chownSync(sessions, NOBODY, NOBODY);
    expect(() => daemonIn(home)).toThrow(expect.objectContaining({ code: "UNSAFE_PATH", message: expect.stringContaining(sessions) }));
  });

  it("refuses a folder of the home that is a link, and makes nothing where it points", () => {
    const home = path.join(root, "home");
    mkdirSync(home, { mode: 0o700 });
    const elsewhere = path.join(root, "elsewhere");
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, path.join(home, "browser"));
    expect(() => daemonIn(home)).toThrow(expect.objectContaining({ code: "UNSAFE_PATH", message: expect.stringContaining(path.join(home, "browser")) }));
    expect(() => ensurePrivateDir(path.join(home, "browser", "env", "x"), home)).toThrow(UNSAFE);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("accepts a home that is a link of ours to a folder of ours", () => {
    const real = path.join(root, "real");
    mkdirSync(real, { mode: 0o700 });
    const home = path.join(root, "home");
    symlinkSync(real, home);
    const daemon = daemonIn(home);
    daemon.log.close();
    expect(readdirSync(real)).toContain("daemon.log");
  });

  it("opens no log, transcript or file through a link", () => {
    const link = path.join(root, "planted");
    symlinkSync(outside, link);
    expect(() => new Logger(link)).toThrow(UNSAFE);
    expect(() => new Transcript(link).append({ seq: 1, runId: "r", at: "now", durationMs: 1, snippet: "1", ok: true } as never)).toThrow(UNSAFE);
    expect(() => openPrivateFile(link)).toThrow(expect.objectContaining({ code: "UNSAFE_PATH", message: expect.stringContaining("symbolic link") }));
    writeFileAtomic(link, "replaced the link, not its target\n");
    expect(readFileSync(outside, "utf8")).toBe("untouched\n");
    expect(readFileSync(link, "utf8")).toBe("replaced the link, not its target\n");
  });

  itNeeding(NEEDS_ROOT, "appends to no file of another user's, even a real one", () => {
    const theirs = path.join(root, "theirs.log");
    writeFileSync(theirs, "theirs\n", { mode: 0o600 });
    chownSync(theirs, NOBODY, NOBODY);
    expect(() => openPrivateFile(theirs)).toThrow(UNSAFE);
    expect(readFileSync(theirs, "utf8")).toBe("theirs\n");
  });

  it("reads no vault key through a link (it would pair our secrets with someone else's key)", async () => {
    const home = path.join(root, "home");
    const vault = openVault({ home });
    await vault.add({ site: "https://example.com", username: "me", password: "first-secret" });
    const keyFile = path.join(home, "vault", "vault.key");
    const planted = path.join(root, "their.key");
    writeFileSync(planted, readFileSync(keyFile));
    rmSync(keyFile);
    symlinkSync(planted, keyFile);
    await expect(openVault({ home }).list({})).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    await expect(openVault({ home }).add({ site: "https://example.org", username: "me", password: "second-secret" })).rejects.toMatchObject({ code: "UNSAFE_PATH" });
  });

  it("checks a socket before anyone talks to it: ours and 0600, in a folder of ours", async () => {
    const dir = path.join(root, "sock");
    mkdirSync(dir, { mode: 0o700 });
    const socket = path.join(dir, "d.sock");
    expect(checkSocket(socket)).toBe(false);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      chmodSync(socket, 0o600);
      expect(checkSocket(socket)).toBe(true);
      chmodSync(socket, 0o666);
      expect(() => checkSocket(socket)).toThrow(expect.objectContaining({ code: "UNSAFE_PATH", message: expect.stringContaining(`chmod 600 ${socket}`) }));
      chmodSync(socket, 0o600);
      chmodSync(dir, 0o777);
      expect(() => checkSocket(socket)).toThrow(expect.objectContaining({ code: "UNSAFE_PATH", message: expect.stringContaining(dir) }));
      chmodSync(dir, 0o700);
      const link = path.join(dir, "link.sock");
      symlinkSync(socket, link);
      expect(() => checkSocket(link)).toThrow(UNSAFE);
    } finally {
      server.close();
    }
    closeSync(openPrivateFile(path.join(root, "fresh.log")));
  });
});
