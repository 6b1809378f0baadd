// The vault's public shapes: what the daemon's vault service and its callers see.
import type { VaultEntryInfo, VaultEntrySecret, VaultFillSecret } from "../../shared/protocol/methods/vault.js";
import type { AuditRecord } from "./audit-log.js";
import type { VaultPaths, VaultStoreOptions } from "./vault-files.js";

export interface OpenVaultOptions extends VaultStoreOptions {
  /** The betterwright home; the vault lives in <home>/vault. */
  home: string;
  /** Epoch milliseconds; injected so tests control timestamps. */
  now?: () => number;
  /** Told every password the vault hands out or takes in, before it leaves or is stored (feed the redactor). */
  onSecret?: (secret: string) => void;
}

/** The wire shapes are the vault's own: one declaration in shared/protocol/methods/vault.ts. */
export type EntryMetadata = VaultEntryInfo;
export type EntryWithSecret = VaultEntrySecret;
export type FillSecret = VaultFillSecret;

export interface AddInput {
  site: string;
  username: string;
  password: string;
  label?: string;
}

export interface UpdatePatch {
  site?: string;
  username?: string;
  password?: string;
  /** null or "" removes the label. */
  label?: string | null;
}

export interface GenerateInput {
  site: string;
  username?: string;
  label?: string;
  length?: number;
}

export interface Vault {
  readonly paths: VaultPaths;
  /** Metadata only. With `site` (a URL or host), only entries that may be offered there, best match first. */
  list(options?: { site?: string; includeProvisional?: boolean }): Promise<EntryMetadata[]>;
  add(input: AddInput): Promise<EntryMetadata>;
  update(id: string, patch: UpdatePatch): Promise<EntryMetadata>;
  remove(id: string): Promise<EntryMetadata>;
  /** Owner only: the entry with its password. Audited. */
  show(id: string): Promise<EntryWithSecret>;
  /** For the fill service: the secret, only if the entry may be offered on `pageUrl`. Audited. */
  secretForFill(id: string, pageUrl: string): Promise<FillSecret>;
  /** Stores a strong password as a provisional entry; returns metadata only. */
  generate(input: GenerateInput): Promise<EntryMetadata>;
  /** Makes a provisional entry permanent (idempotent). `site` scopes it to a page; `username` sets the provisional entry's username. */
  commit(id: string, options?: { site?: string; username?: string }): Promise<EntryMetadata>;
  /** Deletes a provisional entry; a committed entry is VAULT_NOT_FOUND here. */
  discard(id: string, options?: { site?: string }): Promise<void>;
  /** The newest `limit` audit records, oldest first. */
  audit(options?: { limit?: number }): Promise<AuditRecord[]>;
}
