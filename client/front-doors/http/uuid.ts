// Session ids of the HTTP API: UUIDs of versions 1 to 8 with the RFC 9562
// variant bits (10xx), as the reference API requires. Case is not meaningful;
// the lower-case form names the session everywhere (daemon, states, records).
import { BwError } from "../../../shared/protocol/errors.js";
import { SERVE_SESSION_ID } from "../../../shared/names.js";

export function isSessionId(value: unknown): value is string {
  return typeof value === "string" && SERVE_SESSION_ID.test(value);
}

/** The canonical (lower-case) id; INVALID_ARGUMENT for anything that is not such a UUID. */
export function sessionId(value: unknown, what = "id"): string {
  if (!isSessionId(value)) {
    throw new BwError("INVALID_ARGUMENT", `${what}: expected a UUID of version 1 to 8 with the RFC variant (xxxxxxxx-xxxx-Mxxx-Nxxx-xxxxxxxxxxxx, M 1–8, N 8, 9, a or b)`);
  }
  return value.toLowerCase();
}
