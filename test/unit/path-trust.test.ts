// OpenSSH's rule for the home, the socket folder and the socket, on stat
// results given as data: who may own each component, who may write it, and
// where a link may stand.
import { describe, expect, it } from "vitest";
import {
  OWNER_ONLY, ownProblem, PRIVATE_DIR, PRIVATE_FILE, PRIVATE_SOCKET, sharedProblem, walkBelow, walkChain,
  type FsView, type NodeInfo,
} from "../../shared/path-trust.js";

const ME = 1000;
const OTHER = 1001;
const ROOT = 0;

const dir = (uid: number, mode: number): NodeInfo => ({ kind: "dir", uid, mode });
const link = (uid: number, to: string): NodeInfo & { to: string } => ({ kind: "symlink", uid, mode: 0o777, to });

/** A file system as a table of paths. */
function view(entries: Record<string, NodeInfo & { to?: string }>): FsView {
  return {
    lstat: (p) => entries[p],
    readlink: (p) => entries[p]!.to!,
  };
}

const BASE = {
  "/": dir(ROOT, 0o755),
  "/tmp": dir(ROOT, 0o1777),
  "/home": dir(ROOT, 0o755),
  "/home/me": dir(ME, 0o750),
};

describe("a folder on the way (sharedProblem)", () => {
  it.each([
    ["root's, 0755", dir(ROOT, 0o755), true],
    ["ours, 0700", dir(ME, 0o700), true],
    ["root's sticky world-writable (/tmp)", dir(ROOT, 0o1777), true],
    ["root's world-writable without the sticky bit", dir(ROOT, 0o777), false],
    ["ours sticky world-writable (only a root-owned sticky folder is trusted)", dir(ME, 0o1777), false],
    ["root's group-writable", dir(ROOT, 0o775), false],
    ["another user's, 0755", dir(OTHER, 0o755), false],
    ["another user's sticky", dir(OTHER, 0o1777), false],
    ["a link of ours", link(ME, "/x"), true],
    ["a link of root's", link(ROOT, "/x"), true],
    ["another user's link", link(OTHER, "/x"), false],
  ])("%s: %s", (_what, info, ok) => {
    expect(sharedProblem("/p", info, ME) === undefined).toBe(ok);
  });

  it("names the fix", () => {
    expect(sharedProblem("/p", dir(ROOT, 0o777), ME)).toMatchObject({ path: "/p", reason: expect.stringContaining("0777"), fix: "chmod go-w /p" });
    expect(sharedProblem("/p", dir(OTHER, 0o755), ME)!.reason).toContain("uid 1001");
  });
});

describe("the place itself (ownProblem)", () => {
  it.each([
    ["a folder of ours, 0700", dir(ME, 0o700), PRIVATE_DIR, undefined],
    ["a folder of ours, 0755 (readable, not writable)", dir(ME, 0o755), PRIVATE_DIR, undefined],
    ["a folder of ours, 0777", dir(ME, 0o777), PRIVATE_DIR, "chmod 700 /p"],
    ["a folder of ours, 0770", dir(ME, 0o770), PRIVATE_DIR, "chmod 700 /p"],
    ["a root-owned 0777 folder", dir(ROOT, 0o777), PRIVATE_DIR, expect.stringContaining("chown 1000 /p")],
    ["another user's 0700 folder", dir(OTHER, 0o700), PRIVATE_DIR, expect.stringContaining("rm -r /p")],
    ["a 0750 folder where owner-only is needed", dir(ME, 0o750), { kind: "dir", forbidden: OWNER_ONLY }, "chmod 700 /p"],
    ["a link", link(ME, "/x"), PRIVATE_DIR, "rm /p (it is made again as a folder)"],
    ["a file of ours, 0600", { kind: "file", uid: ME, mode: 0o600 }, PRIVATE_FILE, undefined],
    ["a file of ours, 0666", { kind: "file", uid: ME, mode: 0o666 }, PRIVATE_FILE, "chmod 600 /p"],
    ["a socket of ours, 0600", { kind: "socket", uid: ME, mode: 0o600 }, PRIVATE_SOCKET, undefined],
    ["another user's socket, 0600", { kind: "socket", uid: OTHER, mode: 0o600 }, PRIVATE_SOCKET, expect.stringContaining("rm -r /p")],
    ["a socket of ours, 0777", { kind: "socket", uid: ME, mode: 0o777 }, PRIVATE_SOCKET, "chmod 600 /p"],
    ["a file where a socket is expected", { kind: "file", uid: ME, mode: 0o600 }, PRIVATE_SOCKET, expect.stringContaining("out of the way")],
  ] as const)("%s", (_what, info, rule, fix) => {
    const problem = ownProblem("/p", info as NodeInfo, ME, rule);
    if (fix === undefined) expect(problem).toBeUndefined();
    else expect(problem?.fix).toEqual(fix);
  });

  it("says another user may be listening on a foreign socket", () => {
    expect(ownProblem("/s", { kind: "socket", uid: OTHER, mode: 0o600 }, ME, PRIVATE_SOCKET)!.reason).toContain("listening");
  });

  it("root is not 'us' for a non-root user: a root-owned home is refused", () => {
    expect(ownProblem("/p", dir(ROOT, 0o700), ME, PRIVATE_DIR)).toBeDefined();
    expect(ownProblem("/p", dir(ROOT, 0o700), ROOT, PRIVATE_DIR)).toBeUndefined();
  });
});

describe("walking the way to a place (walkChain)", () => {
  it("passes a home of ours under /home and under /tmp", () => {
    const fs = view({ ...BASE, "/home/me/.bw": dir(ME, 0o700), "/tmp/bw-x": dir(ME, 0o700), "/tmp/bw-x/home": dir(ME, 0o700) });
    expect(walkChain(fs, "/home/me/.bw", ME, PRIVATE_DIR)).toEqual({ status: "ok", resolved: "/home/me/.bw" });
    expect(walkChain(fs, "/tmp/bw-x/home", ME, PRIVATE_DIR)).toEqual({ status: "ok", resolved: "/tmp/bw-x/home" });
  });

  it("reports the first missing component once everything before it passed", () => {
    const fs = view({ ...BASE });
    expect(walkChain(fs, "/home/me/.bw/x", ME, PRIVATE_DIR)).toEqual({ status: "missing", missing: "/home/me/.bw" });
    const loose = view({ ...BASE, "/home/me": dir(ME, 0o777) });
    expect(walkChain(loose, "/home/me/.bw", ME, PRIVATE_DIR)).toMatchObject({ status: "unsafe", problem: { path: "/home/me" } });
  });

  it("refuses a folder another user made in /tmp before us, however deep the place is", () => {
    // The short-socket attack: nobody makes /tmp/me first, then renames what we put in it.
    const fs = view({ ...BASE, "/tmp/me": dir(OTHER, 0o755), "/tmp/me/betterwright": dir(ME, 0o700) });
    expect(walkChain(fs, "/tmp/me/betterwright", ME, PRIVATE_DIR)).toMatchObject({ status: "unsafe", problem: { path: "/tmp/me", reason: expect.stringContaining("uid 1001") } });
  });

  it("refuses a home another user made, or anyone can write", () => {
    expect(walkChain(view({ ...BASE, "/tmp/h": dir(OTHER, 0o777) }), "/tmp/h", ME, PRIVATE_DIR)).toMatchObject({ status: "unsafe", problem: { path: "/tmp/h" } });
    expect(walkChain(view({ ...BASE, "/tmp/h": dir(ROOT, 0o777) }), "/tmp/h", ME, PRIVATE_DIR)).toMatchObject({ status: "unsafe" });
    expect(walkChain(view({ ...BASE, "/tmp/h": dir(ME, 0o777) }), "/tmp/h", ME, PRIVATE_DIR)).toMatchObject({ status: "unsafe", problem: { fix: "chmod 700 /tmp/h" } });
  });

  it("follows a link on the way and checks both the link and where it leads", () => {
    const ok = view({ ...BASE, "/home/me/bw": link(ME, "/data/bw"), "/data": dir(ROOT, 0o755), "/data/bw": dir(ME, 0o700) });
    expect(walkChain(ok, "/home/me/bw", ME, PRIVATE_DIR)).toEqual({ status: "ok", resolved: "/data/bw" });
    // The link is ours, but it leads through a folder anyone can write.
    const loose = view({ ...BASE, "/home/me/bw": link(ME, "/data/bw"), "/data": dir(ROOT, 0o777), "/data/bw": dir(ME, 0o700) });
    expect(walkChain(loose, "/home/me/bw", ME, PRIVATE_DIR)).toMatchObject({ status: "unsafe", problem: { path: "/data" } });
    // A link another user planted in /tmp, even to a folder of ours.
    const planted = view({ ...BASE, "/tmp/bw": link(OTHER, "/home/me/real"), "/home/me/real": dir(ME, 0o700) });
    expect(walkChain(planted, "/tmp/bw", ME, PRIVATE_DIR)).toMatchObject({ status: "unsafe", problem: { path: "/tmp/bw" } });
  });

  it("checks every hop of a chain of links, relative ones and '..' included", () => {
    const fs = view({
      ...BASE,
      "/home/me/a": link(ME, "../me/b/c"),
      "/home/me/b": dir(OTHER, 0o755),
      "/home/me/b/c": link(OTHER, "/data/bw"),
      "/data": dir(ROOT, 0o755),
      "/data/bw": dir(ME, 0o700),
    });
    // The final folder is fine; the folder holding the second link is someone else's.
    expect(walkChain(fs, "/home/me/a", ME, PRIVATE_DIR)).toMatchObject({ status: "unsafe", problem: { path: "/home/me/b" } });
  });

  it("refuses a link as the last component when links are not allowed there (the socket folder)", () => {
    const fs = view({ ...BASE, "/tmp/me": dir(ME, 0o700), "/tmp/me/bw": link(ME, "/tmp/me/real"), "/tmp/me/real": dir(ME, 0o700) });
    expect(walkChain(fs, "/tmp/me/bw", ME, PRIVATE_DIR, false)).toMatchObject({ status: "unsafe", problem: { path: "/tmp/me/bw", reason: expect.stringContaining("symbolic link") } });
    expect(walkChain(fs, "/tmp/me/bw", ME, PRIVATE_DIR, true)).toEqual({ status: "ok", resolved: "/tmp/me/real" });
  });

  it("stops on a loop of links", () => {
    const fs = view({ ...BASE, "/home/me/x": link(ME, "/home/me/y"), "/home/me/y": link(ME, "/home/me/x") });
    expect(walkChain(fs, "/home/me/x", ME, PRIVATE_DIR)).toMatchObject({ status: "unsafe", problem: { reason: expect.stringContaining("too many") } });
  });

  it("tells a file in the way apart from a permission problem", () => {
    const fs = view({ ...BASE, "/home/me/f": { kind: "file", uid: ME, mode: 0o644 }, "/dev": dir(ROOT, 0o755), "/dev/null": { kind: "other", uid: ROOT, mode: 0o666 } });
    expect(walkChain(fs, "/home/me/f/sub", ME, PRIVATE_DIR)).toEqual({ status: "not-a-folder", path: "/home/me/f" });
    expect(walkChain(fs, "/home/me/f", ME, PRIVATE_DIR)).toEqual({ status: "not-a-folder", path: "/home/me/f" });
    expect(walkChain(fs, "/dev/null", ME, PRIVATE_DIR)).toEqual({ status: "not-a-folder", path: "/dev/null" });
  });

  it("for root, everything root's passes and another user's folder does not", () => {
    const fs = view({ ...BASE, "/root": dir(ROOT, 0o700), "/root/.bw": dir(ROOT, 0o700), "/tmp/root": dir(65534, 0o700) });
    expect(walkChain(fs, "/root/.bw", ROOT, PRIVATE_DIR)).toMatchObject({ status: "ok" });
    expect(walkChain(fs, "/tmp/root", ROOT, PRIVATE_DIR)).toMatchObject({ status: "unsafe", problem: { path: "/tmp/root" } });
  });
});

describe("folders inside the home (walkBelow)", () => {
  const home = "/home/me/.bw";

  it("passes folders of ours and stops at the first missing one", () => {
    const fs = view({ [home]: dir(ME, 0o700), [`${home}/sessions`]: dir(ME, 0o700) });
    expect(walkBelow(fs, home, `${home}/sessions/s4`, ME)).toEqual({ status: "missing", missing: `${home}/sessions/s4` });
    expect(walkBelow(fs, home, `${home}/sessions`, ME)).toEqual({ status: "ok", resolved: `${home}/sessions` });
    expect(walkBelow(fs, home, home, ME)).toEqual({ status: "ok", resolved: home });
  });

  it("refuses any link inside the home, even one of ours to a folder of ours", () => {
    const fs = view({ [home]: dir(ME, 0o700), [`${home}/sessions`]: link(ME, "/home/me/elsewhere") });
    expect(walkBelow(fs, home, `${home}/sessions/s4`, ME)).toMatchObject({ status: "unsafe", problem: { path: `${home}/sessions`, fix: `rm ${home}/sessions (it is made again as a folder)` } });
  });

  it("refuses a folder another user made in the home while it was open to them", () => {
    const fs = view({ [home]: dir(ME, 0o700), [`${home}/sessions`]: dir(OTHER, 0o777) });
    expect(walkBelow(fs, home, `${home}/sessions/s4`, ME)).toMatchObject({ status: "unsafe", problem: { path: `${home}/sessions` } });
  });

  it("will not walk outside its root", () => {
    expect(() => walkBelow(view({}), home, "/etc", ME)).toThrow();
  });
});
