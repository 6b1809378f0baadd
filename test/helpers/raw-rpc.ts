// A raw NDJSON connection for protocol abuse: write any bytes, read whatever
// comes back, line by line. Works on a unix socket or a child's pipe.
import net from "node:net";
import type { Duplex } from "node:stream";

export interface RawReply {
  jsonrpc?: unknown;
  id?: unknown;
  result?: any;
  error?: { code: number; message: string; data?: { code: string; retryable: boolean; message?: string } };
}

export class RawConnection {
  private buffer = "";
  private readonly lines: string[] = [];
  private waiter: (() => void) | undefined;
  closed = false;
  /** Bytes received in total (replies may be large). */
  received = 0;

  constructor(readonly stream: Duplex) {
    stream.setEncoding?.("utf8");
    stream.on("data", (chunk: string) => {
      this.received += chunk.length;
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf("\n")) !== -1) {
        this.lines.push(this.buffer.slice(0, newline));
        this.buffer = this.buffer.slice(newline + 1);
      }
      this.wake();
    });
    stream.on("close", () => {
      this.closed = true;
      this.wake();
    });
    stream.on("error", () => {});
  }

  static open(socketPath: string): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(socketPath);
      socket.once("connect", () => resolve(new RawConnection(socket)));
      socket.once("error", reject);
    });
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  /** Resolves once the write is flushed to the kernel (or the stream is gone). */
  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve) => {
      if (this.stream.destroyed || !this.stream.writable) return resolve();
      this.stream.write(data, () => resolve());
    });
  }

  get pending(): number {
    return this.lines.length;
  }

  /** The next reply line, parsed; throws when none comes within `ms`. */
  async next(ms = 5_000): Promise<RawReply> {
    const until = Date.now() + ms;
    while (this.lines.length === 0) {
      if (this.closed) throw new Error("connection closed before a reply");
      const left = until - Date.now();
      if (left <= 0) throw new Error(`no reply within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return JSON.parse(this.lines.shift()!) as RawReply;
  }

  /** Sends one request and waits for its reply (which must carry its id). */
  async request(id: number | string, method: string, params?: unknown, ms?: number): Promise<RawReply> {
    await this.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) })}\n`);
    const reply = await this.next(ms);
    if (reply.id !== id) throw new Error(`expected the reply to ${id}, got ${JSON.stringify(reply).slice(0, 300)}`);
    return reply;
  }

  close(): void {
    this.stream.destroy();
  }
}
