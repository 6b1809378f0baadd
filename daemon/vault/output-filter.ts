// The redaction pass every run's output takes before anything else in the
// daemon sees it (envelope, spill, transcript, attach cache). Invariant: when
// redaction fails, the run's output is replaced by an error; nothing of it
// goes out unredacted.
import { BwError } from "../../shared/protocol/errors.js";
import type { WorkerOutcome } from "../../shared/protocol/envelope.js";
import type { Redactor } from "./redactor.js";

export const WITHHELD = "[WITHHELD]";

export interface FilteredOutput {
  outcome: WorkerOutcome;
  /** The snippet as the transcript may record it. */
  snippet: string;
}

function withheld(error: unknown): FilteredOutput {
  const reason = error instanceof BwError && error.code === "LIMIT_EXCEEDED"
    ? error
    : new BwError("INTERNAL_ERROR", "redacting the run's output failed");
  return {
    outcome: {
      ok: false,
      error: new BwError(reason.code, `output withheld: ${reason.message}. Restart the daemon (close --all) to reset redaction.`).toJSON(),
      console: [],
      pages: [],
      artifacts: [],
      warnings: [],
    },
    snippet: WITHHELD,
  };
}

/**
 * The text the worker cut out of a longer one (an operation's `result.text`, or
 * the preview of a result too large to cross), redacted across the cut; the
 * context it came with goes no further.
 */
function redactCutText(redactor: Redactor, outcome: WorkerOutcome): WorkerOutcome {
  const { textContext, ...rest } = outcome;
  if (textContext === undefined) return rest;
  if (rest.truncated && typeof rest.preview === "string") {
    const cut = rest.preview.endsWith("…") ? rest.preview.slice(0, -1) : rest.preview;
    return { ...rest, preview: `${redactor.redactCut(cut, textContext)}…` };
  }
  const result = rest.result as { text?: unknown } | undefined;
  if (typeof result?.text !== "string") return rest;
  return { ...rest, result: { ...result, text: redactor.redactCut(result.text, textContext) } };
}

/** Redacts every field of a run's outcome and its snippet, or withholds both. */
export function filterRunOutput(redactor: Redactor, outcome: WorkerOutcome, snippet: string): FilteredOutput {
  try {
    return { outcome: redactor.redact(redactCutText(redactor, outcome)), snippet: redactor.redactString(snippet) };
  } catch (error) {
    return withheld(error);
  }
}

/** A log line with every handled secret replaced; a line that cannot be redacted is dropped. */
export function filterLogLine(redactor: Redactor, line: string): string {
  try {
    return redactor.redactString(line);
  } catch {
    return `${WITHHELD} a log line was dropped: redaction failed`;
  }
}
