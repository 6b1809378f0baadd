// The sessions the profile lock's holder has, in a small file beside the lock
// (`<lock>.sessions`). A daemon that stops cleanly removes it, so one found at
// start-up was left by a holder that did not (kill -9, a crash): its sessions
// come back as they were made, and each is told on its next call that its
// pages were lost (SESSION_RESET).
import { rmSync } from "node:fs";
import { SessionCreate } from "../../shared/protocol/methods/index.js";
import { readPrivateFile, writeFileAtomic } from "../../shared/secure-fs.js";
import { specOf, type SessionSpec } from "../../shared/session-settings.js";
import type { LockHolder } from "../profile-lock.js";

export interface SessionRecord {
  session: string;
  spec: SessionSpec;
}

/** What a restored session is told: who stopped holding its pages. */
export function holderGoneReason(profile: string, from: LockHolder | undefined): string {
  const who = from === undefined ? `the previous daemon for profile ${profile}` : `the ${from.kind === "daemon" ? "daemon" : "--no-daemon run"} for profile ${profile} (pid ${from.pid})`;
  return `${who} stopped unexpectedly since this session's last call`;
}

export const sessionRecordsPath = (lockPath: string) => `${lockPath}.sessions`;

export class SessionRecords {
  /** Set once the lock is held: before that (or without it, an ephemeral profile) nothing is written. */
  private file: string | undefined;
  private lastWritten = "";

  constructor(private readonly log: (line: string) => void) {}

  /** The lock is ours: reads what a holder that did not stop cleanly left, and keeps the file from now on. */
  claim(lockPath: string): SessionRecord[] {
    this.file = sessionRecordsPath(lockPath);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readPrivateFile(this.file));
    } catch {
      return []; // none (a clean stop), or unreadable: nothing to tell
    }
    const records: SessionRecord[] = [];
    for (const entry of Array.isArray(parsed) ? parsed : []) {
      try {
        const params = SessionCreate.params(entry, "record");
        records.push({ session: params.session, spec: specOf(params) });
      } catch {
        // A record this version cannot read costs that session its warning, nothing more.
      }
    }
    return records;
  }

  /** The sessions held now; a failed write (a full disk) costs only the warnings after a crash. */
  write(records: SessionRecord[]): void {
    if (this.file === undefined) return;
    const text = JSON.stringify(records.map(({ session, spec }) => ({ session, isolated: spec.isolated, settings: spec.settings, ...(spec.state === undefined ? {} : { state: spec.state }) })));
    if (text === this.lastWritten) return;
    try {
      writeFileAtomic(this.file, `${text}\n`);
      this.lastWritten = text;
    } catch (error) {
      this.log(`cannot record the sessions in ${this.file}: ${(error as Error).message}`);
    }
  }

  /** A clean stop: nothing was lost. */
  remove(): void {
    if (this.file !== undefined) rmSync(this.file, { force: true });
    this.file = undefined;
  }
}
