// The cross-process write lock shared by every profile's daemon (vault/vault.lock,
// a proper-lockfile directory). Invariant: a caller either runs with the lock held
// or gets VAULT_BUSY after a bounded wait; losing the lock never crashes the process.
import { BwError } from "../../shared/protocol/errors.js";
import { VAULT_FILE_NAMES } from "../../shared/protocol/methods/vault.js";
import { lockOwnerOnly } from "../owner-only-lock.js";

export interface VaultLockOptions {
  /** A lock whose mtime is older than this is taken over (a writer died holding it). proper-lockfile floors it at 2000. */
  staleMs?: number;
  /** How long to wait for a busy lock before VAULT_BUSY. */
  waitMs?: number;
}

export const DEFAULT_LOCK_STALE_MS = 5_000;
export const DEFAULT_LOCK_WAIT_MS = 10_000;

export interface HeldLock {
  /** Throws VAULT_BUSY if the lock was lost (stolen as stale, removed) since it was taken. */
  assertHeld(): void;
}

/** Runs `fn` holding `<dir>/vault.lock`. `dir` must exist. */
export async function withVaultLock<T>(dir: string, options: VaultLockOptions, fn: (held: HeldLock) => Promise<T>): Promise<T> {
  const staleMs = Math.max(options.staleMs ?? DEFAULT_LOCK_STALE_MS, 2_000);
  const waitMs = Math.max(options.waitMs ?? DEFAULT_LOCK_WAIT_MS, 0);
  let compromised: Error | null = null;
  let release: () => Promise<void>;
  try {
    release = await lockOwnerOnly(dir, {
      lockfilePath: `${dir}/${VAULT_FILE_NAMES.lock}`,
      stale: staleMs,
      retries: waitMs === 0
        ? 0
        : { retries: 10_000, factor: 1.3, minTimeout: 15, maxTimeout: 250, randomize: true, maxRetryTime: waitMs },
      // The default throws from a timer, which would take the whole daemon down.
      onCompromised: (error) => {
        compromised = error;
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOCKED") {
      throw new BwError("VAULT_BUSY", `the vault is locked by another writer; gave up after ${waitMs} ms`, { cause: error });
    }
    throw error;
  }
  const held: HeldLock = {
    assertHeld() {
      if (compromised !== null) {
        throw new BwError("VAULT_BUSY", "lost the vault lock before the write finished; nothing was written", { cause: compromised });
      }
    },
  };
  try {
    return await fn(held);
  } finally {
    // A compromised lock is no longer ours to remove.
    if (compromised === null) await release().catch(() => undefined);
  }
}
