// The daemon's artifact quota service: what the worker's reserve/commit and
// the owner's list/prune reach, and the one step applied to every envelope
// before it is returned (spill a large result, pin what it references).
import path from "node:path";
import { BwError, toBwError } from "../../shared/protocol/errors.js";
import { readDownloadHistory } from "../../shared/download-history.js";
import type { Envelope, WorkerOutcome } from "../../shared/protocol/envelope.js";
import {
  evictionWarnings, type ArtifactCaps, type ArtifactListing, type CommitResult, type PruneResult, type ReserveResult, type SessionUsage,
} from "../../shared/protocol/methods/artifacts.js";
import { ArtifactStore, inScope, RETURNED_PIN_MS, type Scope } from "./artifact-store.js";
import { kindOfFile, protectedRels, usageBySession } from "./quota-core.js";
import { previewOf, spillText, untrustedDocument } from "./spill.js";

export interface ArtifactServiceOptions {
  artifactsRoot: string;
  profile: string;
  caps: ArtifactCaps;
  log: (line: string) => void;
  now?: () => number;
}

export class ArtifactService {
  readonly store: ArtifactStore;
  private readonly now: () => number;

  constructor(private readonly options: ArtifactServiceOptions) {
    this.now = options.now ?? Date.now;
    this.store = new ArtifactStore({ root: options.artifactsRoot, caps: options.caps, pid: process.pid, log: options.log, now: this.now });
  }

  reserve(params: { session: string; runId: string; kind: "screenshot" | "download"; bytes: number; name?: string | undefined; extension?: string | undefined; extend?: string | undefined }): Promise<ReserveResult> {
    return this.store.reserve({ ...params, profile: this.options.profile });
  }

  commit(params: { reservationId: string; discard?: boolean | undefined; pinMs?: number | undefined }): Promise<CommitResult | { discarded: true }> {
    return this.store.commit(params);
  }

  private scope(params: { session?: string | undefined; all?: boolean | undefined } | undefined): Scope {
    if (params?.all && params.session !== undefined) throw new BwError("INVALID_ARGUMENT", "give either a session or all, not both");
    return { profile: this.options.profile, session: params?.session, all: params?.all };
  }

  list(params?: { session?: string | undefined; all?: boolean | undefined }): ArtifactListing {
    const scope = this.scope(params);
    const files = this.store.scan();
    const ledger = this.store.readLedger();
    const guarded = protectedRels(ledger, this.now());
    const mine = files.filter((f) => inScope(scope, f)).sort((a, b) => a.createdAtMs - b.createdAtMs);
    const sessions: SessionUsage[] = usageBySession(mine);
    if (scope.session !== undefined) {
      const usage = sessions[0] ?? { profile: scope.profile, session: scope.session, bytes: 0, files: 0 };
      sessions.splice(0, sessions.length, { ...usage, downloads: readDownloadHistory(path.join(this.store.root, scope.profile, scope.session), this.store.root) });
    }
    return {
      root: this.store.root,
      caps: this.store.caps,
      totalBytes: files.reduce((n, f) => n + f.bytes, 0),
      reservedBytes: ledger.reservations.reduce((n, r) => n + r.bytes, 0),
      sessions,
      artifacts: mine.map((f) => ({
        profile: f.profile,
        session: f.session,
        kind: kindOfFile(path.basename(f.rel)),
        path: this.store.absolute(f.rel),
        bytes: f.bytes,
        createdAt: new Date(f.createdAtMs).toISOString(),
        protected: guarded.has(f.rel),
      })),
    };
  }

  async prune(params?: { session?: string | undefined; all?: boolean | undefined }): Promise<PruneResult> {
    const { removed, kept } = await this.store.prune(this.scope(params));
    for (const r of removed) this.options.log(`pruned artifact ${r.path} (${r.bytes} bytes)`);
    return { removed, freedBytes: removed.reduce((n, r) => n + r.bytes, 0), kept };
  }

  /** The files an outcome names that are not directly in its session's folder: a worker reporting them is not believed. */
  private strayPaths(outcome: WorkerOutcome, session: string): string[] {
    const named = [...outcome.artifacts.map((a) => a.path), ...(outcome.downloads ?? []).flatMap((d) => (d.path ? [d.path] : []))];
    const folder = `${this.options.profile}/${session}/`;
    return named.filter((file) => {
      const rel = this.store.relative(file);
      return rel === undefined || !rel.startsWith(folder) || path.join(this.store.root, rel) !== file;
    });
  }

  /** Applied to every envelope before it leaves: downloads listed, a large result spilled, referenced files pinned. */
  async finishEnvelope(envelope: Envelope, outcome: WorkerOutcome): Promise<Envelope> {
    const stray = this.strayPaths(outcome, envelope.session);
    if (stray.length > 0) {
      this.options.log(`session ${envelope.session}: the worker named files outside the session's artifact folder; its outcome was refused`);
      const { result: _dropped, downloads: _also, ...rest } = envelope;
      return { ...rest, ok: false, artifacts: [], error: { code: "INTERNAL_ERROR", message: `the browser side named ${stray.length} file(s) outside the session's artifact folder; its answer was refused`, retryable: false } };
    }
    const out: Envelope = { ...envelope };
    if (outcome.downloads?.length) out.downloads = outcome.downloads;
    const json = out.ok ? spillText(out.result) : undefined;
    if (json !== undefined) {
      delete out.result;
      out.truncated = true;
      out.preview = previewOf(json);
      try {
        const meta = { profile: out.profile, session: out.session, runId: out.runId, at: new Date(this.now()).toISOString() };
        const written = await this.store.writeNew(
          { profile: this.options.profile, session: out.session, runId: out.runId, kind: "output", name: "result", extension: "txt" },
          untrustedDocument(json, meta),
          RETURNED_PIN_MS,
        );
        out.fullOutputPath = written.path;
        out.artifacts = [...out.artifacts, { kind: "output", path: written.path, bytes: written.bytes }];
        out.warnings = [...out.warnings, ...evictionWarnings(written.evicted)];
      } catch (error) {
        const bw = toBwError(error);
        out.warnings = [...out.warnings, { code: "OUTPUT_NOT_SAVED", message: `the full result (${json.length} characters) was not saved: ${bw.message}` }];
      }
    }
    const referenced = [...out.artifacts.map((a) => a.path), ...(out.downloads ?? []).flatMap((d) => (d.path ? [d.path] : []))];
    await this.store.pinReturned(referenced).catch((error: unknown) => this.options.log(`could not pin returned artifacts: ${(error as Error).message}`));
    return out;
  }
}
