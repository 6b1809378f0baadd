// A run's id, made by the client so that it can cancel or reattach to the run
// before the daemon answers. A v4 UUID from the system's random source:
// node:crypto, loaded for randomUUID alone, cost a warm CLI call 2–4 ms of
// its ~25 ms of CPU.
import { closeSync, openSync, readSync } from "node:fs";

function randomBytes16(): Buffer {
  const bytes = Buffer.alloc(16);
  try {
    const fd = openSync("/dev/urandom", "r");
    try {
      if (readSync(fd, bytes, 0, 16, null) === 16) return bytes;
    } finally {
      closeSync(fd);
    }
  } catch {
    // No /dev/urandom (a sandbox without /dev): node:crypto below.
  }
  return process.getBuiltinModule("node:crypto").randomBytes(16);
}

export function newRunId(): string {
  const bytes = randomBytes16();
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
