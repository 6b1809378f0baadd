// Playwright's compiled code, kept for the profile's next worker (Node 20;
// Node 22 keeps it itself). A worker whose daemon stopped starts again on the
// next call, and loading Playwright is most of that start. The cache is code
// that V8 runs after checking little more than the source's length, so a file
// others can write, another user's or a link is never read: the attacks plant
// a cache that prints PWNED, made from a text of the bundle's exact length,
// and the first of them shows that such a cache does run when taken for ours.
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, lstatSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wrapCommonJs } from "../../shared/code-cache-file.js";
import { WORKER_NODE_FLAGS } from "../../daemon/supervisor/spawn.js";
import { cleanEnv, destroyHome, runCli, tempHome } from "../helpers/cli.js";

const CORE_BUNDLE = path.join(path.dirname(createRequire(import.meta.url).resolve("playwright-core")), "lib", "coreBundle.js");
/** Node 22.1 and later keep the worker's compiled code in NODE_COMPILE_CACHE themselves. */
const nodeCaches = "enableCompileCache" in Module;

/** V8's cache of a script as long as coreBundle.js that prints PWNED, made under the worker's flags. */
function evilCache(env: NodeJS.ProcessEnv): Buffer {
  const body = 'process.stderr.write("PWNED\\n");';
  const source = body + " ".repeat(readFileSync(CORE_BUNDLE, "utf8").length - body.length);
  const maker = `
    const vm = require("node:vm");
    const source = require("node:fs").readFileSync(0, "utf8");
    const script = new vm.Script(${JSON.stringify(wrapCommonJs("@@"))}.replace("@@", () => source), { filename: ${JSON.stringify(CORE_BUNDLE)} });
    script.runInThisContext();
    process.stdout.write(script.createCachedData().toString("base64"));`;
  return Buffer.from(execFileSync(process.execPath, [...WORKER_NODE_FLAGS, "-e", maker], { input: source, env, encoding: "utf8" }), "base64");
}

describe.skipIf(nodeCaches)("Playwright's code cache for the next worker (Node 20)", () => {
  let home: string;
  let cacheDir: string;
  const log = () => readFileSync(path.join(home, "daemon.log"), "utf8");
  const call = async (code: string) => runCli(["exec", "-c", code], { home, timeoutMs: 120_000 });
  const close = () => runCli(["close", "--all"], { home });
  /** The cache is written just after the first run's answer: wait for both bundles' files. */
  const cacheFiles = async () => {
    for (let waited = 0; waited < 30_000; waited += 200) {
      const names = existsSync(cacheDir) ? readdirSync(cacheDir).filter((n) => n.startsWith("pw-")) : [];
      if (names.length === 2) return names.sort();
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no code cache in ${cacheDir}`);
  };

  /** Waits until the worker has written its own cache over a planted one: [regular file, mode, owner]. */
  const replaced = async (file: string, planted: Buffer) => {
    for (let waited = 0; waited < 30_000; waited += 200) {
      const info = lstatSync(file);
      if (info.isFile() && info.uid === process.getuid!() && !readFileSync(file).equals(planted)) return [true, info.mode & 0o777, info.uid];
      await new Promise((r) => setTimeout(r, 200));
    }
    return [false];
  };

  beforeAll(() => {
    home = tempHome("bw-pw-cache-");
    cacheDir = path.join(home, "browser", "env", "default", "compile-cache");
  });
  afterAll(() => destroyHome(home));

  it("is left by a worker's first call, owner-only, and taken by the next worker without being written again", { timeout: 240_000 }, async () => {
    expect((await call("return 1")).json).toMatchObject({ ok: true, result: 1 });
    const names = await cacheFiles();
    expect(names.map((n) => n.split("-").slice(0, 2).join("-"))).toEqual(["pw-coreBundle", "pw-utilsBundle"]);
    expect(lstatSync(cacheDir).mode & 0o777).toBe(0o700);
    const made = names.map((n) => lstatSync(path.join(cacheDir, n)));
    for (const file of made) expect([file.mode & 0o777, file.uid]).toEqual([0o600, process.getuid!()]);
    await close();

    // A new worker reads them (V8 took them: a refused cache would be written again).
    expect((await call("return 2")).json).toMatchObject({ ok: true, result: 2 });
    await new Promise((r) => setTimeout(r, 2_000));
    const after = names.map((n) => lstatSync(path.join(cacheDir, n)));
    expect(after.map((f) => [f.ino, f.mtimeMs])).toEqual(made.map((f) => [f.ino, f.mtimeMs]));
    await close();
  });

  it("runs what a cache of ours holds, and never reads one others can write, another user's or a link", { timeout: 600_000 }, async () => {
    const [core] = await cacheFiles();
    const file = path.join(cacheDir, core!);
    const evil = evilCache(cleanEnv(home));
    const pwned = () => (log().match(/PWNED/g) ?? []).length;

    writeFileSync(file, evil, { mode: 0o600 });
    await call("return 1");
    await close();
    expect(pwned()).toBe(1);

    const elsewhere = path.join(home, "planted.bin");
    const plants: [string, () => void][] = [
      ["group-writable", () => { writeFileSync(file, evil); chmodSync(file, 0o620); }],
      ["world-writable", () => { writeFileSync(file, evil); chmodSync(file, 0o606); }],
      ["a link to a cache of ours", () => { writeFileSync(elsewhere, evil, { mode: 0o600 }); symlinkSync(elsewhere, file); }],
    ];
    if (process.getuid!() === 0) plants.push(["another user's", () => { writeFileSync(file, evil, { mode: 0o600 }); chownSync(file, 4242, 4242); }]);
    for (const [what, plant] of plants) {
      rmSync(file, { force: true });
      plant();
      const run = await call("return page.url()");
      expect(run.json, what).toMatchObject({ ok: true, result: "about:blank" });
      expect(pwned(), what).toBe(1);
      // The worker puts a cache of its own in its place (a link is replaced, not followed).
      expect(await replaced(file, evil), what).toEqual([true, 0o600, process.getuid!()]);
      await close();
    }
    expect(statSync(elsewhere).size).toBe(evil.length);
  });
});
