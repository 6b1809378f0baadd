// The artifact store's cross-process lock: every profile's daemon shares
// `artifacts/`, so each read-decide-write of the ledger and each eviction
// happens under one lock directory (proper-lockfile). Held for milliseconds.
import { BwError } from "../../shared/protocol/errors.js";
import { lockOwnerOnly } from "../owner-only-lock.js";

export const STORE_LOCK_STALE_MS = 10_000;
const RETRY_MIN_MS = 10;
const RETRY_MAX_MS = 50;

export interface LockOptions {
  /** The folder the lock protects (must exist). */
  target: string;
  lockPath: string;
  waitMs: number;
  /** Someone removed or took over our lock while we held it. */
  onCompromised: (error: Error) => void;
}

export async function withStoreLock<T>(options: LockOptions, body: () => T | Promise<T>): Promise<T> {
  let release: () => Promise<void>;
  try {
    release = await lockOwnerOnly(options.target, {
      lockfilePath: options.lockPath,
      realpath: false,
      stale: STORE_LOCK_STALE_MS,
      update: STORE_LOCK_STALE_MS / 4,
      retries: { retries: Math.ceil(options.waitMs / RETRY_MAX_MS), factor: 1.5, minTimeout: RETRY_MIN_MS, maxTimeout: RETRY_MAX_MS, randomize: true },
      onCompromised: options.onCompromised,
    });
  } catch (error) {
    throw new BwError("QUOTA_EXCEEDED", `the artifact store is busy (lock ${options.lockPath} not obtained within ${options.waitMs} ms): ${(error as Error).message}`, {
      retryable: true,
      details: { cap: "lock" },
    });
  }
  try {
    return await body();
  } finally {
    // A compromised lock rejects here; the work it guarded is already done.
    await release().catch(() => {});
  }
}
