// The bytes of vault.enc and the record table inside. Pure: key and bytes in,
// table out. Invariant: anything that does not authenticate and validate in
// full is VAULT_CORRUPT; nothing is ever half-read. The encryption and the
// file's layout are sealed-box.ts's (magic "BWVAULT").
import { BwError } from "../../shared/protocol/errors.js";
import { keyProblem, seal, unseal, type BoxFormat } from "./sealed-box.js";

export { VAULT_KEY_BYTES } from "./sealed-box.js";
export const VAULT_MAGIC = Buffer.from("BWVAULT", "ascii");
export const VAULT_FORMAT_VERSION = 1;
const FORMAT: BoxFormat = { magic: VAULT_MAGIC, version: VAULT_FORMAT_VERSION, noun: "a betterwright vault" };

export interface VaultEntry {
  id: string;
  /** Canonical site (see site-match.ts formatSite). */
  site: string;
  username: string;
  password: string;
  label?: string;
  createdAt: string;
  updatedAt: string;
  /** Generated and not yet committed. */
  provisional?: boolean;
}

export interface VaultTable {
  entries: VaultEntry[];
}

function checkKey(key: Buffer): void {
  const problem = keyProblem(key);
  if (problem !== undefined) throw new BwError("VAULT_CORRUPT", problem);
}

/** Encrypts the table under a fresh random IV. */
export function encodeVault(table: VaultTable, key: Buffer): Buffer {
  checkKey(key);
  const plain = Buffer.from(JSON.stringify({ format: VAULT_FORMAT_VERSION, entries: table.entries }), "utf8");
  try {
    return seal(FORMAT, key, plain);
  } finally {
    plain.fill(0);
  }
}

export function decodeVault(bytes: Buffer, key: Buffer): VaultTable {
  checkKey(key);
  const opened = unseal(FORMAT, key, bytes);
  if ("problem" in opened) throw corrupt(opened.problem);
  let parsed: unknown;
  try {
    parsed = JSON.parse(opened.plain.toString("utf8"));
  } catch {
    throw corrupt("its record table is not JSON");
  } finally {
    opened.plain.fill(0);
  }
  return validateTable(parsed);
}

function corrupt(why: string): BwError {
  return new BwError("VAULT_CORRUPT", `vault.enc cannot be read: ${why}; it has been left untouched`);
}

function validateTable(value: unknown): VaultTable {
  if (!isRecord(value) || value.format !== VAULT_FORMAT_VERSION || !Array.isArray(value.entries)) {
    throw corrupt("its record table has an unexpected shape");
  }
  const ids = new Set<string>();
  const entries = value.entries.map((raw: unknown, index: number) => {
    const entry = validateEntry(raw);
    if (entry === null || ids.has(entry.id)) throw corrupt(`record ${index} is malformed`);
    ids.add(entry.id);
    return entry;
  });
  return { entries };
}

function validateEntry(raw: unknown): VaultEntry | null {
  if (!isRecord(raw)) return null;
  const { id, site, username, password, label, createdAt, updatedAt, provisional } = raw;
  const strings = [id, site, username, password, createdAt, updatedAt];
  if (!strings.every((s) => typeof s === "string")) return null;
  if (label !== undefined && typeof label !== "string") return null;
  if (provisional !== undefined && typeof provisional !== "boolean") return null;
  const entry: VaultEntry = {
    id: id as string,
    site: site as string,
    username: username as string,
    password: password as string,
    createdAt: createdAt as string,
    updatedAt: updatedAt as string,
  };
  if (label !== undefined) entry.label = label;
  if (provisional === true) entry.provisional = true;
  return entry;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
