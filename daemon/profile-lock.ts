// The profile lock: held for the daemon's whole life, so exactly one daemon
// (or one --no-daemon browser) owns a profile directory. Its holder is named
// in a file beside it, so that the lock of a holder that died (kill -9) is
// taken at once; one that names nobody goes stale (mtime older than staleMs).
import { existsSync, rmSync } from "node:fs";
import { BwError } from "../shared/protocol/errors.js";
import { isProcessAlive, processStartTicks } from "../shared/process-alive.js";
import { readPrivateFile, writeFileAtomic } from "../shared/secure-fs.js";
import { lockOwnerOnly } from "./owner-only-lock.js";

export const PROFILE_LOCK_STALE_MS = 10_000;
/** A takeover holds its own short lock; one left by a process killed inside it goes stale this fast. */
const TAKEOVER_STALE_MS = 2_000;
const TAKEOVER_WAIT_MS = 5_000;

export type HolderKind = "daemon" | "in-process";

export interface LockHolder {
  pid: number;
  /** When it started (Linux), so that a reused pid is not taken for the holder. */
  startTicks?: number;
  kind: HolderKind;
}

export interface HeldLock {
  /** The holder that had died without releasing the lock, which this one took over. */
  readonly tookOverFrom: LockHolder | undefined;
  release(): Promise<void>;
}

export const holderPath = (lockPath: string) => `${lockPath}.holder`;

/** Who holds (or last held) the lock, as its file says; undefined when it says nothing readable. */
export function lockHolder(lockPath: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readPrivateFile(holderPath(lockPath))) as Partial<LockHolder>;
    if (!Number.isSafeInteger(parsed.pid) || parsed.pid! <= 0) return undefined;
    const startTicks = Number.isSafeInteger(parsed.startTicks) ? { startTicks: parsed.startTicks! } : {};
    return { pid: parsed.pid!, ...startTicks, kind: parsed.kind === "in-process" ? "in-process" : "daemon" };
  } catch {
    return undefined;
  }
}

export const holderAlive = (holder: LockHolder) => isProcessAlive(holder.pid, holder.startTicks);

/** For the log of a daemon that found the lock held. */
export function describeHolder(holder: LockHolder | undefined): string {
  return holder ? `pid ${holder.pid} (${holderAlive(holder) ? "running" : "gone"})` : "a process that does not name itself";
}

/**
 * Every change of hands (take, take over, release) happens under this short
 * lock, so that a dead holder's lock is removed by one process only, and never
 * after someone else has taken it.
 */
function takeover(lockPath: string): Promise<() => Promise<void>> {
  return lockOwnerOnly(lockPath, {
    lockfilePath: `${lockPath}.takeover`,
    realpath: false,
    stale: TAKEOVER_STALE_MS,
    retries: { retries: 1_000, factor: 1.2, minTimeout: 10, maxTimeout: 50, maxRetryTime: TAKEOVER_WAIT_MS },
    onCompromised: () => {},
  });
}

function lockError(lockPath: string, error: unknown): BwError {
  return new BwError("DAEMON_UNAVAILABLE", `cannot take the profile lock ${lockPath}: ${(error as Error).message}`);
}

/** The lock, or undefined when a live process holds it. */
export async function acquireProfileLock(
  profileDir: string,
  lockPath: string,
  onCompromised: (error: Error) => void,
  kind: HolderKind = "daemon",
): Promise<HeldLock | undefined> {
  let endTakeover: () => Promise<void>;
  try {
    endTakeover = await takeover(lockPath);
  } catch (error) {
    throw lockError(lockPath, error);
  }
  try {
    const left = existsSync(lockPath) ? lockHolder(lockPath) : undefined;
    const dead = left !== undefined && !holderAlive(left);
    // A holder that died left its lock behind: it is taken now rather than once stale.
    if (dead) rmSync(lockPath, { recursive: true, force: true });
    let release: () => Promise<void>;
    try {
      release = await lockOwnerOnly(profileDir, {
        lockfilePath: lockPath,
        realpath: false,
        stale: PROFILE_LOCK_STALE_MS,
        update: PROFILE_LOCK_STALE_MS / 4,
        retries: 0,
        onCompromised,
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ELOCKED") return undefined;
      throw lockError(lockPath, error);
    }
    const me: LockHolder = { pid: process.pid, ...startTicksOf(process.pid), kind };
    try {
      writeFileAtomic(holderPath(lockPath), `${JSON.stringify(me)}\n`);
    } catch {
      // A disk too full for a few bytes: the lock still holds, and goes stale the old way if we die.
    }
    return heldLock(lockPath, release, dead ? left : undefined);
  } finally {
    await endTakeover().catch(() => {});
  }
}

function startTicksOf(pid: number): { startTicks?: number } {
  const ticks = processStartTicks(pid);
  return ticks === undefined ? {} : { startTicks: ticks };
}

function heldLock(lockPath: string, release: () => Promise<void>, tookOverFrom: LockHolder | undefined): HeldLock {
  let released = false;
  return {
    tookOverFrom,
    async release() {
      if (released) return;
      released = true;
      const endTakeover = await takeover(lockPath).catch(() => undefined);
      try {
        if (lockHolder(lockPath)?.pid === process.pid) rmSync(holderPath(lockPath), { force: true });
        await release().catch(() => {});
      } finally {
        await endTakeover?.().catch(() => {});
      }
    },
  };
}
