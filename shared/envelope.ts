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

export interface Envelope {
  ok: boolean;
  result?: unknown;
  error?: ErrorShape;
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
}
