// The result envelope every exec returns. Fields may be added; none is ever
// removed or renamed.
import type { ErrorShape } from "./errors.js";

export interface Warning {
  code: string;
  message: string;
}

export interface PageInfo {
  pageId: string;
  url: string;
  title: string;
  active: boolean;
}

export interface ConsoleEntry {
  type: string;
  text: string;
  /** "snippet" for the snippet's own console, "page" for the page's. */
  source: "snippet" | "page";
}

export interface ArtifactInfo {
  kind: string;
  path: string;
  bytes: number;
  [extra: string]: unknown;
}

/** A request or connection the network guard refused during the run (bounded, one entry per layer and URL). */
export interface BlockedRequest {
  /** What was asked: the request's URL (route layer) or `http(s)://host:port/` (proxy layer, which sees no path). */
  url: string;
  /** `route`: Playwright routing saw the request; `proxy`: the guard proxy refused the connection (redirect hops, WebSockets…). */
  layer: "route" | "proxy";
  reason: string;
  resourceType?: string;
  method?: string;
  isNavigation?: boolean;
  /** How many times it was refused in this run. */
  count: number;
}

/** What every envelope carries, whether its run succeeded or not. */
export interface EnvelopeBase {
  session: string;
  profile: string;
  runId: string;
  seq: number;
  durationMs: number;
  console: ConsoleEntry[];
  pages: PageInfo[];
  artifacts: ArtifactInfo[];
  warnings: Warning[];
  truncated?: boolean;
  fullOutputPath?: string;
  /** With `truncated`: the start of the result's JSON (untrusted data, bounded). */
  preview?: string;
  blocked?: BlockedRequest[];
  /** Downloads started during the run: accepted ones and rejected ones with a reason code. */
  downloads?: DownloadOutcome[];
}

/** `R`: what `result` holds (a typed operation's result type); absent when the run returned nothing or `truncated`. */
export interface OkEnvelope<R = unknown> extends EnvelopeBase {
  ok: true;
  result?: R;
  error?: undefined;
}

export interface FailedEnvelope extends EnvelopeBase {
  ok: false;
  error: ErrorShape;
  result?: undefined;
}

/** `if (envelope.ok)` narrows it: `result` on success, `error` on failure. */
export type Envelope<R = unknown> = OkEnvelope<R> | FailedEnvelope;

/** An outcome's verdict over `rest`, with `ok` and then `result` or `error` first, as callers read them. */
export function envelopeOf(verdict: { ok: boolean; result?: unknown; error?: ErrorShape }, rest: EnvelopeBase): Envelope {
  if (verdict.ok) return { ok: true, ...(verdict.result === undefined ? {} : { result: verdict.result }), ...rest };
  return { ok: false, error: verdict.error!, ...rest };
}

/** What the worker reports for one run; the daemon adds identity and sequence. */
export interface WorkerOutcome {
  ok: boolean;
  result?: unknown;
  error?: ErrorShape;
  console: ConsoleEntry[];
  pages: PageInfo[];
  artifacts: ArtifactInfo[];
  warnings: Warning[];
  blocked?: BlockedRequest[];
  downloads?: DownloadOutcome[];
  /** The result was too large to leave the worker: only `preview` (the start of its JSON) is kept. */
  truncated?: boolean;
  preview?: string;
  /** A typed operation's arguments (dotted paths) that went into a password field: the transcript shows them redacted. */
  secretArgs?: string[];
  /** On remote browsers: the endpoint the session lives on (`sessions` shows it). */
  placement?: string;
  /** When `result.text` is a part cut out of a longer text: the text around it, so that the daemon redacts across the cut (then drops this). */
  textContext?: TextContext;
}

/** The text on either side of a part cut out of a longer text (at most CUT_CONTEXT_CHARS each). */
export interface TextContext {
  before: string;
  after: string;
  /** `before` reaches the start of the whole text; `after` reaches its end. */
  fromStart: boolean;
  toEnd: boolean;
}

/**
 * How much text the worker sends on each side of a cut. A secret whose longest
 * spelling is wider is still never shown in part: the daemon withholds the
 * stretch next to the cut that could hold its start or its end.
 */
export const CUT_CONTEXT_CHARS = 4_096;

/** The context of text[start, end). */
export function textContextAround(text: string, start: number, end: number): TextContext {
  const from = Math.max(0, start - CUT_CONTEXT_CHARS);
  const to = Math.min(text.length, end + CUT_CONTEXT_CHARS);
  return { before: text.slice(from, start), after: text.slice(end, to), fromStart: from === 0, toEnd: to === text.length };
}

/** One download: accepted (in the session's artifact folder) or rejected with an error-table code. */
export interface DownloadOutcome {
  id: string;
  url: string;
  suggestedFilename: string;
  status: "accepted" | "rejected";
  /** Accepted: where the file is. */
  path?: string;
  /** Accepted: its size; rejected: bytes written when it was stopped. */
  bytes?: number;
  /** Rejected: DOWNLOAD_NOT_APPROVED, QUOTA_EXCEEDED, DOWNLOAD_FAILED. */
  reason?: string;
  message?: string;
  runId?: string;
  at: string;
}
