// Errors on the HTTP API: every failure is `{ error: { code, message } }`
// with a status from one table, the reference API's where it names one
// (UNAUTHORIZED 401, BLOCKED_URL 400, DNS_UNAVAILABLE/NAVIGATION_FAILED 502,
// BROWSER_UNAVAILABLE 503, SESSION_CLOSED/SESSION_LIMIT 409,
// DOWNLOAD_TOO_LARGE 413). Codes are the error table's (shared/protocol/errors.ts).
import { BwError, toBwError, type ErrorCode } from "../../../shared/protocol/errors.js";

export type HttpStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 500 | 502 | 503 | 504 | 507;

const STATUS: Partial<Record<ErrorCode, HttpStatus>> = {
  INVALID_ARGUMENT: 400,
  BLOCKED_URL: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  STATE_NOT_FOUND: 404,
  SESSION_CLOSED: 409,
  SESSION_CLOSING: 409,
  SESSION_LIMIT: 409,
  SESSION_EXISTS: 409,
  LIMIT_EXCEEDED: 413,
  DOWNLOAD_TOO_LARGE: 413,
  DOWNLOAD_UNSUPPORTED: 422,
  DOWNLOAD_LIMIT: 409,
  OPERATION_FAILED: 422,
  STALE_REF: 422,
  LOCATOR_AMBIGUOUS: 422,
  NAVIGATION_FAILED: 502,
  DNS_UNAVAILABLE: 502,
  BROWSER_UNAVAILABLE: 503,
  BROWSER_DISCONNECTED: 503,
  SESSION_RESET: 503,
  DAEMON_UNAVAILABLE: 503,
  CONFIG_MISMATCH: 503,
  VAULT_BUSY: 503,
  SNIPPET_TIMEOUT: 504,
  QUOTA_EXCEEDED: 507,
  STORAGE_UNAVAILABLE: 507,
};

export interface HttpErrorBody {
  error: { code: ErrorCode; message: string };
}

/** A refusal of the HTTP layer itself whose status is not the code's usual one (415 for a wrong content type). */
export class HttpRefusal extends BwError {
  constructor(readonly status: HttpStatus, code: ErrorCode, message: string) {
    super(code, message);
  }
}

export function statusOf(error: BwError): HttpStatus {
  if (error instanceof HttpRefusal) return error.status;
  return STATUS[error.code] ?? 500;
}

/** The status and body for anything thrown while answering a request. */
export function errorResponse(thrown: unknown): { status: HttpStatus; body: HttpErrorBody } {
  const error = toBwError(thrown);
  return { status: statusOf(error), body: { error: { code: error.code, message: error.message } } };
}
