// One run of a session (a snippet or a typed operation) as the worker keeps
// it while it is in flight: its token, budget and what it collects for its
// envelope, and how it ends.
import type { ArtifactInfo, ConsoleEntry, Warning } from "../../shared/protocol/envelope.js";
import type { BlockedCollector } from "./guard/blocked-collector.js";
import type { RunError } from "./run-failure.js";

/** How a run's code ended: its value, or the error it threw (a realm's report, or the same for a call made without one). */
export interface RunOutcome {
  ok: boolean;
  value?: unknown;
  error?: RunError;
}

export interface Run {
  token: string;
  runId: string;
  deadline: number;
  /** When Playwright's waits end: a margin before the deadline (run-waits.ts). */
  waitUntil: number;
  over: boolean;
  console: ConsoleEntry[];
  artifacts: ArtifactInfo[];
  warnings: Warning[];
  done: (outcome: RunOutcome) => void;
  /** Browser calls in flight for this run, each with what it waits for (named when the budget runs out). */
  inflight: Map<Promise<unknown>, string>;
  /** Stops waiting for the snippet (run.cancel, or its session closing); it is cut off like a timed-out one. */
  stop: (why: "cancelled" | "closing") => void;
  /** What the network guard refused during the run. */
  blocked: BlockedCollector;
  /** Messages of the documented bounds this run hit (pages…), so one the snippet lets through keeps its code. */
  limits: Set<string>;
}
