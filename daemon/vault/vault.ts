// The vault core the daemon's vault service calls: entries, provisional
// (generated) entries and the audit trail, over the files in vault-files.ts.
// Invariants: metadata calls never return a password; every call that hands a
// password out is audited first; worker-reachable calls (secretForFill, commit,
// discard) can be scoped to the page's site and discard only ever deletes a
// provisional entry.
import { BwError, toBwError } from "../../shared/protocol/errors.js";
import { appendAudit, readAudit, MAX_AUDIT_LIMIT, DEFAULT_AUDIT_LIMIT, type AuditAction, type AuditRecord } from "./audit-log.js";
import { generatePassword, DEFAULT_PASSWORD_LENGTH } from "./password.js";
import { normalizeSite, parseSite, siteMatchScore, siteMatches, type Site } from "./site-match.js";
import type { VaultEntry, VaultTable } from "./vault-format.js";
import { ensureVaultDir, mutateTable, readTable, vaultPaths, type VaultStoreOptions } from "./vault-files.js";
import type { EntryMetadata, OpenVaultOptions, Vault } from "./vault-types.js";
import { checkId, checkLabel, checkObject, checkPassword, checkUsername, isValidId, newEntryId } from "./vault-input.js";

function toMetadata(entry: VaultEntry): EntryMetadata {
  const meta: EntryMetadata = {
    id: entry.id,
    site: entry.site,
    username: entry.username,
    provisional: entry.provisional === true,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  };
  if (entry.label !== undefined) meta.label = entry.label;
  return meta;
}

function notFound(id: string): BwError {
  return new BwError("VAULT_NOT_FOUND", `no vault entry ${id} here`);
}

/** Entries with the same site and username are one login; the owner edits it rather than adding a second. */
function assertNoDuplicate(entries: readonly VaultEntry[], site: string, username: string, exceptId?: string): void {
  const clash = entries.find((e) => e.id !== exceptId && !e.provisional && e.site === site && e.username === username);
  if (clash !== undefined) {
    throw new BwError("INVALID_ARGUMENT", `an entry for this site and username already exists (${clash.id}); update it instead`, {
      details: { id: clash.id },
    });
  }
}

function byId(table: VaultTable, id: string): VaultEntry {
  const entry = table.entries.find((e) => e.id === id);
  if (entry === undefined) throw notFound(id);
  return entry;
}

/** Scoping failures look exactly like a missing id, so a page cannot probe other sites' ids. */
function assertOnSite(entry: VaultEntry, id: string, page: Site | undefined): void {
  if (page !== undefined && !siteMatches(entry.site, page)) throw notFound(id);
}

function optionalSite(input: string | undefined): Site | undefined {
  return input === undefined ? undefined : parseSite(input);
}

/** Touches nothing on disk until the first call. */
export function openVault(options: OpenVaultOptions): Vault {
  const paths = vaultPaths(options.home);
  const clock = options.now ?? Date.now;
  const nowIso = (): string => new Date(clock()).toISOString();
  const store: VaultStoreOptions = { lock: options.lock, beforeCommit: options.beforeCommit };
  const handled = (secret: string): void => options.onSecret?.(secret);

  /** Runs `op`, then records it; a failed op is recorded with its code and rethrown. */
  async function audited<T>(action: AuditAction, id: string | undefined, op: (note: { id?: string; site?: string }) => Promise<T>): Promise<T> {
    const note: { id?: string; site?: string } = {};
    if (isValidId(id)) note.id = id;
    const record = async (ok: boolean, code?: AuditRecord["code"]): Promise<void> => {
      await ensureVaultDir(paths);
      await appendAudit(paths.audit, { at: nowIso(), action, id: note.id, site: note.site, ok, code });
    };
    let result: T;
    try {
      result = await op(note);
    } catch (error) {
      await record(false, toBwError(error).code).catch(() => undefined);
      throw error;
    }
    await record(true);
    return result;
  }

  return {
    paths,

    async list(listOptions = {}) {
      const page = listOptions.site === undefined ? undefined : parseSite(listOptions.site);
      const { entries } = await readTable(paths);
      const candidates = entries
        .filter((e) => listOptions.includeProvisional !== false || !e.provisional)
        .map((e) => ({ e, score: page === undefined ? 1 : siteMatchScore(e.site, page) }))
        .filter(({ score }) => score > 0);
      candidates.sort(
        (a, b) => b.score - a.score || b.e.updatedAt.localeCompare(a.e.updatedAt) || a.e.site.localeCompare(b.e.site) || a.e.username.localeCompare(b.e.username),
      );
      return candidates.map(({ e }) => toMetadata(e));
    },

    add(input) {
      return audited("add", undefined, async (note) => {
        const fields = checkObject("entry", input);
        const site = normalizeSite(String(fields.site ?? ""));
        note.site = site;
        const username = checkUsername(fields.username);
        const password = checkPassword(fields.password);
        const label = checkLabel(fields.label);
        handled(password);
        return mutateTable(paths, store, (table) => {
          assertNoDuplicate(table.entries, site, username);
          const at = nowIso();
          const entry: VaultEntry = { id: newEntryId(), site, username, password, createdAt: at, updatedAt: at };
          if (label !== undefined) entry.label = label;
          note.id = entry.id;
          return { result: toMetadata(entry), table: { entries: [...table.entries, entry] } };
        });
      });
    },

    update(id, patch) {
      return audited("update", id, async (note) => {
        checkId(id);
        const fields = checkObject("patch", patch);
        const site = fields.site === undefined ? undefined : normalizeSite(String(fields.site));
        const username = fields.username === undefined ? undefined : checkUsername(fields.username);
        const password = fields.password === undefined ? undefined : checkPassword(fields.password);
        const label = fields.label === undefined ? undefined : (checkLabel(fields.label) ?? null);
        if (password !== undefined) handled(password);
        return mutateTable(paths, store, (table) => {
          const current = byId(table, id);
          const next: VaultEntry = { ...current, updatedAt: nowIso() };
          if (site !== undefined) next.site = site;
          if (username !== undefined) next.username = username;
          if (password !== undefined) next.password = password;
          if (label === null) delete next.label;
          else if (label !== undefined) next.label = label;
          note.site = next.site;
          if (!next.provisional) assertNoDuplicate(table.entries, next.site, next.username, id);
          return { result: toMetadata(next), table: { entries: table.entries.map((e) => (e.id === id ? next : e)) } };
        });
      });
    },

    remove(id) {
      return audited("remove", id, async (note) => {
        checkId(id);
        return mutateTable(paths, store, (table) => {
          const entry = byId(table, id);
          note.site = entry.site;
          return { result: toMetadata(entry), table: { entries: table.entries.filter((e) => e.id !== id) } };
        });
      });
    },

    show(id) {
      return audited("show", id, async (note) => {
        checkId(id);
        const entry = byId(await readTable(paths), id);
        note.site = entry.site;
        handled(entry.password);
        return { ...toMetadata(entry), password: entry.password };
      });
    },

    secretForFill(id, pageUrl) {
      return audited("fill", id, async (note) => {
        checkId(id);
        const page = parseSite(pageUrl);
        const entry = byId(await readTable(paths), id);
        assertOnSite(entry, id, page);
        note.site = entry.site;
        handled(entry.password);
        return { id: entry.id, site: entry.site, username: entry.username, provisional: entry.provisional === true, password: entry.password };
      });
    },

    generate(input) {
      return audited("generate", undefined, async (note) => {
        const fields = checkObject("input", input);
        const site = normalizeSite(String(fields.site ?? ""));
        note.site = site;
        const username = fields.username === undefined ? "" : checkUsername(fields.username);
        const label = checkLabel(fields.label);
        const password = generatePassword(fields.length === undefined ? DEFAULT_PASSWORD_LENGTH : (fields.length as number));
        handled(password);
        return mutateTable(paths, store, (table) => {
          const at = nowIso();
          const entry: VaultEntry = { id: newEntryId(), site, username, password, createdAt: at, updatedAt: at, provisional: true };
          if (label !== undefined) entry.label = label;
          note.id = entry.id;
          return { result: toMetadata(entry), table: { entries: [...table.entries, entry] } };
        });
      });
    },

    commit(id, commitOptions = {}) {
      return audited("commit", id, async (note) => {
        checkId(id);
        const username = commitOptions.username === undefined ? undefined : checkUsername(commitOptions.username);
        const page = optionalSite(commitOptions.site);
        return mutateTable(paths, store, (table) => {
          const entry = byId(table, id);
          assertOnSite(entry, id, page);
          note.site = entry.site;
          // Already committed: a repeat (say after a restart) changes nothing.
          if (!entry.provisional) return { result: toMetadata(entry) };
          // A committed entry may share site and username with an older one: commit never deletes
          // a password, so a wrongly committed generation cannot destroy the working login.
          const next: VaultEntry = { ...entry, updatedAt: nowIso() };
          delete next.provisional;
          if (username !== undefined) next.username = username;
          return { result: toMetadata(next), table: { entries: table.entries.map((e) => (e.id === id ? next : e)) } };
        });
      });
    },

    discard(id, discardOptions = {}) {
      return audited("discard", id, async (note) => {
        checkId(id);
        const page = optionalSite(discardOptions.site);
        await mutateTable(paths, store, (table) => {
          const entry = byId(table, id);
          if (!entry.provisional) throw notFound(id);
          assertOnSite(entry, id, page);
          note.site = entry.site;
          return { result: undefined, table: { entries: table.entries.filter((e) => e.id !== id) } };
        });
      });
    },

    async audit(auditOptions = {}) {
      const limit = auditOptions.limit ?? DEFAULT_AUDIT_LIMIT;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_AUDIT_LIMIT) {
        throw new BwError("INVALID_ARGUMENT", `limit must be an integer from 1 to ${MAX_AUDIT_LIMIT}`);
      }
      return readAudit(paths.audit, limit);
    },
  };
}

export type { AddInput, EntryMetadata, EntryWithSecret, FillSecret, GenerateInput, OpenVaultOptions, UpdatePatch, Vault } from "./vault-types.js";
