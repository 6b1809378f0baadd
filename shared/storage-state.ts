// A browser storage state (Playwright's storageState: cookies, and per origin
// its local storage and IndexedDB) as bytes: what the worker hands the daemon
// to encrypt, and what the daemon hands back to seed a context. Pure. The
// values are logins: nothing here puts them into a message.
import { BwError, type ErrorCode } from "./protocol/errors.js";

/** The parts we check; Playwright validates the rest when it applies the state. */
export interface StorageState {
  cookies: { name?: unknown; value?: unknown }[];
  origins: { origin?: unknown; localStorage?: { name?: unknown; value?: unknown }[] }[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses and shape-checks a state's JSON bytes; anything else is `code` (VAULT_CORRUPT for a file, INVALID_ARGUMENT on the pipe). */
export function parseStorageState(bytes: Uint8Array, code: ErrorCode, what: string): StorageState {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
  } catch {
    throw new BwError(code, `${what} is not JSON`);
  }
  if (!isRecord(value) || !Array.isArray(value.cookies) || !Array.isArray(value.origins) || !value.cookies.every(isRecord) || !value.origins.every(isRecord)) {
    throw new BwError(code, `${what} is not a browser storage state (cookies and origins)`);
  }
  return value as unknown as StorageState;
}

/** The state's JSON bytes, refused (LIMIT_EXCEEDED) past `maxBytes`. */
export function storageStateBytes(state: StorageState, maxBytes: number): Buffer {
  const bytes = Buffer.from(JSON.stringify(state), "utf8");
  if (bytes.length > maxBytes) {
    bytes.fill(0);
    throw new BwError("LIMIT_EXCEEDED", `the session's storage state is ${bytes.length} bytes, more than a saved state may hold (${maxBytes}; savedStateMaxBytes in config.json or BETTERWRIGHT_SAVED_STATE_MAX_BYTES)`, {
      details: { limit: "maxStateBytes", value: maxBytes },
    });
  }
  return bytes;
}

/** Every value in the state long enough to recognise (cookie values, local storage values). */
function secretsOf(state: StorageState): string[] {
  const values: string[] = [];
  for (const cookie of state.cookies) if (typeof cookie.value === "string") values.push(cookie.value);
  for (const origin of state.origins) {
    for (const item of Array.isArray(origin.localStorage) ? origin.localStorage : []) if (isRecord(item) && typeof item.value === "string") values.push(item.value);
  }
  return values.filter((v) => v.length >= 4);
}

/** A message about a state (Playwright's refusal to apply it) that quotes none of its values. */
export function messageWithout(message: string, state: StorageState): string {
  const line = (message.split("\n")[0] ?? "").slice(0, 300);
  return secretsOf(state).some((secret) => line.includes(secret)) ? "(its details are withheld: they quote the saved state)" : line;
}
