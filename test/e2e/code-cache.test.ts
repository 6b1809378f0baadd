// The CLI's code cache (cli/launcher.ts): V8's compiled code of the bundle,
// kept between calls. The cache is code, and V8 checks little more than the
// source's length before it runs what a cache holds; so a cache planted by
// someone else must never be read. The attacks plant a cache that prints
// PWNED, made from a script of the bundle's exact length; the first case
// shows that such a cache does run when it is taken for ours.
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeCacheDir, codeCacheName, wrapBundle } from "../../cli/launcher-cache.js";
import { codeCacheFlags } from "../../shared/code-cache-file.js";
import { CLI, cleanEnv, destroyHome, runCli, tempHome } from "../helpers/cli.js";

const BUNDLE = path.join(path.dirname(CLI), "cli.cjs");
const VERSION = /^\d+\.\d+\.\d+/;

/** A CommonJS body as long as the bundle's text (in UTF-16 units, as V8 counts) that prints PWNED and answers like the CLI's start(). */
function evilSource(): string {
  const body = 'process.stdout.write("PWNED\\n"); module.exports = { start: async () => ({ warm: false }), saveCodeCache() {} };';
  return body + " ".repeat(readFileSync(BUNDLE, "utf8").length - body.length);
}

/** V8's cache of the evil script, made as the launcher would make one, under the flags the CLI runs with. */
function evilCache(env: NodeJS.ProcessEnv): Buffer {
  const maker = `
    const vm = require("node:vm");
    const source = require("node:fs").readFileSync(0, "utf8");
    const script = new vm.Script(${JSON.stringify(wrapBundle("@@"))}.replace("@@", () => source), { filename: ${JSON.stringify(BUNDLE)} });
    const module = { exports: {} };
    script.runInThisContext()(module.exports, require, module, "", "", null);
    process.stdout.write(script.createCachedData().toString("base64"));`;
  // The maker prints PWNED itself first (it runs the script so that V8 compiles its body into the cache).
  const out = execFileSync(process.execPath, ["-e", maker], { input: evilSource(), env, encoding: "utf8" });
  return Buffer.from(out.replace(/^PWNED\n/, ""), "base64");
}

describe("the CLI's code cache", () => {
  let home: string;
  let cacheHome: string;
  let env: NodeJS.ProcessEnv;
  let cacheDir: string;
  let cacheFile: string;

  beforeAll(() => {
    home = tempHome("bw-code-cache-");
    cacheHome = mkdtempSync(path.join(tmpdir(), "bw-xdg-cache-"));
    env = { XDG_CACHE_HOME: cacheHome };
    cacheDir = codeCacheDir(env, process.platform, homedir())!;
    expect(cacheDir.startsWith(cacheHome + path.sep)).toBe(true);
    cacheFile = path.join(cacheDir, codeCacheName(statSync(BUNDLE), process.versions.v8, process.arch, codeCacheFlags([], cleanEnv(home, env))));
  });

  afterAll(async () => {
    await destroyHome(home);
    rmSync(cacheHome, { recursive: true, force: true });
  });

  it("is left by a warm call, owner-only, and read by the next without being written again", async () => {
    const help = await runCli(["--version"], { home, env });
    expect(help.stdout).toMatch(VERSION);
    // Only a call through a daemon leaves one: what a warm call compiles is what the next one needs.
    expect(readdirSync(cacheHome)).toEqual([]);

    const first = await runCli(["exec", "-c", "return 1"], { home, env });
    expect(first.json).toMatchObject({ ok: true, result: 1 });
    expect(readdirSync(cacheDir)).toEqual([path.basename(cacheFile)]);
    expect(lstatSync(cacheDir).mode & 0o777).toBe(0o700);
    const made = lstatSync(cacheFile);
    expect(made.mode & 0o777).toBe(0o600);
    expect(made.uid).toBe(process.getuid!());

    const second = await runCli(["exec", "-c", "return 2"], { home, env });
    expect(second.json).toMatchObject({ ok: true, result: 2 });
    const after = lstatSync(cacheFile);
    expect([after.ino, after.mtimeMs]).toEqual([made.ino, made.mtimeMs]);
  });

  it("runs what a cache of ours holds: the reason every other cache is refused", async () => {
    rmSync(cacheDir, { recursive: true, force: true });
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    writeFileSync(cacheFile, evilCache(cleanEnv(home, env)), { mode: 0o600 });
    const run = await runCli(["--version"], { home, env });
    expect(run.stdout).toBe("PWNED\n");
  });

  it("never reads a cache others can write, one of another user, or one behind a link", async () => {
    const evil = evilCache(cleanEnv(home, env));
    const elsewhere = path.join(cacheHome, "planted.bin");
    const plants: [string, () => void][] = [
      ["group-writable", () => { writeFileSync(cacheFile, evil); chmodSync(cacheFile, 0o620); }],
      ["world-writable", () => { writeFileSync(cacheFile, evil); chmodSync(cacheFile, 0o606); }],
      ["a link to a cache of ours", () => { writeFileSync(elsewhere, evil, { mode: 0o600 }); symlinkSync(elsewhere, cacheFile); }],
    ];
    if (process.getuid!() === 0) plants.push(["another user's", () => { writeFileSync(cacheFile, evil, { mode: 0o600 }); chownSync(cacheFile, 4242, 4242); }]);
    for (const [what, plant] of plants) {
      rmSync(cacheDir, { recursive: true, force: true });
      mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
      plant();
      const version = await runCli(["--version"], { home, env });
      expect(version.stdout, what).toMatch(VERSION);
      // A warm call puts a cache of its own in its place (a link is replaced, not followed).
      const warm = await runCli(["exec", "-c", "return 3"], { home, env });
      expect(warm.stdout, what).not.toContain("PWNED");
      expect(warm.json, what).toMatchObject({ ok: true, result: 3 });
      const fresh = lstatSync(cacheFile);
      expect([fresh.isFile(), fresh.mode & 0o777, fresh.uid], what).toEqual([true, 0o600, process.getuid!()]);
      const again = await runCli(["exec", "-c", "return 4"], { home, env });
      expect(again.json, what).toMatchObject({ ok: true, result: 4 });
    }
    expect(statSync(elsewhere).size).toBe(evil.length);
  });
});
