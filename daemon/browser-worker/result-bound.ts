// A run's outcome crosses to the daemon in one frame, so its result is
// bounded here, before it crosses: past MAX_RESULT_BYTES of JSON only a
// preview is kept and the envelope says so (truncated, a warning). Smaller
// results travel whole and the daemon spills the long ones to an artifact.
import { textContextAround, type WorkerOutcome } from "../../shared/protocol/envelope.js";
import { MAX_RESULT_BYTES } from "../../shared/protocol/framing.js";

/** As long as the daemon's preview of a spilled result. */
export const RESULT_PREVIEW_CHARS = 2_000;

function jsonBytes(value: unknown, maxBytes: number): { json: string | undefined; bytes: number } {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    // Longer than V8's longest string.
    return { json: undefined, bytes: Number.POSITIVE_INFINITY };
  }
  if (json === undefined) return { json, bytes: 0 };
  // Three bytes per UTF-16 unit at most: the exact count is needed only near the bound.
  return { json, bytes: json.length * 3 <= maxBytes ? json.length : Buffer.byteLength(json) };
}

export function boundResult(outcome: WorkerOutcome, maxBytes: number = MAX_RESULT_BYTES): WorkerOutcome {
  if (!outcome.ok || outcome.result === undefined) return outcome;
  const { json, bytes } = jsonBytes(outcome.result, maxBytes);
  if (bytes <= maxBytes) return outcome;
  const { result: _dropped, ...rest } = outcome;
  const size = Number.isFinite(bytes) ? `${bytes} bytes of JSON` : "longer than a JavaScript string can be";
  return {
    ...rest,
    truncated: true,
    preview: json === undefined ? "" : `${json.slice(0, RESULT_PREVIEW_CHARS)}…`,
    // The preview is a cut too: the daemon redacts across it with what follows.
    ...(json === undefined ? {} : { textContext: textContextAround(json, 0, Math.min(RESULT_PREVIEW_CHARS, json.length)) }),
    warnings: [...outcome.warnings, {
      code: "OUTPUT_NOT_SAVED",
      message: `the result is ${size}, more than the ${maxBytes} bytes a result may carry; only its start is kept (preview). Return a smaller part.`,
    }],
  };
}
