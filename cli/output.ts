// Rendering results: JSON on stdout (pretty on a terminal, one line
// otherwise), messages on stderr, and the exit code taken from the error table.
// Nothing untrusted reaches the terminal raw: see shared/safe-text.ts.
import { BwError, ERROR_CODES, isErrorCode, toBwError } from "../shared/protocol/errors.js";
import type { Envelope } from "../shared/protocol/envelope.js";
import { safeJson, safeLine } from "../shared/safe-text.js";

export const EXIT = { ok: 0, failed: 1, usage: 2, infrastructure: 3 } as const;

/** JSON when asked (--json) or when stdout is no terminal (a pipe, a file): people get text, programs JSON. */
export function wantsJson(args: { json?: boolean | undefined }): boolean {
  return args.json === true || process.stdout.isTTY !== true;
}

export function printJson(value: unknown): void {
  const pretty = process.stdout.isTTY === true;
  process.stdout.write(`${safeJson(value, pretty ? 2 : undefined)}\n`);
}

export function exitCodeFor(error: BwError): number {
  return ERROR_CODES[error.code].exit;
}

/** An envelope for a call that never reached a session (daemon down, no browser…). */
export function failureEnvelope(error: unknown, session: string, profile: string): Envelope {
  const bw = toBwError(error);
  return {
    ok: false,
    error: bw.toJSON(),
    session,
    profile,
    runId: "",
    seq: 0,
    durationMs: 0,
    console: [],
    pages: [],
    artifacts: [],
    warnings: [],
  };
}

/**
 * A run that found its session's pages lost (a worker, browser or daemon that died and was started
 * again) says so on stderr too, once per envelope: the envelope's warning is easy to miss in a script.
 */
export function noteReset(envelope: Envelope): void {
  const reset = envelope.warnings.find((w) => w.code === "SESSION_RESET");
  if (reset) process.stderr.write(safeLine`betterwright: session ${envelope.session}: ${reset.message}\n`);
}

export function envelopeExitCode(envelope: Envelope): number {
  if (envelope.ok) return EXIT.ok;
  const code = envelope.error?.code;
  return isErrorCode(code) ? ERROR_CODES[code].exit : EXIT.failed;
}

export function reportError(error: unknown, json: boolean): number {
  const bw = toBwError(error);
  if (json) printJson({ ok: false, error: bw.toJSON() });
  else process.stderr.write(safeLine`betterwright: ${bw.message} [${bw.code}]\n`);
  return exitCodeFor(bw);
}
