// What `serve` keeps of its sessions, under `serve/profiles/<profile>/` in the
// home: one JSON record per session id (the reference API's Session, plus its
// PDFs and its latest rejected downloads) and the accepted PDFs themselves.
// They outlive serve and the daemon; the browser state is the daemon's
// (saved states, sealed with the vault key). Folders 0700, files 0600, never
// written through a link.
import { readdirSync } from "node:fs";
import path from "node:path";
import { ensurePrivateDir, readPrivateFile, writeFileAtomic } from "../../../shared/secure-fs.js";
import { serveDir } from "./token.js";
import { isSessionId } from "./uuid.js";

export type SessionStatus = "active" | "closed" | "error";

/** The reference API's Session. */
export interface SessionView {
  id: string;
  title: string;
  url: string;
  status: SessionStatus;
  updatedAt: string;
}

export interface PdfRecord {
  id: string;
  name: string;
  size: number;
  mimeType: "application/pdf";
  createdAt: string;
}

export interface FailureRecord {
  id: string;
  name: string;
  code: string;
  message: string;
  createdAt: string;
}

export interface SessionRecord extends SessionView {
  createdAt: string;
  /** A state was saved for it (at a close): the next open starts from it. */
  saved: boolean;
  /** Its opener let people drive it from the live view (hand-off), for as long as it is open. */
  handoff?: boolean;
  downloads: PdfRecord[];
  /** The latest rejected downloads, newest last. */
  failures: FailureRecord[];
  /** Download outcome ids already taken in (accepted or not), newest last. */
  seen: string[];
}

export const MAX_FAILURES = 100;
const MAX_SEEN = 400;

export function viewOf(record: SessionRecord): SessionView {
  const { id, title, url, status, updatedAt } = record;
  return { id, title, url, status, updatedAt };
}

function isRecord(value: unknown, id: string): value is SessionRecord {
  const r = value as Partial<SessionRecord> | null;
  return r !== null && typeof r === "object" && r.id === id && typeof r.title === "string" && typeof r.url === "string"
    && (r.status === "active" || r.status === "closed" || r.status === "error") && typeof r.updatedAt === "string"
    && Array.isArray(r.downloads) && Array.isArray(r.failures) && Array.isArray(r.seen);
}

export class RecordStore {
  readonly root: string;

  constructor(readonly home: string, profile: string) {
    this.root = path.join(serveDir(home), "profiles", profile);
  }

  private sessionsDir(): string {
    return path.join(this.root, "sessions");
  }

  /** Where a session's accepted PDFs are kept. */
  downloadsDir(id: string): string {
    return path.join(this.root, "downloads", id);
  }

  fresh(id: string, now: string): SessionRecord {
    return { id, title: "", url: "about:blank", status: "closed", updatedAt: now, createdAt: now, saved: false, downloads: [], failures: [], seen: [] };
  }

  /** Every record on disk; an unreadable or malformed one is left out (and left alone). */
  loadAll(): SessionRecord[] {
    let names: string[];
    try {
      names = readdirSync(this.sessionsDir());
    } catch {
      return [];
    }
    const out: SessionRecord[] = [];
    for (const name of names) {
      const id = name.replace(/\.json$/, "");
      if (!name.endsWith(".json") || !isSessionId(id)) continue;
      try {
        const value: unknown = JSON.parse(readPrivateFile(path.join(this.sessionsDir(), name)));
        if (isRecord(value, id)) out.push({ ...value, saved: value.saved === true });
      } catch {
        // not ours to repair
      }
    }
    return out;
  }

  save(record: SessionRecord): void {
    record.failures = record.failures.slice(-MAX_FAILURES);
    record.seen = record.seen.slice(-MAX_SEEN);
    ensurePrivateDir(this.home);
    ensurePrivateDir(this.sessionsDir(), this.home);
    writeFileAtomic(path.join(this.sessionsDir(), `${record.id}.json`), `${JSON.stringify(record)}\n`);
  }
}
