// A run's id, made by the client so that it can cancel or reattach to the run
// before the daemon answers. A v4 UUID from the system's random source, read
// a batch at a time: node:crypto, loaded for randomUUID alone, cost a warm CLI
// call 2–4 ms of its ~25 ms of CPU.
import { closeSync, openSync, readSync } from "node:fs";

const IDS_PER_READ = 64;

/** Random bytes for the next ids, handed out 16 at a time: a cache (as Node keeps for randomUUID), so a library client making many calls reads the source once per 64. */
const pool = { bytes: Buffer.alloc(0), used: 0 };

function fill(): void {
  const bytes = Buffer.alloc(16 * IDS_PER_READ);
  try {
    const fd = openSync("/dev/urandom", "r");
    try {
      if (readSync(fd, bytes, 0, bytes.length, null) === bytes.length) {
        Object.assign(pool, { bytes, used: 0 });
        return;
      }
    } finally {
      closeSync(fd);
    }
  } catch {
    // No /dev/urandom (a sandbox without /dev): node:crypto below.
  }
  Object.assign(pool, { bytes: process.getBuiltinModule("node:crypto").randomBytes(bytes.length), used: 0 });
}

export function newRunId(): string {
  if (pool.used + 16 > pool.bytes.length) fill();
  const bytes = Buffer.from(pool.bytes.subarray(pool.used, pool.used + 16));
  pool.used += 16;
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
