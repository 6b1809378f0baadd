// What a contained worker is shown (bwrap's arguments, from a stand-in file
// system) and how the probe decides whether containment is available.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bwrapViewArgs, outermost, type ViewFs, type ViewInput } from "../../daemon/supervisor/containment-view.js";
import { assertContainment, containmentWarning, withContainmentWarning } from "../../daemon/supervisor/containment.js";
import { bwrapNamespaceArgs, parseBwrapVersion, probeContainment, type ContainmentStatus } from "../../shared/containment.js";
import { ERROR_CODES } from "../../shared/protocol/errors.js";
import { failure } from "../helpers/failure.js";

/** A Debian-like machine: merged /usr, /lib32 absent, a shadow file, and the folders named in `dirs`. */
function fakeFs(dirs: string[]): ViewFs {
  const links: Record<string, string> = { "/bin": "usr/bin", "/sbin": "usr/sbin", "/lib": "usr/lib", "/lib64": "usr/lib64" };
  const files = new Set(["/etc/shadow", "/etc/gshadow"]);
  const folders = new Set(["/usr", "/etc", "/etc/ssh", "/var/cache/fontconfig", ...dirs]);
  return {
    kind: (file) => (file in links ? "link" : folders.has(file) ? "dir" : files.has(file) ? "file" : "missing"),
    readlink: (file) => links[file]!,
  };
}

/** The pairs of one option: [["--bind", src, dest], …]. */
function mounts(args: string[], option: string): string[][] {
  const out: string[][] = [];
  const arity: Record<string, number> = { "--ro-bind": 2, "--bind": 2, "--symlink": 2, "--tmpfs": 1, "--dev": 1, "--proc": 1, "--chdir": 1, "--remount-ro": 1 };
  for (let i = 0; i < args.length; i += 1 + (arity[args[i]!] ?? 0)) {
    if (args[i] === option) out.push(args.slice(i + 1, i + 1 + arity[option]!));
  }
  return out;
}

const HOME = "/home/me/.betterwright";
const fsWithHome = (dirs: string[]) => fakeFs([HOME, ...dirs]);
const input: ViewInput = {
  writable: [`${HOME}/browser/profile`, `${HOME}/browser/env/default`, `${HOME}/artifacts/default`],
  code: ["/opt/bw", "/opt/bw/node_modules", "/usr/lib/chromium", "/home/me/.cache/ms-playwright/chromium-1"],
  hidden: [HOME, "/tmp"],
  overlays: [{ host: `${HOME}/browser/env/default/worker-tmp/w-1/incoming`, view: `${HOME}/artifacts/default/.incoming` }],
};

describe("the contained worker's view", () => {
  const args = bwrapViewArgs(input, fsWithHome(["/opt/bw", "/opt/bw/node_modules", "/usr/lib/chromium", "/home/me/.cache/ms-playwright/chromium-1"]));

  it("shows the system read-only and keeps merged-/usr links as links", () => {
    expect(mounts(args, "--ro-bind")).toEqual(expect.arrayContaining([["/usr", "/usr"], ["/etc", "/etc"], ["/var/cache/fontconfig", "/var/cache/fontconfig"]]));
    expect(mounts(args, "--symlink")).toEqual([["usr/bin", "/bin"], ["usr/sbin", "/sbin"], ["usr/lib", "/lib"], ["usr/lib64", "/lib64"]]);
    expect(args).toEqual(expect.arrayContaining(["--dev", "/dev", "--proc", "/proc"]));
    expect(mounts(args, "--tmpfs")).toContainEqual(["/tmp"]);
  });

  it("blanks the machine's secrets under /etc", () => {
    expect(mounts(args, "--ro-bind")).toEqual(expect.arrayContaining([["/dev/null", "/etc/shadow"], ["/dev/null", "/etc/gshadow"]]));
    expect(mounts(args, "--tmpfs")).toContainEqual(["/etc/ssh"]);
  });

  it("shows the code read-only, once per outermost folder, and nothing already inside /usr", () => {
    const ro = mounts(args, "--ro-bind").map(([src]) => src);
    expect(ro).toContain("/opt/bw");
    expect(ro).toContain("/home/me/.cache/ms-playwright/chromium-1");
    expect(ro).not.toContain("/opt/bw/node_modules");
    expect(ro).not.toContain("/usr/lib/chromium");
  });

  it("binds exactly the worker's own folders writable, and its own downloads folder over .incoming", () => {
    expect(mounts(args, "--bind")).toEqual([...input.writable.map((dir) => [dir, dir]), [input.overlays[0]!.host, input.overlays[0]!.view]]);
  });

  it("shows nothing else of the home: no vault, config.json, daemon socket or log, other profile", () => {
    const shown = [...mounts(args, "--ro-bind"), ...mounts(args, "--bind")].map(([, dest]) => dest!);
    for (const secret of [`${HOME}/vault/vault.key`, `${HOME}/config.json`, `${HOME}/daemon.sock`, `${HOME}/daemon.log`, `${HOME}/browser/profiles/other`, `${HOME}/artifacts/other`, "/home/me/.ssh", "/run/user/0"]) {
      expect(shown.filter((dest) => secret === dest || secret.startsWith(`${dest}/`)), secret).toEqual([]);
    }
  });

  it("empties the home wherever it is, before the worker's folders go back in, and leaves it read-only", () => {
    const tmpfsAt = args.indexOf(HOME);
    expect(args[tmpfsAt - 1]).toBe("--tmpfs");
    expect(args.indexOf(input.writable[0]!)).toBeGreaterThan(tmpfsAt);
    expect(mounts(args, "--remount-ro")).toEqual([["/"], ["/tmp"], [HOME]]);
  });

  it("empties a home inside a folder of code after binding that folder, and one holding code before", () => {
    const inside = bwrapViewArgs({ ...input, hidden: ["/opt/bw/.home"], writable: ["/opt/bw/.home/browser/profile"] }, fakeFs(["/opt/bw", "/opt/bw/.home"]));
    expect(inside.indexOf("/opt/bw/.home")).toBeGreaterThan(inside.indexOf("/opt/bw"));
    expect(inside[inside.indexOf("/opt/bw/.home") - 1]).toBe("--tmpfs");
    const holding = bwrapViewArgs({ ...input, hidden: ["/root"], code: ["/root/.nvm/node"], writable: ["/root/.betterwright/browser/profile"] }, fakeFs(["/root", "/root/.nvm/node"]));
    expect(holding.indexOf("/root")).toBeLessThan(holding.indexOf("/root/.nvm/node"));
    expect(holding[holding.indexOf("/root") - 1]).toBe("--tmpfs");
  });

  it("starts in /, and never shares the host's namespaces", () => {
    expect(args.slice(-2)).toEqual(["--chdir", "/"]);
    const ns = bwrapNamespaceArgs(true);
    for (const flag of ["--unshare-user", "--unshare-net", "--unshare-pid", "--unshare-ipc", "--disable-userns", "--die-with-parent", "--new-session"]) expect(ns).toContain(flag);
    expect(ns.join(" ")).toContain("--cap-drop ALL");
    expect(bwrapNamespaceArgs(false)).not.toContain("--disable-userns");
  });

  it("outermost() keeps only folders no other one holds", () => {
    expect(outermost(["/a/b", "/a", "/c", "/a/b/c", "/c"])).toEqual(["/a", "/c"]);
    expect(outermost(["/ab", "/a"])).toEqual(["/ab", "/a"]);
  });
});

describe("the containment probe", () => {
  const run = (trial: { code: number; stderr?: string }, version = "bubblewrap 0.8.0\n") => {
    const calls: string[][] = [];
    return {
      calls,
      run: async (_file: string, args: string[]) => {
        calls.push(args);
        return args[0] === "--version" ? { code: 0, stdout: version, stderr: "" } : { code: trial.code, stdout: "", stderr: trial.stderr ?? "" };
      },
    };
  };
  const made: string[] = [];
  afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  /** A PATH whose one folder holds an executable named bwrap (never run: the probe's runner is injected). */
  function pathWithBwrap(): string {
    const dir = mkdtempSync(path.join(tmpdir(), "bw-fake-bwrap-"));
    made.push(dir);
    writeFileSync(path.join(dir, "bwrap"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
    return dir;
  }

  it("is unavailable off Linux, and without bwrap on the PATH, saying how to fix it", async () => {
    expect(await probeContainment({ env: { PATH: pathWithBwrap() }, platform: "darwin" })).toMatchObject({ active: false, reason: expect.stringContaining("darwin") });
    const none = await probeContainment({ env: { PATH: "/nonexistent" }, platform: "linux" });
    expect(none).toMatchObject({ active: false, reason: expect.stringContaining("bwrap"), fix: expect.stringContaining("bubblewrap") });
  });

  it("reads bwrap's version and uses --disable-userns from 0.8 on", () => {
    expect(parseBwrapVersion("bubblewrap 0.8.0")).toEqual([0, 8, 0]);
    expect(parseBwrapVersion("bubblewrap 0.6.1\n")).toEqual([0, 6, 1]);
    expect(parseBwrapVersion("nope")).toBeUndefined();
  });

  it("tries the worker's namespaces for real and reports bwrap's own complaint when they cannot be made", async () => {
    const fake = run({ code: 1, stderr: "bwrap: No permissions to creating new namespace\n" });
    const status = await probeContainment({ env: { PATH: pathWithBwrap() }, platform: "linux", run: fake.run });
    if (status.active) throw new Error("expected the probe to fail");
    expect(status.reason).toContain("No permissions to creating new namespace");
    expect(status.fix).toMatch(/user namespaces/);
    expect(fake.calls[1]).toEqual(expect.arrayContaining(["--unshare-net", "--unshare-pid", "--disable-userns"]));
    const old = run({ code: 0 }, "bubblewrap 0.6.1\n");
    const ok = await probeContainment({ env: { PATH: pathWithBwrap() }, platform: "linux", run: old.run });
    expect(ok).toMatchObject({ active: true, disableUserns: false, version: "0.6.1" });
    expect(old.calls[1]).not.toContain("--disable-userns");
  });
});

describe("what an uncontained daemon says", () => {
  const off: ContainmentStatus = { active: false, reason: "bwrap (bubblewrap) is not on the PATH", fix: "install bubblewrap" };
  const on: ContainmentStatus = { active: true, tool: "bwrap", path: "/usr/bin/bwrap", version: "0.8.0", disableUserns: true };

  it("puts a CONTAINMENT_UNAVAILABLE warning on envelopes, naming the reason and the fix, and none when contained", () => {
    expect(containmentWarning(off)).toEqual({ code: "CONTAINMENT_UNAVAILABLE", message: expect.stringContaining("bwrap (bubblewrap) is not on the PATH") });
    expect(containmentWarning(off)!.message).toContain("install bubblewrap");
    expect(containmentWarning(on)).toBeUndefined();
    expect(ERROR_CODES.CONTAINMENT_UNAVAILABLE.exit).toBe(3);
  });

  it("adds the warning to an envelope once, after its own warnings, and leaves a contained daemon's alone", () => {
    const envelope = { warnings: [{ code: "SESSION_RESET", message: "lost" }] };
    withContainmentWarning(withContainmentWarning(envelope, off), off);
    expect(envelope.warnings.map((w) => w.code)).toEqual(["SESSION_RESET", "CONTAINMENT_UNAVAILABLE"]);
    expect(withContainmentWarning({ warnings: [] }, on).warnings).toEqual([]);
  });

  it("refuses to start under requireContainment, and only then", () => {
    expect(() => assertContainment(on, true)).not.toThrow();
    expect(() => assertContainment(off, false)).not.toThrow();
    expect(failure(() => assertContainment(off, true))).toMatchObject({ code: "CONTAINMENT_UNAVAILABLE" });
  });
});
