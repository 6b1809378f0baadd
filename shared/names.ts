// Profile and session names become path components, so they are an allowlist:
// nothing in a name can leave its folder or land on a lock directory.
import { BwError } from "./protocol/errors.js";

export const MAX_NAME_LENGTH = 64;
export const LOCK_MARKER = ".betterwright-lock";
export const DEFAULT_PROFILE = "default";
export const DEFAULT_SESSION = "default";

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** Saved browser states are named like sessions: the name is a file name under states/<profile>/. */
export type NameKind = "profile" | "session" | "state";

/** Why a name is invalid, or undefined when it is fine. */
export function nameProblem(name: unknown, kind: NameKind): string | undefined {
  if (typeof name !== "string" || name.length === 0) return `${kind} name must be a non-empty string`;
  if (name.length > MAX_NAME_LENGTH) return `${kind} name is longer than ${MAX_NAME_LENGTH} characters`;
  if (!NAME_PATTERN.test(name)) {
    return `${kind} name may hold only letters, digits, '.', '-' and '_', and must start with a letter or digit`;
  }
  if (name.includes("..")) return `${kind} name must not contain '..'`;
  if (name.endsWith(".")) return `${kind} name must not end with '.'`;
  if (WINDOWS_DEVICE.test(name)) return `${kind} name '${name}' is a reserved device name`;
  if (name.toLowerCase().includes(LOCK_MARKER)) return `${kind} name must not contain the reserved marker ${LOCK_MARKER}`;
  return undefined;
}

export function validateName(name: unknown, kind: NameKind): string {
  const problem = nameProblem(name, kind);
  if (problem !== undefined) throw new BwError("INVALID_ARGUMENT", `invalid ${kind} name ${JSON.stringify(name)}: ${problem}`);
  return name as string;
}

/** betterwright serve's session ids: UUIDs of versions 1 to 8 with the RFC 9562 variant, in either case. */
export const SERVE_SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** betterwright serve saves each session's state as `http-<id>`. */
export const SERVE_STATE_PREFIX = "http-";

/**
 * Whether a session or state name is one betterwright serve uses for its own
 * sessions (a UUID) and their saved states (`http-…`). Other clients of the
 * profile's daemon drive or load them only when they opted in.
 */
export function isServeName(name: string, kind: "session" | "state"): boolean {
  return kind === "session" ? SERVE_SESSION_ID.test(name) : name.toLowerCase().startsWith(SERVE_STATE_PREFIX);
}

/** `default` means "no --profile"; it is reserved as an explicit name for anything else. */
export function normalizeProfile(name: string | undefined): string {
  if (name === undefined || name === DEFAULT_PROFILE) return DEFAULT_PROFILE;
  return validateName(name, "profile");
}
