// A failure as an MCP tool result: `isError`, the stable code, the message and
// the next step a model can take. User mistakes and refusals are tool results,
// never protocol errors. Pure.
import { ERROR_CODES, isErrorCode, toBwError, type ErrorCode, type ErrorShape } from "../../../shared/protocol/errors.js";
import type { CallResult } from "./results.js";

/** What to do next, for the codes a model can act on; others get the error table's summary. */
const NEXT_STEPS: Partial<Record<ErrorCode, string>> = {
  INVALID_ARGUMENT: "fix the argument the message names and call again",
  STALE_REF: "take a new snapshot and use a ref from it",
  LOCATOR_AMBIGUOUS: "use a ref from a snapshot, or a locator that matches one element (a role with its exact name)",
  BLOCKED_URL: "the network policy refuses this address: use another URL (the owner can allow a host with --allow-host)",
  NAVIGATION_FAILED: "check the URL and retry",
  ELEMENT_NOT_FOUND: "take a snapshot (or find a word of the target) and act on a ref from it",
  ELEMENT_OBSCURED: "deal with what covers the target first (accept or close the banner or dialog the message names), then act again",
  OPERATION_FAILED: "take a snapshot to see the element, then use another target or tool",
  SNIPPET_ERROR: "fix the snippet; the message is what it threw",
  SNIPPET_SYNTAX_ERROR: "fix the snippet's syntax (it is the body of an async function)",
  SNIPPET_TIMEOUT: "retry with a larger timeoutMs, or wait_for a narrower condition; the session is still usable",
  SESSION_NOT_FOUND: "session_list shows the sessions; leave out session to use this connection's own",
  SESSION_EXISTS: "close that session first (session_close), or create it with the same settings",
  SESSION_RESET: "the session's pages were lost: navigate again",
  SESSION_CLOSING: "retry in a moment, or use another session",
  STATE_NOT_FOUND: "state_list shows the saved states",
  DAEMON_UNAVAILABLE: "retry: the next call starts the profile's daemon again",
  BROWSER_UNAVAILABLE: "no browser is installed: the owner runs `betterwright setup`",
  BROWSER_DISCONNECTED: "retry: the next call starts the browser again; navigate again",
  CONFIG_MISMATCH: "the profile's daemon runs with other settings and has live sessions: close them or use another profile",
  LIMIT_EXCEEDED: "close sessions or pages you no longer need (session_close, tabs close)",
  QUOTA_EXCEEDED: "the artifact store is full: the owner runs `betterwright artifacts prune`",
  CANCELLED: "the call was cancelled; call again if it is still wanted",
};

export function nextStep(code: ErrorCode): string {
  return NEXT_STEPS[code] ?? ERROR_CODES[code].summary;
}

/** The tool result for an error shape (an envelope's `error`) or anything thrown. */
export function errorResult(error: ErrorShape | unknown): CallResult {
  const shape: ErrorShape = isShape(error) ? error : toBwError(error).toJSON();
  const code: ErrorCode = isErrorCode(shape.code) ? shape.code : "INTERNAL_ERROR";
  return {
    content: [{ type: "text", text: `Error ${code}: ${shape.message}\nNext: ${nextStep(code)}` }],
    structuredContent: { error: { code, message: shape.message, retryable: shape.retryable } },
    isError: true,
  };
}

function isShape(value: unknown): value is ErrorShape {
  if (typeof value !== "object" || value === null || value instanceof Error) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === "string" && typeof v.message === "string" && typeof v.retryable === "boolean";
}
