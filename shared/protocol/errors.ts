// The one table of error codes. A published code keeps its meaning forever;
// new codes are appended. Both sides rebuild a typed BwError from `data.code`.

import { errorText, isOwnRealmError } from "./error-text.js";

export const ERROR_CODES = {
  INVALID_ARGUMENT: { retryable: false, exit: 2, summary: "A flag, name, URL, frame or parameter is malformed." },
  SNIPPET_ERROR: { retryable: false, exit: 1, summary: "The snippet threw." },
  SNIPPET_SYNTAX_ERROR: { retryable: false, exit: 1, summary: "The snippet does not parse." },
  SNIPPET_TIMEOUT: { retryable: true, exit: 1, summary: "The run exceeded its budget (queue wait included)." },
  BLOCKED_URL: { retryable: false, exit: 1, summary: "The network policy denied a URL." },
  SESSION_NOT_FOUND: { retryable: false, exit: 1, summary: "No session by that name." },
  SESSION_CLOSING: { retryable: true, exit: 1, summary: "The session is closing." },
  SESSION_RESET: { retryable: false, exit: 1, summary: "The session's pages were lost to a worker, browser or daemon restart." },
  BROWSER_UNAVAILABLE: { retryable: false, exit: 3, summary: "No browser could be found or launched." },
  BROWSER_DISCONNECTED: { retryable: false, exit: 1, summary: "The browser went away during the run." },
  DAEMON_UNAVAILABLE: { retryable: true, exit: 3, summary: "The daemon could not be started or reached." },
  CONFIG_MISMATCH: { retryable: false, exit: 2, summary: "The running daemon has different explicit settings and live sessions." },
  VAULT_BUSY: { retryable: true, exit: 1, summary: "The vault lock was not obtained in time." },
  VAULT_NOT_FOUND: { retryable: false, exit: 1, summary: "No vault entry matches." },
  VAULT_CORRUPT: { retryable: false, exit: 1, summary: "vault.enc is tampered with or truncated; it is left untouched." },
  VAULT_KEY_MISSING: { retryable: false, exit: 1, summary: "vault.enc exists but vault.key does not." },
  QUOTA_EXCEEDED: { retryable: false, exit: 1, summary: "An artifact cap would be exceeded." },
  LIMIT_EXCEEDED: { retryable: false, exit: 1, summary: "A documented bound was exceeded (pages, sessions, queued runs, output size)." },
  CANCELLED: { retryable: false, exit: 1, summary: "The run was cancelled." },
  INTERNAL_ERROR: { retryable: false, exit: 3, summary: "A defect inside betterwright; see the daemon log." },
  RUN_NOT_FOUND: { retryable: false, exit: 1, summary: "No run by that id (finished runs are kept 60 s)." },
  DOWNLOAD_NOT_APPROVED: { retryable: false, exit: 1, summary: "A download started with no approved run of its session in flight (exec --approve-downloads)." },
  DOWNLOAD_FAILED: { retryable: true, exit: 1, summary: "A download failed, was interrupted, or outlived the run that approved it." },
  STORAGE_UNAVAILABLE: { retryable: true, exit: 3, summary: "The home's file system refused a write: full, read-only, or failing." },
  UNSAFE_PATH: { retryable: false, exit: 3, summary: "The home, a folder in it, or the daemon's socket could be changed by another user (wrong owner, writable by others, a link); nothing was sent or written. The message says what to fix." },
  STATE_RESET: { retryable: false, exit: 1, summary: "A warning: the session's realm was replaced (its previous run held it past its end, or ran out of memory), so `state` starts empty; its pages are kept." },
  SESSION_EXISTS: { retryable: false, exit: 2, summary: "The session exists with other settings (isolated or shared, viewport, locale…); the message names the difference. Close it first, or call with its settings." },
  STATE_NOT_FOUND: { retryable: false, exit: 1, summary: "No saved browser state by that name in this profile." },
  STALE_REF: { retryable: false, exit: 1, summary: "A ref is not in the session's latest snapshot, or its page navigated or its element went away since: take a new snapshot. Nothing was done." },
  LOCATOR_AMBIGUOUS: { retryable: false, exit: 1, summary: "A locator matches several elements (the message says how many); nothing was done. Make it unique or use a ref." },
  NAVIGATION_FAILED: { retryable: true, exit: 1, summary: "A navigation failed: the connection was refused, reset or timed out, the server's answer was broken, or another navigation interrupted it." },
  DNS_UNAVAILABLE: { retryable: true, exit: 1, summary: "A navigation failed because its host name did not resolve (the guard proxy resolves every name); the message names the host." },
  OPERATION_FAILED: { retryable: false, exit: 1, summary: "A typed operation could not be done on the page (the element is not a text field, not visible, the key is unknown…); the message says why." },
  UNAUTHORIZED: { retryable: false, exit: 2, summary: "The HTTP API was called without its bearer token, or with a wrong one (401)." },
  NOT_FOUND: { retryable: false, exit: 1, summary: "The HTTP API has no such route, session or download (404)." },
  SESSION_CLOSED: { retryable: false, exit: 1, summary: "The HTTP API's session is not open (closed, idle-closed or failed); open it again with POST /sessions (409)." },
  SESSION_LIMIT: { retryable: true, exit: 1, summary: "The HTTP API holds as many open sessions, or saved sessions, as it may; close one first (409)." },
  DOWNLOAD_TOO_LARGE: { retryable: false, exit: 1, summary: "A download was larger than the HTTP API's per-file cap: cancelled in flight, or refused on completion or before serving (413)." },
  DOWNLOAD_UNSUPPORTED: { retryable: false, exit: 1, summary: "A download was not a PDF (its first bytes are not %PDF-); the HTTP API keeps PDFs only." },
  DOWNLOAD_LIMIT: { retryable: false, exit: 1, summary: "A session of the HTTP API already keeps as many PDFs as it may." },
  CONTAINMENT_UNAVAILABLE: { retryable: false, exit: 3, summary: "The worker cannot be contained here (no bwrap, no user namespaces, not Linux): a warning on every envelope, or the daemon's refusal to start under requireContainment." },
  ELEMENT_NOT_FOUND: { retryable: true, exit: 1, summary: "An operation's target (a role and name, text, label, selector…) matched no element within the short element wait (2 s once the page has loaded); nothing was done. The message names the target and the page." },
  ELEMENT_OBSCURED: { retryable: true, exit: 1, summary: "Another element (an overlay, a dialog, a cookie banner) covers the target and would take the click; nothing was done. The message names what covers it." },
  GUARD_NOT_ENFORCED: { retryable: false, exit: 3, summary: "A remote browser that cannot be made to use the guard proxy (a CDP endpoint): refused unless trustRemoteEgress is set, and then a warning on every envelope of its sessions." },
  WEBMCP_UNSUPPORTED: { retryable: false, exit: 1, summary: "The page has no WebMCP (`document.modelContext`): the browser does not support it, or the page is not a secure context." },
  WEBMCP_TOOL_NOT_FOUND: { retryable: false, exit: 1, summary: "The page registers no WebMCP tool by that name (the message lists those it does)." },
  CONFIRMATION_REQUIRED: { retryable: false, exit: 1, summary: "The WebMCP tool acts on its own (it submits a form or takes a consequential action); nothing was done. Call it again with `confirm: true` if that is intended." },
} as const satisfies Record<string, { retryable: boolean; exit: 1 | 2 | 3; summary: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CODES, value);
}

export interface ErrorShape {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  details?: unknown;
}

export class BwError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, options: { retryable?: boolean; details?: unknown; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "BwError";
    this.code = code;
    this.retryable = options.retryable ?? ERROR_CODES[code].retryable;
    this.details = options.details;
  }

  toJSON(): ErrorShape {
    const shape: ErrorShape = { code: this.code, message: this.message, retryable: this.retryable };
    if (this.details !== undefined) shape.details = this.details;
    return shape;
  }

  static from(shape: ErrorShape): BwError {
    return new BwError(shape.code, shape.message, { retryable: shape.retryable, details: shape.details });
  }
}

/** Anything thrown becomes a BwError; unknown throwables are internal errors. */
export function toBwError(error: unknown, fallback: ErrorCode = "INTERNAL_ERROR"): BwError {
  // A value from a snippet's context is never inspected: no instanceof on it, no getter, no toString.
  if (!isOwnRealmError(error)) return new BwError(fallback, errorText(error));
  if (error instanceof BwError) return error;
  return new BwError(fallback, error.message, { cause: error });
}

/** JSON-RPC error codes: the server-error range, one per stable code family. */
export const RPC_ERROR_CODE = -32000;
