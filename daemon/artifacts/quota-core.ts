// The quota decisions, pure: given what is on disk, what is reserved and what
// is pinned, may `bytes` more be written, and which files go first? The file
// system shell (artifact-store.ts) feeds it facts and applies its plan. The
// invariant it keeps: files + reservations never exceed a session's cap or the
// global cap, a protected file is never chosen, and only the requesting
// profile's files are.
import type { ArtifactCaps, ArtifactKind } from "../../shared/protocol/methods/artifacts.js";

export interface StoredFile {
  /** Path relative to the artifacts root: `<profile>/<session>/<name>`. */
  rel: string;
  profile: string;
  session: string;
  bytes: number;
  createdAtMs: number;
}

export interface Reservation {
  id: string;
  profile: string;
  session: string;
  kind: ArtifactKind;
  /** The path the writer was given, relative to the root. */
  rel: string;
  bytes: number;
  /** The daemon that holds it; a dead daemon's reservations are dropped. */
  pid: number;
  runId: string;
  expiresAtMs: number;
}

export interface Pin {
  rel: string;
  untilMs: number;
}

/** The shared state every daemon reads and writes under the store lock. */
export interface Ledger {
  reservations: Reservation[];
  pins: Pin[];
}

export interface SpaceRequest {
  profile: string;
  session: string;
  kind: ArtifactKind;
  /** The size the file may reach (checked against the per-file cap). */
  fileBytes: number;
  /** Bytes not yet accounted anywhere (for a grown reservation: the growth). */
  addBytes: number;
}

export type CapName = "file" | "session" | "global";

export type SpacePlan =
  | { ok: true; evict: StoredFile[] }
  | { ok: false; cap: CapName; message: string };

export function fileCapFor(caps: ArtifactCaps, kind: ArtifactKind): number {
  if (kind === "screenshot") return caps.screenshotCapBytes;
  if (kind === "download") return caps.downloadCapBytes;
  return caps.outputCapBytes;
}

export function emptyLedger(): Ledger {
  return { reservations: [], pins: [] };
}

/** Drops expired pins, expired reservations and those of daemons that are gone. */
export function liveLedger(ledger: Ledger, nowMs: number, isAlive: (pid: number) => boolean): Ledger {
  return {
    reservations: ledger.reservations.filter((r) => r.expiresAtMs > nowMs && isAlive(r.pid)),
    pins: ledger.pins.filter((p) => p.untilMs > nowMs),
  };
}

/** Files that may not be evicted or pruned: pinned ones and those still being written. */
export function protectedRels(ledger: Ledger, nowMs: number): Set<string> {
  const out = new Set<string>();
  for (const p of ledger.pins) if (p.untilMs > nowMs) out.add(p.rel);
  for (const r of ledger.reservations) out.add(r.rel);
  return out;
}

/** Adds pins, keeping the later expiry when a file is already pinned. */
export function withPins(ledger: Ledger, rels: readonly string[], untilMs: number): Ledger {
  const pins = new Map(ledger.pins.map((p) => [p.rel, p.untilMs]));
  for (const rel of rels) pins.set(rel, Math.max(pins.get(rel) ?? 0, untilMs));
  return { ...ledger, pins: [...pins].map(([rel, until]) => ({ rel, untilMs: until })) };
}

/** Pins set to exactly `untilMs` (a returned result: from now on, the attach window counts). */
export function repin(ledger: Ledger, rels: readonly string[], untilMs: number): Ledger {
  const set = new Set(rels);
  const pins = ledger.pins.filter((p) => !set.has(p.rel));
  for (const rel of set) pins.push({ rel, untilMs });
  return { ...ledger, pins };
}

const oldestFirst = (a: StoredFile, b: StoredFile) => a.createdAtMs - b.createdAtMs || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0);

/** A file being written is counted through its reservation, not twice. */
function countedFiles(files: readonly StoredFile[], reservations: readonly Reservation[]): StoredFile[] {
  const reserved = new Set(reservations.map((r) => r.rel));
  return files.filter((f) => !reserved.has(f.rel));
}

const sum = (items: readonly { bytes: number }[]) => items.reduce((n, i) => n + i.bytes, 0);

/** Oldest unprotected files first until `need` bytes are freed; undefined when they do not suffice. */
function pickOldest(candidates: readonly StoredFile[], need: number, skip: ReadonlySet<string>): StoredFile[] | undefined {
  const picked: StoredFile[] = [];
  let freed = 0;
  for (const file of [...candidates].sort(oldestFirst)) {
    if (freed >= need) break;
    if (skip.has(file.rel)) continue;
    picked.push(file);
    freed += file.bytes;
  }
  return freed >= need ? picked : undefined;
}

export function planSpace(input: {
  files: readonly StoredFile[];
  reservations: readonly Reservation[];
  protectedRels: ReadonlySet<string>;
  request: SpaceRequest;
  caps: ArtifactCaps;
}): SpacePlan {
  const { request, caps } = input;
  const fileCap = fileCapFor(caps, request.kind);
  if (request.fileBytes > fileCap) {
    return { ok: false, cap: "file", message: `a ${request.kind} may hold at most ${fileCap} bytes; this one needs ${request.fileBytes}` };
  }
  const files = countedFiles(input.files, input.reservations);
  const inSession = (x: { profile: string; session: string }) => x.profile === request.profile && x.session === request.session;

  const sessionFiles = files.filter(inSession);
  const sessionUsed = sum(sessionFiles) + sum(input.reservations.filter(inSession));
  const sessionNeed = sessionUsed + request.addBytes - caps.sessionCapBytes;
  let evict: StoredFile[] = [];
  if (sessionNeed > 0) {
    const picked = pickOldest(sessionFiles, sessionNeed, input.protectedRels);
    if (!picked) {
      return { ok: false, cap: "session", message: `session ${request.profile}/${request.session} would exceed its cap of ${caps.sessionCapBytes} bytes, and what it holds is too recent to evict` };
    }
    evict = picked;
  }

  const globalUsed = sum(files) + sum(input.reservations) - sum(evict);
  const globalNeed = globalUsed + request.addBytes - caps.globalCapBytes;
  if (globalNeed > 0) {
    // A profile's writes (its worker's reservations among them) make room only among its own files:
    // one profile filling the shared cap never costs another profile anything.
    const skip = new Set([...input.protectedRels, ...evict.map((f) => f.rel)]);
    const picked = pickOldest(files.filter((f) => f.profile === request.profile), globalNeed, skip);
    if (!picked) {
      return { ok: false, cap: "global", message: `the artifact store would exceed its global cap of ${caps.globalCapBytes} bytes, and what profile ${request.profile} holds is too little or too recent to evict (other profiles' files are never evicted for it)` };
    }
    evict = [...evict, ...picked];
  }
  return { ok: true, evict: evict.sort(oldestFirst) };
}

export interface Usage {
  profile: string;
  session: string;
  bytes: number;
  files: number;
}

export function usageBySession(files: readonly StoredFile[]): Usage[] {
  const map = new Map<string, Usage>();
  for (const f of files) {
    const key = `${f.profile}/${f.session}`;
    const u = map.get(key) ?? { profile: f.profile, session: f.session, bytes: 0, files: 0 };
    u.bytes += f.bytes;
    u.files += 1;
    map.set(key, u);
  }
  return [...map.values()].sort((a, b) => (a.profile + "/" + a.session < b.profile + "/" + b.session ? -1 : 1));
}

const HINT_CHARS = /[^A-Za-z0-9._-]+/g;
const MAX_HINT_CHARS = 80;

/** A fresh file name: `<kind>-<UTC stamp>-<random>[-<hint>][.<ext>]`; the hint cannot leave the folder or hide the file. */
export function artifactFileName(kind: ArtifactKind, nowMs: number, random: string, hint?: string, extension?: string): string {
  const stamp = new Date(nowMs).toISOString().replace(/[-:]/g, "").replace(/\.(\d{3})Z$/, "$1Z");
  let name = `${kind}-${stamp}-${random}`;
  const clean = (hint ?? "").replace(HINT_CHARS, "_").replace(/^[._]+/, "").replace(/\.\.+/g, ".").slice(0, MAX_HINT_CHARS).replace(/[.]+$/, "");
  if (clean) name += `-${clean}`;
  if (extension && !clean.toLowerCase().endsWith(`.${extension}`)) name += `.${extension}`;
  return name;
}

/** The kind a stored file's name declares, or "other" for files the store did not name. */
export function kindOfFile(name: string): string {
  const dash = name.indexOf("-");
  const prefix = dash === -1 ? "" : name.slice(0, dash);
  return (["screenshot", "download", "output"] as const).includes(prefix as ArtifactKind) ? prefix : "other";
}
