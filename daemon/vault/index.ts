// The vault's public surface for the daemon: the store, site matching and the redactor.
export { openVault } from "./vault.js";
export type { AddInput, EntryMetadata, EntryWithSecret, FillSecret, GenerateInput, OpenVaultOptions, UpdatePatch, Vault } from "./vault-types.js";
export { vaultPaths, type VaultPaths, type VaultStoreOptions } from "./vault-files.js";
export { DEFAULT_LOCK_STALE_MS, DEFAULT_LOCK_WAIT_MS, type VaultLockOptions } from "./vault-lock.js";
export { AUDIT_ACTIONS, type AuditAction, type AuditRecord } from "./audit-log.js";
export { generatePassword, DEFAULT_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH } from "./password.js";
export { formatSite, normalizeSite, parseSite, siteMatchScore, siteMatches, tryParseSite, type Site, type SiteKind, type SiteScheme } from "./site-match.js";
export { REDACTED, Redactor, redactWith, DEFAULT_MAX_SECRETS, type RedactorOptions } from "./redactor.js";
export { secretPattern } from "./secret-spellings.js";
