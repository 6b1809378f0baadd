// Saved browser states: states/<profile>/<name>.state, each a storage state
// (cookies, local storage, IndexedDB: logins) sealed with the vault key, its
// profile and name authenticated with it. Written atomically under the vault's
// lock, where the caps are counted; read without it (writes are renames). A
// file that does not authenticate is VAULT_CORRUPT and never half-loaded. The
// plain state exists in the daemon only between the worker's pipe and the
// cipher; no message here quotes it. Isolated sessions' autosaved storage
// lives apart, in states/<profile>/.autosave/<session>.state (never listed,
// sealed for its session), each held to the one-state byte cap.
import { readdir, rm } from "node:fs/promises";
import { lstatSync } from "node:fs";
import path from "node:path";
import type { StateSettings } from "../../shared/config.js";
import { BwError } from "../../shared/protocol/errors.js";
import { nameProblem, validateName } from "../../shared/names.js";
import { STATE_FILE_SUFFIX, STATES_DIR_NAME, type StateInfo, type StateListing } from "../../shared/protocol/methods/index.js";
import { ensurePrivateDir } from "../../shared/secure-fs.js";
import { parseStorageState } from "../../shared/storage-state.js";
import { removeStaleTemps, writeFileAtomic } from "../vault/atomic-file.js";
import { seal, unseal, type BoxFormat } from "../vault/sealed-box.js";
import { ensureVaultDir, readVaultFile, vaultKey, vaultPaths, type VaultPaths } from "../vault/vault-files.js";
import { withVaultLock, type VaultLockOptions } from "../vault/vault-lock.js";

/** Inside states/<profile>/: a name no state can have (names start with a letter or digit). */
export const AUTOSAVE_DIR_NAME = ".autosave";

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

  /** An autosave is sealed for its session: it cannot pass for a user's state, nor for another session's. */
  private autosaveOf(session: string): { file: string; context: Buffer } {
    const file = path.join(this.dir, AUTOSAVE_DIR_NAME, `${validateName(session, "session")}${STATE_FILE_SUFFIX}`);
    return { file, context: Buffer.from(`betterwright autosave\0${this.options.profile}\0${session}`, "utf8") };
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
    await this.sealInto(file, this.context(name), plain, async (sealed) => {
      const others = (await this.list()).states.filter((s) => s.name !== name);
      if (sealed.length > caps.maxStateBytes) throw overCap("maxStateBytes", caps.maxStateBytes, `the state is ${sealed.length} bytes, more than one saved state may hold (${caps.maxStateBytes})`);
      if (others.length + 1 > caps.maxStates) throw overCap("maxStates", caps.maxStates, `profile ${this.options.profile} already has ${others.length} saved states, its limit`);
      const total = others.reduce((sum, s) => sum + s.bytes, 0) + sealed.length;
      if (total > caps.maxTotalStateBytes) throw overCap("maxTotalStateBytes", caps.maxTotalStateBytes, `the profile's saved states would take ${total} bytes, more than their limit (${caps.maxTotalStateBytes})`);
    });
    const info = lstatSync(file);
    return { name, bytes: info.size, savedAt: info.mtime.toISOString() };
  }

  /**
   * An isolated session's storage as its last run left it, replacing the one before. Held to the one-state
   * byte cap, not counted with the user's states: there is at most one per live isolated session.
   */
  async saveAutosave(session: string, plain: Buffer): Promise<void> {
    const { file, context } = this.autosaveOf(session);
    const cap = this.options.caps.maxStateBytes;
    await this.sealInto(file, context, plain, async (sealed) => {
      if (sealed.length > cap) throw overCap("maxStateBytes", cap, `session ${session}'s storage is ${sealed.length} bytes, more than one saved state may hold (${cap})`);
    });
  }

  /** Under the vault's lock (the key may be made now): seal, let `check` refuse, write atomically. */
  private async sealInto(file: string, context: Buffer, plain: Buffer, check: (sealed: Buffer) => Promise<void>): Promise<void> {
    await ensureVaultDir(this.vault);
    ensurePrivateDir(path.dirname(file), this.options.home);
    await withVaultLock(this.vault.dir, this.options.lock ?? {}, async (held) => {
      await removeStaleTemps(path.dirname(file), [path.basename(file)]);
      const key = (await vaultKey(this.vault, true))!;
      const sealed = seal(FORMAT, key, plain, context);
      await check(sealed);
      await writeFileAtomic(file, sealed, { assertStillOwner: () => held.assertHeld() });
    });
  }

  /** The state's JSON bytes, authenticated and shape-checked; the caller zeroes them once used. */
  async load(name: string): Promise<Buffer> {
    return this.open(this.fileOf(name), this.context(name), `saved state ${name}`, (): never => {
      throw this.notFound(name);
    });
  }

  /** A session's autosaved storage, or undefined when there is none; the caller zeroes it once used. */
  async loadAutosave(session: string): Promise<Buffer | undefined> {
    const { file, context } = this.autosaveOf(session);
    return this.open(file, context, `session ${session}'s autosaved storage`, () => undefined);
  }

  async removeAutosave(session: string): Promise<void> {
    await rm(this.autosaveOf(session).file, { force: true });
  }

  /** Every autosave of the profile (a clean stop: no session lives on). */
  async removeAutosaves(): Promise<void> {
    await rm(path.join(this.dir, AUTOSAVE_DIR_NAME), { recursive: true, force: true });
  }

  private async open<T>(file: string, context: Buffer, label: string, missing: () => T): Promise<Buffer | T> {
    let bytes: Buffer;
    try {
      bytes = await readVaultFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return missing();
      throw error;
    }
    const key = await vaultKey(this.vault, false);
    if (key === null) throw new BwError("VAULT_KEY_MISSING", `${label} was sealed with ${this.vault.key}, which is missing; restore it (states are only useful with their key)`);
    const opened = unseal(FORMAT, key, bytes, context);
    const corrupt = (why: string) => new BwError("VAULT_CORRUPT", `${label} (${file}) cannot be read: ${why}; it has been left untouched`);
    if ("problem" in opened) throw corrupt(opened.problem);
    try {
      parseStorageState(opened.plain, "VAULT_CORRUPT", label);
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
