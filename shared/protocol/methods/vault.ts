// The vault's methods. Owner methods (add, update, remove, list, show, audit)
// are served on the client socket only; the worker's pipe serves only the
// fill-side set below, and the one secret it returns (vault.fill) goes to the
// worker that types it, never to the snippet.
import { BwError } from "../errors.js";
import { bool, custom, num, obj, optional, str } from "../validate.js";
import { declare } from "./declare.js";

export const VAULT_LIMITS = {
  usernameChars: 512,
  passwordChars: 4096,
  labelChars: 256,
  siteChars: 2048,
  /** Page URLs can be long (query strings); only the origin matters. */
  pageUrlChars: 16_384,
  idPattern: /^[A-Za-z0-9_-]{1,64}$/,
  maxAuditLimit: 10_000,
  minGeneratedLength: 12,
  maxGeneratedLength: 128,
} as const;

/** The vault's files inside <home>/vault, shared by every profile. */
export const VAULT_FILE_NAMES = {
  key: "vault.key",
  enc: "vault.enc",
  audit: "audit.jsonl",
  lock: "vault.lock",
} as const;

export interface VaultEntryInfo {
  id: string;
  /** Canonical `scheme://host[:port]`. */
  site: string;
  username: string;
  label?: string;
  /** Generated and not yet committed. */
  provisional: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface VaultEntrySecret extends VaultEntryInfo {
  password: string;
}

export type VaultAuditAction = "add" | "update" | "remove" | "show" | "fill" | "generate" | "commit" | "discard";

export interface VaultAuditRecord {
  at: string;
  action: VaultAuditAction;
  id?: string;
  site?: string;
  ok: boolean;
  code?: string;
}

/** What vault.fill hands the worker: enough to type a login, nothing more. */
export interface VaultFillSecret {
  id: string;
  site: string;
  username: string;
  provisional: boolean;
  password: string;
}

const idParam = str({ pattern: VAULT_LIMITS.idPattern });
const siteParam = str({ min: 1, max: VAULT_LIMITS.siteChars });
const usernameParam = str({ max: VAULT_LIMITS.usernameChars });
const passwordParam = str({ min: 1, max: VAULT_LIMITS.passwordChars });
const labelParam = str({ max: VAULT_LIMITS.labelChars });
const pageUrlParam = str({ max: VAULT_LIMITS.pageUrlChars });
/** null removes the label; undefined leaves it. */
const labelPatch = custom((value, path): string | null | undefined => {
  if (value === undefined || value === null) return value as null | undefined;
  if (typeof value !== "string") throw new BwError("INVALID_ARGUMENT", `${path}: expected a string or null`);
  return labelParam(value, path);
});

// Owner methods: client socket only.
export const VaultAdd = declare<VaultEntryInfo>()("vault.add", obj({
  site: siteParam,
  username: usernameParam,
  password: passwordParam,
  label: optional(labelParam),
}));
export const VaultUpdate = declare<VaultEntryInfo>()("vault.update", obj({
  id: idParam,
  site: optional(siteParam),
  username: optional(usernameParam),
  password: optional(passwordParam),
  label: labelPatch,
}));
export const VaultRemove = declare<VaultEntryInfo>()("vault.remove", obj({ id: idParam }));
export const VaultList = declare<{ entries: VaultEntryInfo[] }>()("vault.list", optional(obj({
  /** Only entries that may be offered on this URL or host, best match first. */
  site: optional(siteParam),
  includeProvisional: optional(bool()),
})));
export const VaultShow = declare<VaultEntrySecret>()("vault.show", obj({ id: idParam }));
export const VaultAudit = declare<{ records: VaultAuditRecord[] }>()("vault.audit", optional(obj({
  limit: optional(num({ integer: true, min: 1, max: VAULT_LIMITS.maxAuditLimit })),
})));

// Worker methods: the worker's pipe only. `pageUrl` is the active page's URL;
// the daemon decides from it which entries the page may see or receive.
export const VaultListForSite = declare<{ entries: VaultEntryInfo[] }>()("vault.listForSite", obj({ pageUrl: pageUrlParam }));
export const VaultFill = declare<VaultFillSecret>()("vault.fill", obj({
  pageUrl: pageUrlParam,
  id: optional(idParam),
  username: optional(usernameParam),
}));
export const VaultGenerate = declare<VaultEntryInfo>()("vault.generate", obj({
  pageUrl: pageUrlParam,
  username: optional(usernameParam),
  label: optional(labelParam),
  length: optional(num({ integer: true, min: VAULT_LIMITS.minGeneratedLength, max: VAULT_LIMITS.maxGeneratedLength })),
}));
export const VaultCommit = declare<VaultEntryInfo>()("vault.commit", obj({ id: idParam, username: optional(usernameParam) }));
export const VaultDiscard = declare<{ discarded: true }>()("vault.discard", obj({ id: idParam }));
