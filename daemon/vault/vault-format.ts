// The bytes of vault.enc and the record table inside. Pure: key and bytes in,
// table out. Invariant: anything that does not authenticate and validate in
// full is VAULT_CORRUPT; nothing is ever half-read.
//
// Layout: MAGIC (7) | FORMAT_VERSION (1) | keyId (8) | iv (12) | ciphertext | tag (16)
// The first 16 bytes are the GCM associated data, so the version and key id
// cannot be altered without failing authentication.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { BwError } from "../../shared/errors.js";

export const VAULT_MAGIC = Buffer.from("BWVAULT", "ascii");
export const VAULT_FORMAT_VERSION = 1;
export const VAULT_KEY_BYTES = 32;
const KEY_ID_BYTES = 8;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = VAULT_MAGIC.length + 1 + KEY_ID_BYTES;
const MIN_FILE_BYTES = HEADER_BYTES + IV_BYTES + 1 + TAG_BYTES;

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

/** Identifies a key without revealing it, so a mismatched key/enc pair gets its own message. */
function keyId(key: Buffer): Buffer {
  return createHash("sha256").update("betterwright vault key id\0").update(key).digest().subarray(0, KEY_ID_BYTES);
}

function header(key: Buffer): Buffer {
  return Buffer.concat([VAULT_MAGIC, Buffer.from([VAULT_FORMAT_VERSION]), keyId(key)]);
}

function checkKey(key: Buffer): void {
  if (key.length !== VAULT_KEY_BYTES) {
    throw new BwError("VAULT_CORRUPT", `vault.key must hold exactly ${VAULT_KEY_BYTES} bytes; it holds ${key.length}`);
  }
}

/** Encrypts the table under a fresh random IV. */
export function encodeVault(table: VaultTable, key: Buffer): Buffer {
  checkKey(key);
  const aad = header(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const plain = Buffer.from(JSON.stringify({ format: VAULT_FORMAT_VERSION, entries: table.entries }), "utf8");
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  plain.fill(0);
  return Buffer.concat([aad, iv, body, cipher.getAuthTag()]);
}

export function decodeVault(bytes: Buffer, key: Buffer): VaultTable {
  checkKey(key);
  if (bytes.length < MIN_FILE_BYTES || !bytes.subarray(0, VAULT_MAGIC.length).equals(VAULT_MAGIC)) {
    throw corrupt("it is truncated or not a betterwright vault");
  }
  const version = bytes[VAULT_MAGIC.length];
  if (version !== VAULT_FORMAT_VERSION) throw corrupt(`format version ${version} is not one this betterwright reads`);
  const aad = bytes.subarray(0, HEADER_BYTES);
  if (!aad.subarray(VAULT_MAGIC.length + 1).equals(keyId(key))) throw corrupt("vault.key is not the key it was written with");
  const iv = bytes.subarray(HEADER_BYTES, HEADER_BYTES + IV_BYTES);
  const body = bytes.subarray(HEADER_BYTES + IV_BYTES, bytes.length - TAG_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  let plain: Buffer;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    plain = Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw corrupt("it failed authentication (tampered with or truncated)");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(plain.toString("utf8"));
  } catch {
    throw corrupt("its record table is not JSON");
  } finally {
    plain.fill(0);
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
