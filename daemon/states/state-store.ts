// Saved browser states: states/<profile>/<name>.state, each a storage state
// (cookies, local storage, IndexedDB: logins) sealed with the vault key, its
// profile and name authenticated with it. Written atomically under the vault's
// lock, where the caps are counted; read without it (writes are renames). A
// file that does not authenticate is VAULT_CORRUPT and never half-loaded. The
// plain state exists in the daemon only between the worker's pipe and the
// cipher; no message here quotes it.
import { readdir, rm } from "node:fs/promises";
import { lstatSync } from "node:fs";
import path from "node:path";
import type { StateSettings } from "../../shared/config.js";
import { BwError } from "../../shared/errors.js";
import { nameProblem, validateName } from "../../shared/names.js";
import { STATE_FILE_SUFFIX, STATES_DIR_NAME, type StateInfo, type StateListing } from "../../shared/protocol/index.js";
import { ensurePrivateDir } from "../../shared/secure-fs.js";
import { parseStorageState } from "../../shared/storage-state.js";
import { removeStaleTemps, writeFileAtomic } from "../vault/atomic-file.js";
import { seal, unseal, type BoxFormat } from "../vault/sealed-box.js";
import { ensureVaultDir, readVaultFile, vaultKey, vaultPaths, type VaultPaths } from "../vault/vault-files.js";
import { withVaultLock, type VaultLockOptions } from "../vault/vault-lock.js";

const FORMAT: BoxFormat = { magic: Buffer.from("BWSTATE", "ascii"), version: 1, noun: "a betterwright saved state" };

export interface StateStoreOptions {
  home: string;
  profile: string;
  caps: StateSettings;
  lock?: VaultLockOptions;
}

/** Where a cap is raised: its config.json key and its environment variable. */
const RAISE: Record<keyof StateSettings, string> = {
  maxStates: "maxSavedStates (config.json) or BETTERWRIGHT_MAX_SAVED_STATES",
  maxStateBytes: "savedStateMaxBytes (config.json) or BETTERWRIGHT_SAVED_STATE_MAX_BYTES",
  maxTotalStateBytes: "savedStatesMaxTotalBytes (config.json) or BETTERWRIGHT_SAVED_STATES_MAX_TOTAL_BYTES",
};

function overCap(cap: keyof StateSettings, value: number, what: string): BwError {
  return new BwError("LIMIT_EXCEEDED", `${what}; remove saved states (betterwright state rm NAME) or raise ${RAISE[cap]}`, { details: { limit: cap, value } });
}

export class StateStore {
  readonly dir: string;
  private readonly vault: VaultPaths;

  constructor(private readonly options: StateStoreOptions) {
    this.dir = path.join(options.home, STATES_DIR_NAME, options.profile);
    this.vault = vaultPaths(options.home);
  }

  private fileOf(name: string): string {
    return path.join(this.dir, `${validateName(name, "state")}${STATE_FILE_SUFFIX}`);
  }

  /** Authenticated with the sealed bytes: a file renamed or moved to another profile fails to open. */
  private context(name: string): Buffer {
    return Buffer.from(`betterwright state\0${this.options.profile}\0${name}`, "utf8");
  }

  private notFound(name: string): BwError {
    return new BwError("STATE_NOT_FOUND", `no saved state ${JSON.stringify(name)} in profile ${this.options.profile} (betterwright state list shows them)`);
  }

  /** Names, sizes and times only: nothing is decrypted. */
  async list(): Promise<StateListing> {
    let files: string[] = [];
    try {
      files = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const states: StateInfo[] = [];
    for (const file of files.sort()) {
      if (!file.endsWith(STATE_FILE_SUFFIX)) continue;
      const name = file.slice(0, -STATE_FILE_SUFFIX.length);
      if (nameProblem(name, "state") !== undefined) continue;
      const info = lstatSync(path.join(this.dir, file), { throwIfNoEntry: false });
      if (!info?.isFile()) continue;
      states.push({ name, bytes: info.size, savedAt: info.mtime.toISOString() });
    }
    return { profile: this.options.profile, dir: this.dir, states, totalBytes: states.reduce((sum, s) => sum + s.bytes, 0), caps: this.options.caps };
  }

  /** Seals `plain` (a storage state's JSON) as `name`, replacing a state of that name, within the caps. */
  async save(name: string, plain: Buffer): Promise<StateInfo> {
    const file = this.fileOf(name);
    const { caps } = this.options;
    await ensureVaultDir(this.vault);
    ensurePrivateDir(this.dir, this.options.home);
    return withVaultLock(this.vault.dir, this.options.lock ?? {}, async (held) => {
      await removeStaleTemps(this.dir, [path.basename(file)]);
      const key = (await vaultKey(this.vault, true))!;
      const sealed = seal(FORMAT, key, plain, this.context(name));
      const others = (await this.list()).states.filter((s) => s.name !== name);
      if (sealed.length > caps.maxStateBytes) throw overCap("maxStateBytes", caps.maxStateBytes, `the state is ${sealed.length} bytes, more than one saved state may hold (${caps.maxStateBytes})`);
      if (others.length + 1 > caps.maxStates) throw overCap("maxStates", caps.maxStates, `profile ${this.options.profile} already has ${others.length} saved states, its limit`);
      const total = others.reduce((sum, s) => sum + s.bytes, 0) + sealed.length;
      if (total > caps.maxTotalStateBytes) throw overCap("maxTotalStateBytes", caps.maxTotalStateBytes, `the profile's saved states would take ${total} bytes, more than their limit (${caps.maxTotalStateBytes})`);
      await writeFileAtomic(file, sealed, { assertStillOwner: () => held.assertHeld() });
      const info = lstatSync(file);
      return { name, bytes: info.size, savedAt: info.mtime.toISOString() };
    });
  }

  /** The state's JSON bytes, authenticated and shape-checked; the caller zeroes them once used. */
  async load(name: string): Promise<Buffer> {
    const file = this.fileOf(name);
    let bytes: Buffer;
    try {
      bytes = await readVaultFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw this.notFound(name);
      throw error;
    }
    const key = await vaultKey(this.vault, false);
    if (key === null) throw new BwError("VAULT_KEY_MISSING", `saved state ${name} was sealed with ${this.vault.key}, which is missing; restore it (states are only useful with their key)`);
    const opened = unseal(FORMAT, key, bytes, this.context(name));
    const corrupt = (why: string) => new BwError("VAULT_CORRUPT", `saved state ${name} (${file}) cannot be read: ${why}; it has been left untouched`);
    if ("problem" in opened) throw corrupt(opened.problem);
    try {
      parseStorageState(opened.plain, "VAULT_CORRUPT", `saved state ${name}`);
    } catch (error) {
      opened.plain.fill(0);
      throw error;
    }
    return opened.plain;
  }

  async remove(name: string): Promise<void> {
    const file = this.fileOf(name);
    await ensureVaultDir(this.vault);
    await withVaultLock(this.vault.dir, this.options.lock ?? {}, async () => {
      if (!lstatSync(file, { throwIfNoEntry: false })?.isFile()) throw this.notFound(name);
      await rm(file);
    });
  }
}
