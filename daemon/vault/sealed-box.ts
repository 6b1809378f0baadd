// AES-256-GCM under the vault key, for every file the key protects (vault.enc,
// saved browser states). Pure: key and bytes in, bytes out. Invariant: what
// does not authenticate in full is never returned, not even in part.
//
// Layout: MAGIC (7) | FORMAT_VERSION (1) | keyId (8) | iv (12) | ciphertext | tag (16)
// The first 16 bytes and the caller's `context` (not stored: a name, say) are
// the GCM associated data, so neither the version and key id nor the file's
// place can be altered without failing authentication.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

export const VAULT_KEY_BYTES = 32;
const MAGIC_BYTES = 7;
const KEY_ID_BYTES = 8;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC_BYTES + 1 + KEY_ID_BYTES;
/** What sealing adds to the plain bytes. */
export const SEAL_OVERHEAD_BYTES = HEADER_BYTES + IV_BYTES + TAG_BYTES;

export interface BoxFormat {
  /** Seven ASCII bytes naming the kind of file. */
  magic: Buffer;
  version: number;
  /** What a stranger file is not, in messages: "a betterwright vault". */
  noun: string;
}

/** Identifies a key without revealing it, so a mismatched key/file pair gets its own message. */
function keyId(key: Buffer): Buffer {
  return createHash("sha256").update("betterwright vault key id\0").update(key).digest().subarray(0, KEY_ID_BYTES);
}

function header(format: BoxFormat, key: Buffer): Buffer {
  if (format.magic.length !== MAGIC_BYTES) throw new Error(`a box's magic is ${MAGIC_BYTES} bytes`);
  return Buffer.concat([format.magic, Buffer.from([format.version]), keyId(key)]);
}

/** Why a key cannot be used, or undefined. */
export function keyProblem(key: Buffer): string | undefined {
  return key.length === VAULT_KEY_BYTES ? undefined : `vault.key must hold exactly ${VAULT_KEY_BYTES} bytes; it holds ${key.length}`;
}

/** Encrypts `plain` under a fresh random IV. */
export function seal(format: BoxFormat, key: Buffer, plain: Buffer, context: Buffer = Buffer.alloc(0)): Buffer {
  const head = header(format, key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.concat([head, context]));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([head, iv, body, cipher.getAuthTag()]);
}

/** The plain bytes, or why there are none (the caller turns that into its own VAULT_CORRUPT). */
export function unseal(format: BoxFormat, key: Buffer, bytes: Buffer, context: Buffer = Buffer.alloc(0)): { plain: Buffer } | { problem: string } {
  if (bytes.length < SEAL_OVERHEAD_BYTES + 1 || !bytes.subarray(0, MAGIC_BYTES).equals(format.magic)) {
    return { problem: `it is truncated or not ${format.noun}` };
  }
  const version = bytes[MAGIC_BYTES];
  if (version !== format.version) return { problem: `format version ${version} is not one this betterwright reads` };
  const head = bytes.subarray(0, HEADER_BYTES);
  if (!head.subarray(MAGIC_BYTES + 1).equals(keyId(key))) return { problem: "vault.key is not the key it was written with" };
  const iv = bytes.subarray(HEADER_BYTES, HEADER_BYTES + IV_BYTES);
  const body = bytes.subarray(HEADER_BYTES + IV_BYTES, bytes.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.concat([head, context]));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return { plain: Buffer.concat([decipher.update(body), decipher.final()]) };
  } catch {
    return { problem: "it failed authentication (tampered with, truncated, or moved from another name)" };
  }
}
