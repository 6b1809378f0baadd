// A result over the envelope's bound (12,000 characters of JSON) arrives as a
// file in the session's artifact folder, wrapped in the untrusted-data
// envelope docs/artifacts.md describes: the JSON is the one line between the
// BEGIN and END markers carrying the same random tag. The front doors hand
// their callers the value itself (the HTTP API whole, MCP in parts).
import { BwError } from "../../../shared/protocol/errors.js";
import { readInside } from "./artifact-files.js";

const BEGIN = "-----BEGIN UNTRUSTED DATA ";
const MAX_SPILL_BYTES = 16 * 1024 * 1024;

/** The value a spilled result file holds. */
export function parseSpilled(text: string): unknown {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.startsWith(BEGIN) && l.endsWith("-----"));
  const tag = at === -1 ? undefined : lines[at]!.slice(BEGIN.length, -5);
  if (tag === undefined || lines[at + 2] !== `-----END UNTRUSTED DATA ${tag}-----`) throw new BwError("INTERNAL_ERROR", "a spilled result file is not in its documented form");
  return JSON.parse(lines[at + 1]!) as unknown;
}

export function readSpilled(file: string, artifactDir: string): unknown {
  const read = readInside(file, artifactDir, MAX_SPILL_BYTES);
  if (!("bytes" in read)) throw new BwError("LIMIT_EXCEEDED", `a spilled result of ${read.tooLarge} bytes is more than this server reads`);
  return parseSpilled(read.bytes.toString("utf8"));
}
