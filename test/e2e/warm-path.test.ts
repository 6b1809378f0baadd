// What a warm call loads. A warm `exec` should cost little more than a Node
// start and a socket round trip (docs/performance.md); that holds only while
// the CLI's warm path is the launcher and one bundled script, and leaves the
// heavy modules alone (yargs, Playwright, the address parser, child_process…).
// Asserted on what the process actually loads, not on milliseconds.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layoutFor } from "../../shared/paths.js";
import { CLI, destroyHome, runCli, tempHome } from "../helpers/cli.js";

const DIST_BIN = path.dirname(CLI);
const REPO = path.resolve(DIST_BIN, "..", "..");

/**
 * A preload that records every file the process loads (ES modules as they
 * resolve; CommonJS ones, the entry too, from the require cache; files opened
 * with openSync, as the launcher reads its bundle) and the Node built-ins.
 */
function loadRecorder(dir: string): { preload: string; read(): { files: string[]; builtins: string[] } } {
  const filesLog = path.join(dir, "files.log");
  const builtinsLog = path.join(dir, "builtins.log");
  const hook = `data:text/javascript,${encodeURIComponent(`
    import { appendFileSync } from "node:fs";
    export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context);
      if (resolved.url.startsWith("file:")) appendFileSync(${JSON.stringify(filesLog)}, resolved.url + "\\n");
      return resolved;
    }`)}`;
  const preload = path.join(dir, "record-loads.cjs");
  writeFileSync(preload, `
    const fs = require("node:fs");
    const { pathToFileURL } = require("node:url");
    fs.writeFileSync(${JSON.stringify(filesLog)}, "");
    require("node:module").register(${JSON.stringify(hook)});
    const opened = [];
    const openSync = fs.openSync;
    fs.openSync = function (file, ...rest) {
      if (typeof file === "string") opened.push(file);
      return openSync.call(this, file, ...rest);
    };
    process.on("exit", () => {
      const loaded = [...Object.keys(require.cache), ...opened].filter((f) => f.startsWith("/"));
      fs.appendFileSync(${JSON.stringify(filesLog)}, loaded.map((f) => pathToFileURL(f).href + "\\n").join(""));
      fs.writeFileSync(${JSON.stringify(builtinsLog)}, process.moduleLoadList.join("\\n"));
    });
  `);
  return {
    preload,
    read: () => ({
      files: [...new Set(readFileSync(filesLog, "utf8").split("\n").filter(Boolean).map((url) => fileURLToPath(url)))],
      builtins: readFileSync(builtinsLog, "utf8").split("\n").filter((l) => l.startsWith("NativeModule ")).map((l) => l.slice(13)),
    }),
  };
}

describe("the warm path", () => {
  let home: string;

  beforeAll(async () => {
    home = tempHome("bw-warm-");
    // The daemon (and its browser) are up before the measured call.
    const first = await runCli(["exec", "-c", "return 1"], { home });
    expect(first.json).toMatchObject({ ok: true, result: 1 });
  });

  afterAll(async () => {
    await destroyHome(home);
  });

  /** Runs a warm CLI call and checks what it loaded: the bundle alone, none of the heavy modules. */
  async function expectWarm(args: string[]): Promise<unknown> {
    const recorder = loadRecorder(home);
    const warm = await runCli(args, { home, env: { NODE_OPTIONS: `--require ${recorder.preload}` } });
    const { files, builtins } = recorder.read();

    const ours = files.filter((f) => f.startsWith(REPO + path.sep) && !f.includes(`${path.sep}node_modules${path.sep}`));
    // The launcher and the one script it compiles; nothing from the per-module tsc output.
    expect(new Set(ours)).toEqual(new Set([CLI, path.join(DIST_BIN, "cli.cjs")]));

    const packages = files.filter((f) => f.includes(`${path.sep}node_modules${path.sep}`));
    // env-paths is in the bundle (scripts/bundle-cli.mjs): resolving any package from node_modules costs ~5 ms.
    for (const heavy of ["yargs", "playwright-core", "ipaddr.js", "tldts", "json-rpc-2.0", "proper-lockfile", "env-paths", "is-safe-filename", "@modelcontextprotocol", "zod"]) {
      expect(packages.filter((f) => f.includes(`${path.sep}node_modules${path.sep}${heavy}${path.sep}`))).toEqual([]);
    }
    // (node:vm is the launcher's own: it compiles the bundle with V8's code cache.)
    for (const builtin of ["child_process", "readline", "stream/consumers", "crypto"]) expect(builtins).not.toContain(builtin);
    return warm.json;
  }

  it("a warm exec runs from the bundle alone and loads none of the heavy modules", async () => {
    expect(await expectWarm(["exec", "-c", "return page.url()"])).toMatchObject({ ok: true, result: "about:blank" });
  });

  it("a warm typed operation (a CLI verb) is as cheap as exec", async () => {
    expect(await expectWarm(["read", "--json"])).toMatchObject({ ok: true, result: { url: "about:blank" } });
  });

  it("the commands off the warm path still load what they need from the bundle and node_modules", async () => {
    // repl: readline and the snippet splitter come in on demand.
    const repl = await runCli(["repl"], { home, input: "return 1\n\nreturn 2\n" });
    expect(repl.code).toBe(0);
    expect(repl.stdout.trim().split("\n").map((l) => JSON.parse(l).result)).toEqual([1, 2]);
    // yargs: help and usage errors. Every command is registered there, `mcp` and `serve` too, but the MCP SDK and hono load only when their server starts.
    const recorder = loadRecorder(home);
    const help = await runCli(["--help"], { home, env: { NODE_OPTIONS: `--require ${recorder.preload}` } });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("exec");
    expect(help.stdout).toContain("mcp");
    expect(help.stdout).toContain("serve");
    const frameworks = ["@modelcontextprotocol", "zod", "hono", "@hono"].map((name) => `${path.sep}node_modules${path.sep}${name}${path.sep}`);
    expect(recorder.read().files.filter((f) => frameworks.some((dir) => f.includes(dir)))).toEqual([]);
    const version = await runCli(["--version"], { home });
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version);
    const usage = await runCli(["exec", "--bogus-flag"], { home });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/bogus-flag/);
  });

  it("an error from the in-process host (--no-daemon) keeps its code across the bundle's boundary", async () => {
    // dist/daemon throws its own BwError class, not the bundle's copy: a lock path that loops makes it throw one.
    const broken = tempHome("bw-warm-broken-");
    try {
      const lock = layoutFor(broken).profileLockPath;
      mkdirSync(path.dirname(lock), { recursive: true });
      symlinkSync(lock, lock);
      const run = await runCli(["--no-daemon", "exec", "-c", "return 1"], { home: broken });
      expect(run.code).toBe(3);
      expect(run.json.error).toMatchObject({ code: "DAEMON_UNAVAILABLE", retryable: true, message: expect.stringContaining("profile lock") });
    } finally {
      await destroyHome(broken);
    }
  });
});
