// Runs on its own thread inside the worker. The main thread bumps a counter
// every tick; if the counter stops (a snippet's CPU loop holds the event
// loop), this thread tells the daemon which session last received control,
// straight onto the RPC pipe, since the main thread cannot.
import { writeSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";

interface WatchdogData {
  shared: SharedArrayBuffer;
  fd: number;
  blockedMs: number;
  checkMs: number;
}

const { shared, fd, blockedMs, checkMs } = workerData as WatchdogData;
const slots = new Int32Array(shared);
const names = new Map<number, string>();
parentPort?.on("message", (message: { id: number; name: string }) => names.set(message.id, message.name));

let lastBeat = Atomics.load(slots, 0);
let lastChange = Date.now();
let reported = false;
setInterval(() => {
  const beat = Atomics.load(slots, 0);
  if (beat !== lastBeat) {
    lastBeat = beat;
    lastChange = Date.now();
    reported = false;
    return;
  }
  if (reported || Date.now() - lastChange < blockedMs) return;
  reported = true;
  const session = names.get(Atomics.load(slots, 1)) ?? null;
  const frame = { jsonrpc: "2.0", method: "worker.blocked", params: { session, blockedMs: Date.now() - lastChange } };
  // One small write to a pipe is atomic, so it cannot tear a frame the main thread was writing.
  try { writeSync(fd, `${JSON.stringify(frame)}\n`); } catch { /* the daemon is gone */ }
}, checkMs);
