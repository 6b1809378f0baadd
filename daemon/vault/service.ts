// The daemon's vault service: one vault for the home, shared by the owner's
// socket methods and the worker's fill-side methods, and the redactor every
// secret it handles is fed to. Invariants: a secret reaches the redactor
// before it leaves the vault; the worker gets a secret only for an entry that
// matches the page URL it reports; no method here starts the worker.
import { BwError } from "../../shared/protocol/errors.js";
import type { WorkerOutcome } from "../../shared/protocol/envelope.js";
import type { VaultAuditRecord, VaultEntryInfo, VaultFillSecret } from "../../shared/protocol/methods/vault.js";
import { filterLogLine, filterRunOutput, type FilteredOutput } from "./output-filter.js";
import { Redactor } from "./redactor.js";
import { formatSite, tryParseSite, type Site } from "./site-match.js";
import { openVault } from "./vault.js";
import type { AddInput, OpenVaultOptions, UpdatePatch, Vault } from "./vault-types.js";

export interface VaultServiceOptions extends Omit<OpenVaultOptions, "onSecret"> {
  /** Bound on distinct secrets the redactor tracks; past it all output is withheld. */
  maxSecrets?: number;
}

/** The page must be an http(s) site before anything is listed, filled or generated for it. */
function pageSite(pageUrl: string): Site {
  const site = tryParseSite(pageUrl);
  if (site === null) {
    throw new BwError("INVALID_ARGUMENT", "the active page is not an http(s) site; navigate to the login page first");
  }
  return site;
}

export class VaultService {
  readonly redactor: Redactor;
  readonly vault: Vault;

  constructor(options: VaultServiceOptions) {
    const { maxSecrets, ...vaultOptions } = options;
    this.redactor = new Redactor(maxSecrets === undefined ? {} : { maxSecrets });
    this.vault = openVault({ ...vaultOptions, onSecret: (secret) => this.redactor.add(secret) });
  }

  // Owner methods (client socket).

  add(input: AddInput): Promise<VaultEntryInfo> {
    return this.vault.add(input);
  }

  update(id: string, patch: UpdatePatch): Promise<VaultEntryInfo> {
    return this.vault.update(id, patch);
  }

  remove(id: string): Promise<VaultEntryInfo> {
    return this.vault.remove(id);
  }

  async list(options: { site?: string; includeProvisional?: boolean } = {}): Promise<VaultEntryInfo[]> {
    return this.vault.list(options);
  }

  show(id: string) {
    return this.vault.show(id);
  }

  async audit(limit?: number): Promise<VaultAuditRecord[]> {
    return this.vault.audit(limit === undefined ? {} : { limit });
  }

  // Worker methods (the worker's pipe): scoped to the page URL the worker reports.

  /** Entries that may be offered on the page, best match first; a page that is no site has none. */
  async listForSite(pageUrl: string): Promise<VaultEntryInfo[]> {
    if (tryParseSite(pageUrl) === null) return [];
    return this.vault.list({ site: pageUrl });
  }

  /**
   * The secret for one login on the page: the entry `id` names, or the only
   * committed entry for the site (with `username`, the one with that username).
   */
  async fill(pageUrl: string, selector: { id?: string; username?: string }): Promise<VaultFillSecret> {
    pageSite(pageUrl);
    let id = selector.id;
    if (id === undefined) {
      const candidates = (await this.vault.list({ site: pageUrl, includeProvisional: false }))
        .filter((e) => selector.username === undefined || e.username === selector.username);
      if (candidates.length === 0) {
        throw new BwError("VAULT_NOT_FOUND", selector.username === undefined
          ? "no saved login for this page's site"
          : "no saved login with that username for this page's site");
      }
      if (candidates.length > 1) {
        throw new BwError("INVALID_ARGUMENT", `${candidates.length} saved logins match this page; pass id or username (see credentials.list())`, {
          details: { ids: candidates.map((e) => e.id) },
        });
      }
      id = candidates[0]!.id;
    }
    const secret = await this.vault.secretForFill(id, pageUrl);
    if (selector.username !== undefined && secret.username !== selector.username) {
      throw new BwError("VAULT_NOT_FOUND", `no vault entry ${id} with that username here`);
    }
    return secret;
  }

  /** A provisional entry for the page's site (scheme, host and port; never the path). */
  async generate(pageUrl: string, input: { username?: string; label?: string; length?: number }): Promise<VaultEntryInfo> {
    const site = formatSite(pageSite(pageUrl));
    return this.vault.generate({ site, ...input });
  }

  /** By exact id: the id is the handle generate returned, and recovery after a restart needs no page. */
  commit(id: string, username?: string): Promise<VaultEntryInfo> {
    return this.vault.commit(id, username === undefined ? {} : { username });
  }

  discard(id: string): Promise<void> {
    return this.vault.discard(id);
  }

  // Output redaction.

  filterOutput = (outcome: WorkerOutcome, snippet: string): FilteredOutput => filterRunOutput(this.redactor, outcome, snippet);

  filterLogLine = (line: string): string => filterLogLine(this.redactor, line);
}
