// vault/audit.jsonl: one JSON line per credential action. Invariant: a record is
// built only from the fixed metadata fields below, so no username, password or
// label can ever be written to it.
import { appendFile, readFile } from "node:fs/promises";
import type { ErrorCode } from "../../shared/protocol/errors.js";
import { VAULT_LIMITS, type VaultAuditAction } from "../../shared/protocol/methods/vault.js";
import { APPEND_NOFOLLOW, linkRefusal, READ_NOFOLLOW } from "../../shared/secure-fs.js";
import { FILE_MODE } from "./atomic-file.js";

export const AUDIT_ACTIONS = ["add", "update", "remove", "show", "fill", "generate", "commit", "discard"] as const satisfies readonly VaultAuditAction[];
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditRecord {
  /** ISO-8601 time from the vault's injected clock. */
  at: string;
  action: AuditAction;
  id?: string;
  /** Canonical site of the entry concerned, when known. */
  site?: string;
  ok: boolean;
  /** The error code when ok is false. */
  code?: ErrorCode;
}

export const DEFAULT_AUDIT_LIMIT = 100;
export const MAX_AUDIT_LIMIT = VAULT_LIMITS.maxAuditLimit;

/** Picks only the allowed fields, whatever the caller passed. */
function toLine(record: AuditRecord): string {
  const clean: AuditRecord = { at: record.at, action: record.action, ok: record.ok };
  if (record.id !== undefined) clean.id = record.id;
  if (record.site !== undefined) clean.site = record.site;
  if (record.code !== undefined) clean.code = record.code;
  return `${JSON.stringify(clean)}\n`;
}

/** One append(2) of one short line: concurrent writers' lines do not interleave (O_APPEND). */
export async function appendAudit(path: string, record: AuditRecord): Promise<void> {
  try {
    await appendFile(path, toLine(record), { mode: FILE_MODE, flag: APPEND_NOFOLLOW });
  } catch (error) {
    throw linkRefusal(error, path);
  }
}

/** The newest `limit` records, oldest first; unparseable lines (a torn tail) are skipped. */
export async function readAudit(path: string, limit: number = DEFAULT_AUDIT_LIMIT): Promise<AuditRecord[]> {
  let text: string;
  try {
    text = await readFile(path, { encoding: "utf8", flag: READ_NOFOLLOW });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw linkRefusal(error, path);
  }
  const records: AuditRecord[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    try {
      const value = JSON.parse(line) as AuditRecord;
      if (typeof value === "object" && value !== null && AUDIT_ACTIONS.includes(value.action)) records.push(value);
    } catch {
      // skip
    }
  }
  return records.slice(-limit);
}
