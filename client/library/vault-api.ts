// The owner's vault operations for library clients (`bw.vault`), served by the
// profile's daemon over the socket without starting a browser. Snippets never
// reach these: they run in the worker, whose pipe carries only the fill side.
import { BwError } from "../../shared/protocol/errors.js";
import {
  VaultAdd,
  VaultAudit,
  VaultList,
  VaultRemove,
  VaultShow,
  VaultUpdate,
  type MethodDecl,
  type VaultAuditRecord,
  type VaultEntryInfo,
  type VaultEntrySecret,
} from "../../shared/protocol/methods/index.js";

export interface VaultAddInput {
  /** A URL or host; only scheme, host and port are kept. A bare host means https. */
  site: string;
  username: string;
  password: string;
  label?: string;
}

export interface VaultUpdateInput {
  site?: string;
  username?: string;
  password?: string;
  /** null removes the label. */
  label?: string | null;
}

export interface VaultApi {
  /** Metadata only; with `site`, the entries that may be offered there, best match first. */
  list(options?: { site?: string; includeProvisional?: boolean }): Promise<VaultEntryInfo[]>;
  add(input: VaultAddInput): Promise<VaultEntryInfo>;
  update(id: string, patch: VaultUpdateInput): Promise<VaultEntryInfo>;
  remove(id: string): Promise<VaultEntryInfo>;
  /** The entry with its password; recorded in the audit log. */
  show(id: string): Promise<VaultEntrySecret>;
  /** The newest `limit` audit records (metadata only), oldest first. */
  audit(options?: { limit?: number }): Promise<VaultAuditRecord[]>;
}

export type Caller = <P, R>(decl: MethodDecl<P, R>, params: P) => Promise<R>;

function needId(id: unknown): string {
  if (typeof id !== "string" || id === "") throw new BwError("INVALID_ARGUMENT", "id must be a vault entry id");
  return id;
}

export function vaultApi(call: Caller): VaultApi {
  return {
    async list(options = {}) {
      return (await call(VaultList, options)).entries;
    },
    add: (input) => call(VaultAdd, input),
    update: (id, patch) => call(VaultUpdate, { ...patch, id: needId(id) }),
    remove: (id) => call(VaultRemove, { id: needId(id) }),
    show: (id) => call(VaultShow, { id: needId(id) }),
    async audit(options = {}) {
      return (await call(VaultAudit, options)).records;
    },
  };
}
