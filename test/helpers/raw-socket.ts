// A raw NDJSON connection to a daemon's socket, for tests that must send
// what no well-behaved client would: write anything, read replies line by line.
import net from "node:net";
import { PACKAGE_VERSION, PROTOCOL_VERSION } from "../../shared/version.js";

export interface Reply {
  jsonrpc: string;
  id: number | string | null;
  result?: any;
  error?: { code: number; message: string; data?: { code: string; retryable: boolean } };
}

/** A raw NDJSON connection: write anything, read replies line by line. */
export class RawConnection {
  private buffer = "";
  private readonly lines: string[] = [];
  private waiter: (() => void) | undefined;
  private nextId = 1;
  closed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffer += chunk.toString("utf8");
      let newline: number;
      while ((newline = this.buffer.indexOf("\n")) !== -1) {
        this.lines.push(this.buffer.slice(0, newline));
        this.buffer = this.buffer.slice(newline + 1);
      }
      this.waiter?.();
    });
    socket.on("close", () => {
      this.closed = true;
      this.waiter?.();
    });
    socket.on("error", () => {});
  }

  static open(socketPath: string): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(socketPath);
      socket.once("connect", () => resolve(new RawConnection(socket)));
      socket.once("error", reject);
    });
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  async next(ms = 5_000): Promise<Reply> {
    const until = Date.now() + ms;
    while (this.lines.length === 0) {
      if (this.closed) throw new Error("connection closed before a reply");
      if (Date.now() > until) throw new Error("no reply in time");
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        setTimeout(resolve, 50);
      });
    }
    return JSON.parse(this.lines.shift()!) as Reply;
  }

  async request(method: string, params?: unknown): Promise<Reply> {
    const id = this.nextId++;
    this.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) })}\n`);
    const reply = await this.next();
    if (reply.id !== id) throw new Error(`reply to ${String(reply.id)} where ${id} was expected`);
    return reply;
  }

  hello(clientVersion = PACKAGE_VERSION): Promise<Reply> {
    return this.request("daemon.hello", { clientVersion, protocol: PROTOCOL_VERSION, settings: {} });
  }

  close(): void {
    this.socket.destroy();
  }
}
