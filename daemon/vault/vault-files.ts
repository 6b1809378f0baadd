// The vault's files under <home>/vault and the read / locked read-modify-write
// cycle over them. Invariants: an existing vault.enc is never paired with a new
// key; a write re-reads vault.enc inside the lock; a file that fails to decode
// is never rewritten.
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { chmod, readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { BwError } from "../../shared/protocol/errors.js";
import { ensurePrivateDir, ensureTrustedDir, linkRefusal, READ_NOFOLLOW } from "../../shared/secure-fs.js";
import { VAULT_FILE_NAMES } from "../../shared/protocol/methods/vault.js";
import { STATE_FILE_SUFFIX, STATES_DIR_NAME } from "../../shared/protocol/methods/state.js";
import { createFileExclusive, DIR_MODE, removeStaleTemps, writeFileAtomic } from "./atomic-file.js";
import { decodeVault, encodeVault, VAULT_KEY_BYTES, type VaultTable } from "./vault-format.js";
import { withVaultLock, type VaultLockOptions } from "./vault-lock.js";

export interface VaultPaths {
  dir: string;
  key: string;
  enc: string;
  audit: string;
  lock: string;
}

export function vaultPaths(home: string): VaultPaths {
  const dir = join(home, "vault");
  return {
    dir,
    key: join(dir, VAULT_FILE_NAMES.key),
    enc: join(dir, VAULT_FILE_NAMES.enc),
    audit: join(dir, VAULT_FILE_NAMES.audit),
    lock: join(dir, VAULT_FILE_NAMES.lock),
  };
}

export interface VaultStoreOptions {
  lock?: VaultLockOptions;
  /** Test seam: runs with the lock held, after the new vault.enc is durable in its temp file, before the rename. */
  beforeCommit?: (tempPath: string) => Promise<void> | void;
}

/**
 * Creates <home>/vault 0700 (and a missing home 0700), tightening an existing
 * vault dir others can read; one that is a link, another user's or writable by
 * others is refused (UNSAFE_PATH): its key could be swapped or read.
 */
export async function ensureVaultDir(paths: VaultPaths): Promise<void> {
  ensureTrustedDir(dirname(paths.dir));
  ensurePrivateDir(paths.dir, dirname(paths.dir));
  const info = await stat(paths.dir);
  if ((info.mode & 0o077) !== 0) await chmod(paths.dir, DIR_MODE);
}

/** A vault file's bytes, never through a link (a planted vault.key would pair our secrets with someone's key). */
export async function readVaultFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path, { flag: READ_NOFOLLOW });
  } catch (error) {
    throw linkRefusal(error, path);
  }
}

async function readOptional(path: string): Promise<Buffer | null> {
  try {
    return await readVaultFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function keyMissing(paths: VaultPaths): BwError {
  return new BwError(
    "VAULT_KEY_MISSING",
    `${paths.enc} exists but ${paths.key} does not; restore the key (vault.key and vault.enc are only useful together). No new key was created.`,
  );
}

interface Snapshot {
  table: VaultTable;
  key: Buffer | null;
}

/**
 * vault.enc is read before vault.key: the key is always created before the
 * first vault.enc, so a reader racing that first write never sees an enc
 * without its key.
 */
async function readSnapshot(paths: VaultPaths): Promise<Snapshot> {
  const enc = await readOptional(paths.enc);
  const key = await readOptional(paths.key);
  if (enc === null) return { table: { entries: [] }, key };
  if (key === null) throw keyMissing(paths);
  return { table: decodeVault(enc, key), key };
}

/** The current table, without taking the lock (writes are atomic renames). */
export async function readTable(paths: VaultPaths): Promise<VaultTable> {
  return (await readSnapshot(paths)).table;
}

export interface Mutation<T> {
  result: T;
  /** The table to write; omit to leave the files as they are. */
  table?: VaultTable;
}

/** Locked read-modify-write: `change` sees the table as it is on disk now, inside the lock. */
export async function mutateTable<T>(
  paths: VaultPaths,
  options: VaultStoreOptions,
  change: (table: VaultTable) => Mutation<T> | Promise<Mutation<T>>,
): Promise<T> {
  await ensureVaultDir(paths);
  return withVaultLock(paths.dir, options.lock ?? {}, async (held) => {
    await removeStaleTemps(paths.dir, ["vault.enc", "vault.key"]);
    const snapshot = await readSnapshot(paths);
    const { result, table } = await change(snapshot.table);
    if (table === undefined) return result;
    const key = snapshot.key ?? (await createKey(paths));
    await writeFileAtomic(paths.enc, encodeVault(table, key), {
      beforeRename: options.beforeCommit,
      assertStillOwner: () => held.assertHeld(),
    });
    return result;
  });
}

/**
 * The vault key, for another file it protects (a saved state). With `create`
 * (call it only holding the vault lock) a home without one gets one, as the
 * vault's first write would; never beside an existing vault.enc.
 */
export async function vaultKey(paths: VaultPaths, create: boolean): Promise<Buffer | null> {
  const key = await readOptional(paths.key);
  if (key !== null) {
    if (key.length !== VAULT_KEY_BYTES) throw new BwError("VAULT_CORRUPT", `${paths.key} is not ${VAULT_KEY_BYTES} bytes`);
    return key;
  }
  if ((await readOptional(paths.enc)) !== null) {
    throw keyMissing(paths);
  }
  return create ? createKey(paths) : null;
}

/** Saved states (any profile's) sealed with a key: a new key beside them would orphan them for good. */
function sealedStatesExist(paths: VaultPaths): boolean {
  const root = join(dirname(paths.dir), STATES_DIR_NAME);
  const list = (dir: string) => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  return list(root).some((profile) => list(join(root, profile)).some((file) => file.endsWith(STATE_FILE_SUFFIX)));
}

async function createKey(paths: VaultPaths): Promise<Buffer> {
  if (sealedStatesExist(paths)) {
    throw new BwError("VAULT_KEY_MISSING", `${paths.key} is missing but saved states under ${join(dirname(paths.dir), STATES_DIR_NAME)} were sealed with it; restore the key, or remove those states (betterwright state rm). No new key was created.`);
  }
  const key = randomBytes(VAULT_KEY_BYTES);
  if (await createFileExclusive(paths.key, key)) return key;
  // Only reachable if something outside the lock created it meanwhile: use theirs, never replace it.
  const existing = await readVaultFile(paths.key);
  if (existing.length !== VAULT_KEY_BYTES) throw new BwError("VAULT_CORRUPT", `${paths.key} is not ${VAULT_KEY_BYTES} bytes`);
  return existing;
}
