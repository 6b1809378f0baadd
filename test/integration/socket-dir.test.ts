// The short-socket fallback folder lives in a shared temp directory: whatever
// is already there under its name must be a plain folder of ours, owner-only.
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prepareSocketDir } from "../../daemon/socket-path.js";
import { itNeeding, NEEDS_ROOT } from "../helpers/needs.js";

const NOBODY = 65534;

describe("the short-socket fallback folder", () => {
  let root: string;
  let home: string;
  let dir: string;
  let socket: string;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "bw-socket-dir-"));
    home = path.join(root, "home");
    dir = path.join(root, "short");
    socket = path.join(dir, "d.sock");
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it("is created owner-only, and the home 0700", () => {
    prepareSocketDir(socket, home);
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
    expect(lstatSync(home).mode & 0o777).toBe(0o700);
    // Again, over what it made itself.
    expect(() => prepareSocketDir(socket, home)).not.toThrow();
  });

  it("refuses a symlink, even to a folder of ours that is 0700", () => {
    const target = path.join(root, "elsewhere");
    mkdirSync(target, { mode: 0o700 });
    symlinkSync(target, dir);
    expect(() => prepareSocketDir(socket, home)).toThrow(expect.objectContaining({ code: "UNSAFE_PATH" }));
    expect(lstatSync(dir).isSymbolicLink()).toBe(true);
    expect(existsSync(socket)).toBe(false);
  });

  it("refuses a dangling symlink without creating its target", () => {
    const target = path.join(root, "planted");
    symlinkSync(target, dir);
    expect(() => prepareSocketDir(socket, home)).toThrow();
    expect(existsSync(target)).toBe(false);
  });

  it.each([0o750, 0o705, 0o777, 0o1777])("refuses a folder of ours with mode %o", (mode) => {
    mkdirSync(dir);
    chmodSync(dir, mode);
    expect(() => prepareSocketDir(socket, home)).toThrow(expect.objectContaining({ code: "UNSAFE_PATH", message: expect.stringContaining(dir) }));
  });

  itNeeding(NEEDS_ROOT, "refuses a 0700 folder owned by another user", () => {
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, NOBODY, NOBODY);
    expect(() => prepareSocketDir(socket, home)).toThrow(expect.objectContaining({ code: "UNSAFE_PATH" }));
    chownSync(dir, 0, 0);
    expect(() => prepareSocketDir(socket, home)).not.toThrow();
  });
});
