// The artifact quota service. worker → daemon: `artifacts.reserve` before any
// byte is written and `artifacts.commit` once the file is complete (these two
// exist only on the worker's pipe). client → daemon: `artifacts.list` and
// `artifacts.prune` (owner methods, only on the socket). None starts a browser.
import type { ArtifactSettings } from "../../config.js";
import type { DownloadOutcome, Warning } from "../envelope.js";
import { BwError } from "../errors.js";
import { bool, custom, num, obj, optional, str } from "../validate.js";
import { declare, MAX_TIMEOUT_MS, nameParam, runIdParam } from "./declare.js";

/** What a file in the store holds; its name starts with the kind. */
export const ARTIFACT_KINDS = ["screenshot", "download", "output"] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** The last download outcomes of a session, kept next to its artifacts (a dotfile: never counted, never evicted). */
export const DOWNLOAD_HISTORY_FILE = ".downloads.jsonl";
export const DOWNLOAD_HISTORY_LIMIT = 100;

/** Larger than any cap anyone would set; keeps arithmetic exact. */
export const MAX_ARTIFACT_BYTES = 2 ** 44;

export type ArtifactCaps = ArtifactSettings;

export interface EvictedArtifact {
  path: string;
  profile: string;
  session: string;
  bytes: number;
  createdAt: string;
}

export interface ReserveResult {
  reservationId: string;
  /** Where the worker writes: a fresh name inside the session's artifact folder. */
  path: string;
  reservedBytes: number;
  /** The per-file cap for this kind, so a growing download can stop at it. */
  fileCapBytes: number;
  evicted: EvictedArtifact[];
}

/** Evictions reach the run that caused them as warnings. */
export function evictionWarnings(evicted: readonly EvictedArtifact[]): Warning[] {
  return evicted.map((e) => ({
    code: "ARTIFACT_EVICTED",
    message: `evicted ${e.path} (${e.bytes} bytes, ${e.createdAt}, ${e.profile}/${e.session}) to stay under the artifact caps`,
  }));
}

export interface CommitResult {
  path: string;
  bytes: number;
  evicted: EvictedArtifact[];
}

const reservationIdParam = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
const bytesParam = num({ min: 0, max: MAX_ARTIFACT_BYTES, integer: true });
const workerKind = custom((value, path) => {
  if (value === "screenshot" || value === "download") return value;
  throw new BwError("INVALID_ARGUMENT", `${path}: expected "screenshot" or "download"`);
});

export const ArtifactsReserve = declare<ReserveResult>()("artifacts.reserve", obj({
  session: nameParam("session"),
  runId: runIdParam,
  kind: workerKind,
  /** Total bytes the file may reach (for `extend`, the new total). */
  bytes: bytesParam,
  /** A hint for the file name (a download's suggested name); the daemon sanitises it. */
  name: optional(str({ max: 255 })),
  extension: optional(str({ max: 8, pattern: /^[a-z0-9]+$/ })),
  /** Grow an existing reservation instead of making a new one. */
  extend: optional(reservationIdParam),
}));

export const ArtifactsCommit = declare<CommitResult | { discarded: true }>()("artifacts.commit", obj({
  reservationId: reservationIdParam,
  /** Drop the reservation; the daemon removes whatever was written at its path. */
  discard: optional(bool()),
  /** How long the file must outlive eviction: the rest of the run, plus the attach window. */
  pinMs: optional(num({ min: 0, max: MAX_TIMEOUT_MS + 120_000, integer: true })),
}));

export interface ArtifactEntry {
  profile: string;
  session: string;
  kind: string;
  path: string;
  bytes: number;
  createdAt: string;
  /** Referenced by a run in flight or a result returned in the last 60 s: neither evicted nor pruned. */
  protected: boolean;
}

export interface SessionUsage {
  profile: string;
  session: string;
  bytes: number;
  files: number;
  /** The session's last download outcomes (listing one session only). */
  downloads?: DownloadOutcome[];
}

export interface ArtifactListing {
  root: string;
  caps: ArtifactCaps;
  /** Every profile's files, the whole store. */
  totalBytes: number;
  /** Bytes promised to writes in progress, every profile. */
  reservedBytes: number;
  sessions: SessionUsage[];
  artifacts: ArtifactEntry[];
}

export interface PruneResult {
  removed: { path: string; bytes: number }[];
  freedBytes: number;
  kept: { path: string; bytes: number; reason: string }[];
}

/** No field: this profile's sessions. `session`: one session of this profile. `all`: every profile. */
const scopeParams = optional(obj({
  session: optional(nameParam("session")),
  all: optional(bool()),
}));

export const ArtifactsList = declare<ArtifactListing>()("artifacts.list", scopeParams);
export const ArtifactsPrune = declare<PruneResult>()("artifacts.prune", scopeParams);
