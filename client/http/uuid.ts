// Session ids of the HTTP API: UUIDs of versions 1 to 8 with the RFC 9562
// variant bits (10xx), as the reference API requires. Case is not meaningful;
// the lower-case form names the session everywhere (daemon, states, records).
import { BwError } from "../../shared/errors.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isSessionId(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value.toLowerCase());
}

/** The canonical (lower-case) id; INVALID_ARGUMENT for anything that is not such a UUID. */
export function sessionId(value: unknown, what = "id"): string {
  if (!isSessionId(value)) {
    throw new BwError("INVALID_ARGUMENT", `${what}: expected a UUID of version 1 to 8 with the RFC variant (xxxxxxxx-xxxx-Mxxx-Nxxx-xxxxxxxxxxxx, M 1–8, N 8, 9, a or b)`);
  }
  return value.toLowerCase();
}
