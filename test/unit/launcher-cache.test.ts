// The launcher's code cache: where it lives (env-paths' cache folder, as the
// rest of betterwright), what its name depends on, and which files it refuses.
import { chmodSync, chownSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import envPaths from "env-paths";
import { afterEach, describe, expect, it } from "vitest";
import { codeCacheDir, codeCacheName, codeCacheOff } from "../../cli/launcher-cache.js";
import { codeCacheFlags, readCodeCache } from "../../shared/code-cache-file.js";

const bundle = { size: 364_000, mtimeMs: 1_796_157_232_535.25, ino: 5_373_969 };
const uid = process.getuid!();

describe("the code cache's folder", () => {
  const saved = process.env.XDG_CACHE_HOME;
  afterEach(() => {
    if (saved === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved;
  });

  it("is env-paths' cache folder for betterwright, with or without XDG_CACHE_HOME", () => {
    for (const xdg of [undefined, "/srv/cache-elsewhere"]) {
      if (xdg === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = xdg;
      expect(codeCacheDir(process.env, process.platform, homedir())).toBe(path.join(envPaths("betterwright", { suffix: "" }).cache, "code"));
    }
  });

  it("is macOS's Caches folder there, and none on Windows (no uid to check a file against)", () => {
    expect(codeCacheDir({}, "darwin", "/Users/a")).toBe("/Users/a/Library/Caches/betterwright/code");
    expect(codeCacheDir({}, "win32", "C:\\Users\\a")).toBeUndefined();
  });
});

describe("BETTERWRIGHT_NO_CODE_CACHE", () => {
  it("turns the cache off when it says yes, as any boolean setting does, and leaves it on otherwise", () => {
    for (const yes of ["1", "true", "YES", " on "]) expect(codeCacheOff({ BETTERWRIGHT_NO_CODE_CACHE: yes }), yes).toBe(true);
    for (const no of [undefined, "", "0", "false", "off", "later"]) expect(codeCacheOff({ BETTERWRIGHT_NO_CODE_CACHE: no }), String(no)).toBe(false);
  });
});

describe("the code cache's name", () => {
  const base = codeCacheName(bundle, "11.3.244.8-node.38", "x64", codeCacheFlags([], {}));

  it("changes with the bundle's build, V8, the architecture and the flags V8 runs under", () => {
    const others = [
      codeCacheName({ ...bundle, size: bundle.size + 1 }, "11.3.244.8-node.38", "x64", ""),
      codeCacheName({ ...bundle, mtimeMs: bundle.mtimeMs + 1 }, "11.3.244.8-node.38", "x64", codeCacheFlags([], {})),
      codeCacheName({ ...bundle, ino: bundle.ino + 1 }, "11.3.244.8-node.38", "x64", codeCacheFlags([], {})),
      codeCacheName(bundle, "12.4.254.21-node.24", "x64", codeCacheFlags([], {})),
      codeCacheName(bundle, "11.3.244.8-node.38", "arm64", codeCacheFlags([], {})),
      codeCacheName(bundle, "11.3.244.8-node.38", "x64", codeCacheFlags(["--cpu-prof"], {})),
      codeCacheName(bundle, "11.3.244.8-node.38", "x64", codeCacheFlags([], { NODE_OPTIONS: "--max-old-space-size=64" })),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
    expect(codeCacheName(bundle, "11.3.244.8-node.38", "x64", codeCacheFlags([], { PATH: "/bin" }))).toBe(base);
  });

  it("is a plain file name", () => {
    expect(base).toMatch(/^cli-[\w.-]+\.bin$/);
  });
});

describe("reading the code cache", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const make = () => {
    dir = mkdtempSync(path.join(tmpdir(), "bw-code-cache-"));
    const file = path.join(dir, "cli.bin");
    writeFileSync(file, "compiled", { mode: 0o600 });
    return file;
  };

  it("reads a regular file of ours that nobody else can write", () => {
    expect(readCodeCache(make(), uid)?.toString()).toBe("compiled");
  });

  it("refuses a file others can write, one of another user, a link, a folder and nothing", () => {
    const file = make();
    chmodSync(file, 0o620);
    expect(readCodeCache(file, uid)).toBeUndefined();
    chmodSync(file, 0o602);
    expect(readCodeCache(file, uid)).toBeUndefined();
    chmodSync(file, 0o600);
    expect(readCodeCache(file, uid + 1)).toBeUndefined();
    if (uid === 0) {
      chownSync(file, 4242, 4242);
      expect(readCodeCache(file, uid)).toBeUndefined();
      chownSync(file, 0, 0);
    }
    const link = path.join(dir, "link.bin");
    symlinkSync(file, link);
    expect(readCodeCache(link, uid)).toBeUndefined();
    expect(readCodeCache(dir, uid)).toBeUndefined();
    expect(readCodeCache(path.join(dir, "missing.bin"), uid)).toBeUndefined();
  });
});
