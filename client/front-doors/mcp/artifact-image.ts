// Reading a screenshot the daemon reported, to hand it to the client as image
// content. The path comes from the browser side, which runs model-driven code,
// so it is trusted only as far as it checks out: directly in the session's
// artifact folder, reached without following any link (front-door/artifact-files.ts),
// within the size cap, and a PNG or JPEG by its first bytes.
import { readInside } from "../common/artifact-files.js";

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

/** The image at `file` if it is one inside `dir`; undefined (never an exception) otherwise. */
export function readArtifactImage(file: string, dir: string, maxBytes: number): ArtifactImage | undefined {
  try {
    const read = readInside(file, dir, maxBytes);
    if (!("bytes" in read) || read.bytes.length < 8) return undefined;
    const mimeType = imageType(read.bytes);
    return mimeType ? { data: read.bytes.toString("base64"), mimeType } : undefined;
  } catch {
    return undefined;
  }
}
