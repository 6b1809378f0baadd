// Reading files the daemon reported (screenshots, downloads, spilled output).
// Their paths come from the browser side, where model-driven code runs, and
// their folders are the worker's to write: a path is trusted only as far as it
// checks out. It must name a file directly in the session's artifact folder,
// reached from the artifacts root without following any link
// (shared/below-root.ts), a regular file of ours within a size bound, read
// whole exactly as large as it was when opened.
import { constants, openSync } from "node:fs";
import path from "node:path";
import { readBelow, readOpenFile, type BoundedRead } from "../../../shared/below-root.js";

export type { BoundedRead };

/** The file's bytes, or its size when larger than `maxBytes`; throws when it is missing, a link or not a regular file. */
export function readBounded(file: string, maxBytes: number): BoundedRead {
  return readOpenFile(openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0)), maxBytes);
}

/**
 * As readBounded, for a file directly in `dir`, a session's artifact folder
 * (`<artifacts root>/<profile>/<session>`): the walk starts at the artifacts
 * root, which only the daemon writes, and follows no link below it.
 */
export function readInside(file: string, dir: string, maxBytes: number): BoundedRead {
  if (!path.isAbsolute(file) || path.dirname(path.resolve(file)) !== path.resolve(dir)) throw new Error("it is not in the session's artifact folder");
  return readBelow(path.dirname(path.dirname(path.resolve(dir))), path.resolve(file), maxBytes);
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function isPng(bytes: Buffer): boolean {
  return bytes.subarray(0, PNG.length).equals(PNG);
}
