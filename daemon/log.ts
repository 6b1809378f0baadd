// The daemon's one logger: lines go to its own log file (rotated once past
// 4 MiB), each passed through the redaction hook first.
import { closeSync, fstatSync, renameSync, writeSync } from "node:fs";
import { openPrivateFile } from "../shared/secure-fs.js";

export const MAX_LOG_BYTES = 4 * 1024 * 1024;

export type Redact = (text: string) => string;

export class Logger {
  private fd: number;
  private bytes: number;
  private redact: Redact = (t) => t;

  constructor(readonly file: string, private readonly maxBytes: number = MAX_LOG_BYTES) {
    this.fd = openPrivateFile(file);
    this.bytes = fstatSync(this.fd).size;
  }

  /** The fd to hand a child process as its stdout/stderr. */
  get descriptor(): number {
    return this.fd;
  }

  setRedaction(redact: Redact): void {
    this.redact = redact;
  }

  write(line: string): void {
    const text = `${new Date().toISOString()} daemon[${process.pid}] ${this.redact(line)}\n`;
    try {
      if (this.bytes + text.length > this.maxBytes) this.rotate();
      this.bytes += writeSync(this.fd, text);
    } catch {
      // A full disk must not take the daemon down with it.
    }
  }

  private rotate(): void {
    closeSync(this.fd);
    renameSync(this.file, `${this.file}.1`);
    this.fd = openPrivateFile(this.file);
    this.bytes = 0;
  }

  close(): void {
    try { closeSync(this.fd); } catch { /* already closed */ }
  }
}
