// The file-system shell around quota-core: scans `artifacts/<profile>/<session>/`,
// keeps the shared ledger (reservations and pins) in `artifacts/.quota-ledger.json`,
// and applies plans (evictions) under the cross-process store lock. Every
// regular file of a session's folder counts, dot-files included (the worker
// writes these folders). Below the root nothing is read, written or removed
// through a link (shared/below-root.ts): a session folder the worker swapped
// for one is skipped, never followed.
import { randomBytes } from "node:crypto";
import { closeSync, lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { openDirBelow, pathInOpenDir, sizeBelow, unlinkBelow, writeBelow } from "../../shared/below-root.js";
import { BwError } from "../../shared/protocol/errors.js";
import { nameProblem } from "../../shared/names.js";
import type { ArtifactCaps, ArtifactKind, CommitResult, EvictedArtifact, ReserveResult } from "../../shared/protocol/methods/artifacts.js";
import { ensurePrivateDir, readPrivateFile, writeFileAtomic } from "../../shared/secure-fs.js";
import {
  artifactFileName, emptyLedger, fileCapFor, liveLedger, planSpace, protectedRels, repin, withPins,
  type Ledger, type Reservation, type StoredFile,
} from "./quota-core.js";
import { withStoreLock } from "./store-lock.js";
import { isProcessAlive } from "../../shared/process-alive.js";

/** A reservation not grown or committed within this long is forgotten (its writer died). */
export const RESERVATION_TTL_MS = 120_000;
/** What a file referenced by a returned result keeps: the run.attach window. */
export const RETURNED_PIN_MS = 60_000;
const LOCK_WAIT_MS = 5_000;
const LEDGER_FILE = ".quota-ledger.json";
const LOCK_DIR = ".quota.lock";

export interface StoreOptions {
  root: string;
  caps: ArtifactCaps;
  /** This daemon: its reservations die with it. */
  pid: number;
  log: (line: string) => void;
  now?: () => number;
  isAlive?: (pid: number) => boolean;
}

export interface ReserveRequest {
  profile: string;
  session: string;
  runId: string;
  kind: ArtifactKind;
  bytes: number;
  name?: string | undefined;
  extension?: string | undefined;
  extend?: string | undefined;
}

export interface Scope {
  profile: string;
  session?: string | undefined;
  all?: boolean | undefined;
}


function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isRealDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The regular files of a session's folder, opened without following a link: none when it is not a real folder of ours. */
function filesOf(root: string, dir: string): { name: string; bytes: number; mtimeMs: number }[] {
  let fd: number;
  try {
    fd = openDirBelow(root, dir);
  } catch {
    return [];
  }
  try {
    const out: { name: string; bytes: number; mtimeMs: number }[] = [];
    const inDir = pathInOpenDir(fd, "", dir);
    for (const name of listDir(inDir)) {
      try {
        const st = lstatSync(path.join(inDir, name));
        if (st.isFile()) out.push({ name, bytes: st.size, mtimeMs: st.mtimeMs });
      } catch {
        // Removed while we looked.
      }
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

export function inScope(scope: Scope, x: { profile: string; session: string }): boolean {
  if (scope.all) return true;
  if (x.profile !== scope.profile) return false;
  return scope.session === undefined || x.session === scope.session;
}

export class ArtifactStore {
  readonly root: string;
  private readonly now: () => number;
  private readonly isAlive: (pid: number) => boolean;
  /** The end of this daemon's queue for the store lock. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: StoreOptions) {
    this.root = options.root;
    this.now = options.now ?? Date.now;
    this.isAlive = options.isAlive ?? isProcessAlive;
  }

  get caps(): ArtifactCaps {
    return this.options.caps;
  }

  /** Every regular file two levels down, oldest first by modification time. */
  scan(): StoredFile[] {
    const files: StoredFile[] = [];
    for (const profile of listDir(this.root)) {
      if (profile.startsWith(".") || (profile !== "default" && nameProblem(profile, "profile"))) continue;
      const profileDir = path.join(this.root, profile);
      if (!isRealDir(profileDir)) continue;
      for (const session of listDir(profileDir)) {
        if (nameProblem(session, "session")) continue;
        for (const file of filesOf(this.root, path.join(profileDir, session))) {
          files.push({ rel: `${profile}/${session}/${file.name}`, profile, session, bytes: file.bytes, createdAtMs: file.mtimeMs });
        }
      }
    }
    return files;
  }

  readLedger(): Ledger {
    try {
      const raw = JSON.parse(readPrivateFile(path.join(this.root, LEDGER_FILE))) as Partial<Ledger>;
      const ledger = { reservations: Array.isArray(raw.reservations) ? raw.reservations : [], pins: Array.isArray(raw.pins) ? raw.pins : [] };
      return liveLedger(ledger, this.now(), this.isAlive);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.options.log(`artifact ledger unreadable, starting afresh: ${(error as Error).message}`);
      return emptyLedger();
    }
  }

  private writeLedger(ledger: Ledger): void {
    writeFileAtomic(path.join(this.root, LEDGER_FILE), `${JSON.stringify(ledger)}\n`);
  }

  private locked<T>(body: () => T): Promise<T> {
    const take = (): Promise<T> => {
      // The store's parent (the home) is checked at the daemon's start; the store and its folders are ours alone.
      ensurePrivateDir(this.root, path.dirname(this.root));
      return withStoreLock({
        target: this.root,
        lockPath: path.join(this.root, LOCK_DIR),
        waitMs: LOCK_WAIT_MS,
        onCompromised: (error) => this.options.log(`artifact store lock compromised: ${error.message}`),
      }, body);
    };
    // This daemon's own calls take turns before the cross-process lock: twenty downloads
    // reserving at once would otherwise each spin on its retry backoff, and every
    // millisecond a reservation is late their bytes count against the shared slack.
    const mine = this.turn.then(take, take);
    this.turn = mine.catch(() => undefined);
    return mine;
  }

  absolute(rel: string): string {
    return path.join(this.root, ...rel.split("/"));
  }

  /** The store-relative form of an absolute path inside it, or undefined. */
  relative(abs: string): string | undefined {
    const rel = path.relative(this.root, abs);
    if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return undefined;
    const parts = rel.split(path.sep);
    return parts.length === 3 ? parts.join("/") : undefined;
  }

  private evict(files: StoredFile[]): EvictedArtifact[] {
    const evicted: EvictedArtifact[] = [];
    for (const f of files) {
      this.remove(f.rel);
      this.options.log(`evicted artifact ${f.rel} (${f.bytes} bytes)`);
      evicted.push({ path: this.absolute(f.rel), profile: f.profile, session: f.session, bytes: f.bytes, createdAt: new Date(f.createdAtMs).toISOString() });
    }
    return evicted;
  }

  /** Removes a stored file through no link; a folder swapped for one keeps what it leads to. */
  private remove(rel: string): void {
    try {
      unlinkBelow(this.root, this.absolute(rel));
    } catch (error) {
      this.options.log(`artifact ${rel} not removed: ${(error as Error).message}`);
    }
  }

  private refuse(message: string, cap: string): never {
    throw new BwError("QUOTA_EXCEEDED", message, { details: { cap } });
  }

  reserve(request: ReserveRequest): Promise<ReserveResult> {
    return this.locked(() => {
      const now = this.now();
      let ledger = this.readLedger();
      const existing = request.extend === undefined ? undefined : ledger.reservations.find((r) => r.id === request.extend && r.pid === this.options.pid);
      if (request.extend !== undefined && !existing) throw new BwError("INVALID_ARGUMENT", `no reservation ${request.extend} (expired or committed)`);
      if (existing && (existing.profile !== request.profile || existing.session !== request.session || existing.kind !== request.kind)) {
        throw new BwError("INVALID_ARGUMENT", `reservation ${existing.id} belongs to another session or kind`);
      }
      const plan = planSpace({
        files: this.scan(),
        reservations: ledger.reservations,
        protectedRels: protectedRels(ledger, now),
        request: { profile: request.profile, session: request.session, kind: request.kind, fileBytes: request.bytes, addBytes: Math.max(0, request.bytes - (existing?.bytes ?? 0)) },
        caps: this.caps,
      });
      if (!plan.ok) this.refuse(plan.message, plan.cap);
      const evicted = this.evict(plan.evict);
      let reservation: Reservation;
      if (existing) {
        reservation = { ...existing, bytes: Math.max(existing.bytes, request.bytes), expiresAtMs: now + RESERVATION_TTL_MS };
        ledger = { ...ledger, reservations: ledger.reservations.map((r) => (r.id === existing.id ? reservation : r)) };
      } else {
        const name = artifactFileName(request.kind, now, randomBytes(4).toString("hex"), request.name, request.extension);
        ensurePrivateDir(path.join(this.root, request.profile, request.session), this.root);
        reservation = {
          id: randomBytes(12).toString("hex"), profile: request.profile, session: request.session, kind: request.kind,
          rel: `${request.profile}/${request.session}/${name}`, bytes: request.bytes, pid: this.options.pid, runId: request.runId,
          expiresAtMs: now + RESERVATION_TTL_MS,
        };
        ledger = { ...ledger, reservations: [...ledger.reservations, reservation] };
      }
      this.writeLedger(ledger);
      return {
        reservationId: reservation.id, path: this.absolute(reservation.rel), reservedBytes: reservation.bytes,
        fileCapBytes: fileCapFor(this.caps, request.kind), evicted,
      };
    });
  }

  commit(request: { reservationId: string; discard?: boolean | undefined; pinMs?: number | undefined }): Promise<CommitResult | { discarded: true }> {
    return this.locked(() => {
      const now = this.now();
      let ledger = this.readLedger();
      const reservation = ledger.reservations.find((r) => r.id === request.reservationId && r.pid === this.options.pid);
      if (!reservation) throw new BwError("INVALID_ARGUMENT", `no reservation ${request.reservationId} (expired or committed)`);
      const file = this.absolute(reservation.rel);
      ledger = { ...ledger, reservations: ledger.reservations.filter((r) => r !== reservation) };
      const drop = (): void => {
        this.remove(reservation.rel);
        this.writeLedger(ledger);
      };
      if (request.discard) {
        drop();
        return { discarded: true as const };
      }
      let bytes: number;
      try {
        bytes = sizeBelow(this.root, file);
      } catch (error) {
        drop();
        throw new BwError("INVALID_ARGUMENT", `nothing usable was written at ${file}: ${(error as Error).message}`);
      }
      let evicted: EvictedArtifact[] = [];
      if (bytes > reservation.bytes) {
        // The writer went past what it reserved: account the difference like a new request.
        const plan = planSpace({
          files: this.scan(),
          reservations: [...ledger.reservations, reservation],
          protectedRels: new Set([...protectedRels(ledger, now), reservation.rel]),
          request: { profile: reservation.profile, session: reservation.session, kind: reservation.kind, fileBytes: bytes, addBytes: bytes - reservation.bytes },
          caps: this.caps,
        });
        if (!plan.ok) {
          drop();
          this.refuse(plan.message, plan.cap);
        }
        evicted = this.evict(plan.evict);
      }
      ledger = withPins(ledger, [reservation.rel], now + (request.pinMs ?? RETURNED_PIN_MS));
      this.writeLedger(ledger);
      return { path: file, bytes, evicted };
    });
  }

  /** A result naming these files was returned: they stay for the attach window from now. */
  pinReturned(paths: readonly string[]): Promise<void> {
    const rels = paths.map((p) => this.relative(p)).filter((r): r is string => r !== undefined);
    if (rels.length === 0) return Promise.resolve();
    return this.locked(() => {
      this.writeLedger(repin(this.readLedger(), rels, this.now() + RETURNED_PIN_MS));
    });
  }

  /** Writes `data` as a new artifact of `kind` (the daemon's own files: spilled output). */
  async writeNew(request: Omit<ReserveRequest, "bytes" | "extend">, data: string, pinMs: number): Promise<CommitResult> {
    const bytes = Buffer.byteLength(data);
    const reserved = await this.reserve({ ...request, bytes });
    try {
      writeBelow(this.root, reserved.path, data);
    } catch (error) {
      await this.commit({ reservationId: reserved.reservationId, discard: true }).catch(() => {});
      throw error;
    }
    const committed = await this.commit({ reservationId: reserved.reservationId, pinMs });
    if ("discarded" in committed) throw new BwError("INTERNAL_ERROR", "spilled output was discarded");
    return { ...committed, evicted: [...reserved.evicted, ...committed.evicted] };
  }

  prune(scope: Scope): Promise<{ removed: { path: string; bytes: number }[]; kept: { path: string; bytes: number; reason: string }[] }> {
    return this.locked(() => {
      const ledger = this.readLedger();
      const guarded = protectedRels(ledger, this.now());
      const removed: { path: string; bytes: number }[] = [];
      const kept: { path: string; bytes: number; reason: string }[] = [];
      for (const f of this.scan()) {
        if (!inScope(scope, f)) continue;
        if (guarded.has(f.rel)) {
          kept.push({ path: this.absolute(f.rel), bytes: f.bytes, reason: "referenced by a run in flight or a result returned in the last 60 s" });
          continue;
        }
        this.remove(f.rel);
        removed.push({ path: this.absolute(f.rel), bytes: f.bytes });
      }
      this.writeLedger(ledger);
      return { removed, kept };
    });
  }
}
