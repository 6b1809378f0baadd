// Reading what a worker may have tampered with: below the artifacts root no
// link is followed, not at the file and not at any folder on the way, and
// nothing but a regular file of ours is read. The swaps are made as a
// compromised worker would make them, in its own artifact folder.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDirBelow, readBelow } from "../../shared/below-root.js";
import { appendDownloadHistory, readDownloadHistory } from "../../shared/download-history.js";
import { readInside } from "../../client/front-doors/common/artifact-files.js";

const ID = "0b0d7a63-0000-4000-8000-000000000001";

describe("reading below the artifacts root", () => {
  const dirs: string[] = [];
  afterEach(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }); });

  function store() {
    const base = mkdtempSync(path.join(os.tmpdir(), "bw-below-"));
    dirs.push(base);
    const root = path.join(base, "artifacts");
    const session = path.join(root, "default", "s");
    mkdirSync(session, { recursive: true, mode: 0o700 });
    // What the worker must not reach: a folder of the user's elsewhere.
    const secret = path.join(base, "private");
    mkdirSync(secret, { mode: 0o700 });
    writeFileSync(path.join(secret, "shot.png"), "secret bytes", { mode: 0o600 });
    return { base, root, session, secret };
  }

  it("reads a file of the session's folder, and the same name through a session folder swapped for a link is refused", () => {
    const { root, session, secret } = store();
    writeFileSync(path.join(session, "shot.png"), "own bytes", { mode: 0o600 });
    expect(readInside(path.join(session, "shot.png"), session, 1024)).toEqual({ bytes: Buffer.from("own bytes") });
    renameSync(session, `${session}.moved`);
    symlinkSync(secret, session);
    expect(() => readInside(path.join(session, "shot.png"), session, 1024)).toThrow(/link/);
    expect(() => readBelow(root, path.join(session, "shot.png"), 1024)).toThrow(expect.objectContaining({ code: "UNSAFE_PATH" }));
    expect(() => openDirBelow(root, session)).toThrow(/link/);
  });

  it("refuses a profile folder swapped for a link, a file that is a link, a FIFO, and anything outside the folder", () => {
    const { root, session, secret } = store();
    symlinkSync(path.join(secret, "shot.png"), path.join(session, "link.png"));
    expect(() => readInside(path.join(session, "link.png"), session, 1024)).toThrow(/link/);
    execFileSync("mkfifo", [path.join(session, "fifo.png")]);
    expect(() => readInside(path.join(session, "fifo.png"), session, 1024)).toThrow(/not a file|not a regular file/);
    expect(() => readInside(path.join(session, "..", "..", "..", "private", "shot.png"), session, 1024)).toThrow(/not in the session's artifact folder/);
    expect(() => readInside(path.join(session, "sub", "x.png"), session, 1024)).toThrow(/not in the session's artifact folder/);
    const profile = path.join(root, "default");
    renameSync(profile, `${profile}.moved`);
    symlinkSync(`${profile}.moved`, profile);
    expect(() => readInside(path.join(session, "shot.png"), session, 1024)).toThrow(/link/);
  });

  it("a download history read by the daemon goes through no link, and keeps only well-formed lines", () => {
    const { root, session, secret } = store();
    const outcome = { id: ID, url: "http://127.0.0.1/f", suggestedFilename: "f.pdf", status: "accepted" as const, path: path.join(session, "download-f.pdf"), bytes: 5, at: "2026-01-01T00:00:00.000Z" };
    appendDownloadHistory(session, outcome);
    expect(readDownloadHistory(session, root)).toEqual([outcome]);
    // The same history, reached through a link the worker put where its session folder was.
    renameSync(session, path.join(secret, "s"));
    symlinkSync(path.join(secret, "s"), session);
    expect(readDownloadHistory(session)).toEqual([outcome]);
    expect(readDownloadHistory(session, root)).toEqual([]);
  });
});
