import path from "node:path";
import { describe, expect, it } from "vitest";
import { layoutFor, shortSocketRoot, SOCKET_PATH_LIMIT_BYTES, socketPathFor } from "../../shared/paths.js";

const LINUX = SOCKET_PATH_LIMIT_BYTES.linux!;

describe("the daemon's socket path", () => {
  it("lives in the home while it fits", () => {
    expect(socketPathFor("/home/u/.betterwright", "default", "linux")).toBe("/home/u/.betterwright/daemon.sock");
    expect(socketPathFor("/home/u/.betterwright", "social", "linux")).toBe("/home/u/.betterwright/daemon-social.sock");
  });

  it("switches to the short folder by byte length, not character count", () => {
    // Same number of characters; the accented home takes more bytes.
    const ascii = `/${"a".repeat(LINUX - "/daemon.sock".length - 2)}`;
    const accented = `/${"é".repeat(LINUX - "/daemon.sock".length - 2)}`;
    expect(ascii.length).toBe(accented.length);
    expect(Buffer.byteLength(path.join(ascii, "daemon.sock"))).toBeLessThan(LINUX);
    expect(socketPathFor(ascii, "default", "linux")).toBe(path.join(ascii, "daemon.sock"));
    expect(socketPathFor(accented, "default", "linux").startsWith(shortSocketRoot())).toBe(true);
  });

  it("never returns a path at or over the limit (the NUL terminator needs a byte)", () => {
    for (let n = 80; n < 130; n++) {
      const home = `/${"h".repeat(n)}`;
      for (const profile of ["default", "p", "a".repeat(64)]) {
        expect(Buffer.byteLength(socketPathFor(home, profile, "linux"))).toBeLessThan(LINUX);
      }
    }
    const exact = `/${"h".repeat(LINUX - "/daemon.sock".length - 1)}`;
    expect(Buffer.byteLength(path.join(exact, "daemon.sock"))).toBe(LINUX);
    expect(socketPathFor(exact, "default", "linux")).not.toBe(path.join(exact, "daemon.sock"));
  });

  it("uses the smaller macOS limit there", () => {
    const home = `/${"h".repeat(SOCKET_PATH_LIMIT_BYTES.darwin! - "/daemon.sock".length)}`;
    expect(socketPathFor(home, "default", "linux")).toBe(path.join(home, "daemon.sock"));
    expect(socketPathFor(home, "default", "darwin")).not.toBe(path.join(home, "daemon.sock"));
  });

  it("derives the fallback deterministically, and distinctly for profiles that would collide when cut", () => {
    const home = `/tmp/${"x".repeat(100)}`;
    const first = `p${"q".repeat(40)}1`;
    const second = `p${"q".repeat(40)}2`;
    const a = socketPathFor(home, first, "linux");
    expect(socketPathFor(home, first, "linux")).toBe(a);
    expect(layoutFor(home, first).socketPath).toBe(socketPathFor(home, first));
    const b = socketPathFor(home, second, "linux");
    expect(b).not.toBe(a);
    expect(socketPathFor(`${home}y`, first, "linux")).not.toBe(a);
    expect(socketPathFor(home, "default", "linux")).not.toBe(a);
    expect(path.dirname(a)).toBe(shortSocketRoot());
    // The home's own paths stay what the user sees.
    expect(layoutFor(home, first).homeSocketPath).toBe(path.join(home, `daemon-${first}.sock`));
  });
});
