// The shape and size of what a worker returns for a run (WorkerOutcome),
// checked by the daemon before anything of it reaches a client: the worker is
// where model-driven code runs, so a compromised one may return anything. A
// field the protocol does not declare, a string past its bound or a list past
// any real run's length makes the whole outcome malformed (never trimmed into
// something that passes). The `result` itself is any JSON within the frame bound.
import { CUT_CONTEXT_CHARS, type DownloadOutcome, type WorkerOutcome } from "../envelope.js";
import { BwError, isErrorCode } from "../errors.js";
import { arr, bool, custom, num, obj, optional, str, type Validator } from "../validate.js";

/** Download ids are the worker's randomUUID(): nothing else may be joined into a path by a front door. */
export const DOWNLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const TEXT = 1_000_000;
const LINE = 64 * 1024;
const PATH = 4096;
const LIST = 1000;

const text = (max = TEXT) => str({ max });
const absolutePath = str({ min: 1, max: PATH, pattern: /^\/[^\0]*$/ });
const count = num({ min: 0, integer: true });
const oneOf = <T extends string>(values: readonly T[]) => custom((value, path): T => {
  if (typeof value === "string" && (values as readonly string[]).includes(value)) return value as T;
  throw new BwError("INVALID_ARGUMENT", `${path}: expected one of ${values.join(", ")}`);
});
const anything = custom((value) => value);

const errorShape = obj({
  code: custom((value, path) => {
    if (isErrorCode(value)) return value;
    throw new BwError("INVALID_ARGUMENT", `${path}: not a code of the error table`);
  }),
  message: text(),
  retryable: bool(),
  details: optional(anything),
});

const warning = obj({ code: text(128), message: text() });

/** One download's outcome, in a run's outcome and in a session's `.downloads.jsonl` (which the worker writes). */
export const downloadOutcome: Validator<DownloadOutcome> = obj({
  id: str({ pattern: DOWNLOAD_ID }),
  url: text(),
  suggestedFilename: text(LINE),
  status: oneOf(["accepted", "rejected"] as const),
  path: optional(absolutePath),
  bytes: optional(count),
  reason: optional(text(128)),
  message: optional(text()),
  runId: optional(text(64)),
  at: text(64),
}) as Validator<DownloadOutcome>;

const outcomeShape = obj({
  ok: bool(),
  // Not optional(): that reads null as absent, and a snippet's `null` (or a statement's) is a result.
  result: anything,
  error: optional(errorShape),
  console: arr(obj({ type: text(64), text: text(), source: oneOf(["snippet", "page"] as const) }), { max: LIST }),
  pages: arr(obj({ pageId: text(128), url: text(), title: text(), active: bool() }), { max: LIST }),
  artifacts: arr(obj({
    kind: oneOf(["screenshot", "download", "output"] as const),
    path: absolutePath,
    bytes: count,
    width: optional(count),
    height: optional(count),
    type: optional(oneOf(["png", "jpeg"] as const)),
    url: optional(text()),
  }), { max: LIST }),
  warnings: arr(warning, { max: LIST }),
  blocked: optional(arr(obj({
    url: text(),
    layer: oneOf(["route", "proxy"] as const),
    reason: text(),
    resourceType: optional(text(64)),
    method: optional(text(64)),
    isNavigation: optional(bool()),
    count,
  }), { max: LIST })),
  downloads: optional(arr(downloadOutcome, { max: LIST })),
  truncated: optional(bool()),
  preview: optional(text()),
  secretArgs: optional(arr(text(LINE), { max: LIST })),
  placement: optional(text(LINE)),
  textContext: optional(obj({ before: text(CUT_CONTEXT_CHARS), after: text(CUT_CONTEXT_CHARS), fromStart: bool(), toEnd: bool() })),
});

/** The declared shape, and a verdict that holds together: a failure names its error, a success has none. */
export const workerOutcome: Validator<WorkerOutcome> = custom((value, path) => {
  const outcome = outcomeShape(value, path) as WorkerOutcome;
  if (!outcome.ok && outcome.error === undefined) throw new BwError("INVALID_ARGUMENT", `${path}: a failed run without its error`);
  if (outcome.ok && outcome.error !== undefined) throw new BwError("INVALID_ARGUMENT", `${path}: a successful run with an error`);
  return outcome;
});
