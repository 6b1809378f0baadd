// Reading a screenshot the daemon reported, to hand it to the client as image
// content. The path comes from the browser side, which runs model-driven code,
// so it is trusted only as far as it checks out: inside the session's artifact
// folder (links resolved), a regular file opened without following a link,
// within the size cap, and a PNG or JPEG by its first bytes.
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import path from "node:path";

export interface ArtifactImage {
  data: string;
  mimeType: "image/png" | "image/jpeg";
}

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

export function imageType(bytes: Uint8Array): ArtifactImage["mimeType"] | undefined {
  const starts = (magic: number[]) => magic.every((b, i) => bytes[i] === b);
  return starts(PNG) ? "image/png" : starts(JPEG) ? "image/jpeg" : undefined;
}

function inside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel.length > 0 && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/** The image at `file` if it is one inside `dir`; undefined (never an exception) otherwise. */
export function readArtifactImage(file: string, dir: string, maxBytes: number): ArtifactImage | undefined {
  let fd: number | undefined;
  try {
    if (!path.isAbsolute(file) || !inside(realpathSync(file), realpathSync(dir))) return undefined;
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > maxBytes || stat.size < 8) return undefined;
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    const mimeType = imageType(bytes);
    return mimeType && read === bytes.length ? { data: bytes.toString("base64"), mimeType } : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
