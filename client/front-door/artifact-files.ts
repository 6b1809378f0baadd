// Reading files the daemon reported (screenshots, downloads). Their paths come
// from the browser side, where model-driven code runs, so a path is trusted
// only as far as it checks out: inside the folder it must be in (links
// resolved), a regular file opened without following a link, within a size
// bound, and read whole exactly as large as it was when opened.
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import path from "node:path";

export type BoundedRead = { bytes: Buffer } | { tooLarge: number };

function inside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel.length > 0 && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/** The file's bytes, or its size when larger than `maxBytes`; throws when it is missing, a link or not a regular file. */
export function readBounded(file: string, maxBytes: number): BoundedRead {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error("not a regular file");
    if (stat.size > maxBytes) return { tooLarge: stat.size };
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    // One more byte means the file grew past what fstat said.
    if (read !== bytes.length || readSync(fd, Buffer.alloc(1), 0, 1, read) !== 0) throw new Error("the file changed while it was read");
    return { bytes };
  } finally {
    closeSync(fd);
  }
}

/** As readBounded, for a file that must be inside `dir`. */
export function readInside(file: string, dir: string, maxBytes: number): BoundedRead {
  if (!path.isAbsolute(file) || !inside(realpathSync(file), realpathSync(dir))) throw new Error("it is not in the session's artifact folder");
  return readBounded(file, maxBytes);
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function isPng(bytes: Buffer): boolean {
  return bytes.subarray(0, PNG.length).equals(PNG);
}
