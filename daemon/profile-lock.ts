// The profile lock: held for the daemon's whole life, so exactly one daemon
// (or one --no-daemon browser) owns a profile directory. A lock whose holder
// died goes stale (mtime older than staleMs) and is taken over.
import { BwError } from "../shared/errors.js";
import { lockOwnerOnly } from "./owner-only-lock.js";

export const PROFILE_LOCK_STALE_MS = 10_000;

export interface HeldLock {
  release(): Promise<void>;
}

export async function acquireProfileLock(
  profileDir: string,
  lockPath: string,
  onCompromised: (error: Error) => void,
): Promise<HeldLock | undefined> {
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
    throw new BwError("DAEMON_UNAVAILABLE", `cannot take the profile lock ${lockPath}: ${(error as Error).message}`);
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await release().catch(() => {});
    },
  };
}
