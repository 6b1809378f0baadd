// Extra snippet globals (credentials, screenshot, snapshot, artifactPath…)
// plug in here: each names a dotted path in the snippet's scope and a host
// handler. The in-context side is generated from the names alone, so a new
// service never touches the bootstrap.
import type { Page } from "playwright-core";
import type { ArtifactInfo, Warning } from "../../../shared/protocol/envelope.js";

export interface RunHandle {
  readonly session: string;
  readonly runId: string;
  /** The session's active page (opened on demand). */
  activePage(): Page;
  /** What is left of the run's budget, at least 1 ms. */
  remainingMs(): number;
  addArtifact(artifact: ArtifactInfo): void;
  addWarning(warning: Warning): void;
  /** Throws once the run is over (timed out or finished). */
  assertLive(): void;
}

export interface ScopeFunction {
  /** Dotted path in the snippet's scope, e.g. "credentials.fill". */
  readonly name: string;
  readonly kind: "async" | "sync";
  call(run: RunHandle, args: unknown[]): unknown;
}

const NAME = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)?$/;

export function scopeNames(functions: readonly ScopeFunction[]): { async: string[]; sync: string[] } {
  const names = { async: [] as string[], sync: [] as string[] };
  for (const fn of functions) {
    if (!NAME.test(fn.name)) throw new Error(`bad scope function name ${fn.name}`);
    names[fn.kind].push(fn.name);
  }
  return names;
}
