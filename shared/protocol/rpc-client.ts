// The calling side of JSON-RPC 2.0 over NDJSON, for connections that only
// call (CLI and library clients). It shares framing and error mapping with
// RpcPeer but not the json-rpc-2.0 package, whose load (~20 ms) would
// dominate a warm `betterwright exec`; the daemon and worker, which serve,
// keep RpcPeer.
import type { Duplex } from "node:stream";
import { BwError, isErrorCode, type ErrorShape } from "./errors.js";
import { createLineReader, encodeFrame } from "./framing.js";
import type { MethodDecl } from "./methods/declare.js";

/** What a caller needs from a connection, whichever class provides it. */
export interface RpcCaller {
  call<P, R>(decl: MethodDecl<P, R>, params: P, timeoutMs?: number): Promise<R>;
  onClose(listener: (reason: BwError) => void): () => void;
  close(): void;
  readonly isClosed: boolean;
}

export function errorFromRpc(error: unknown): BwError {
  if (error instanceof BwError) return error;
  const data = (error as { data?: Partial<ErrorShape> } | undefined)?.data;
  if (data && isErrorCode(data.code)) {
    return new BwError(data.code, String((error as Error).message ?? data.message ?? ""), {
      retryable: Boolean(data.retryable),
      details: data.details,
    });
  }
  return new BwError("INTERNAL_ERROR", error instanceof Error ? error.message : String((error as { message?: unknown })?.message ?? error));
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: BwError): void;
  timer?: NodeJS.Timeout;
}

export class RpcClient implements RpcCaller {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closeReason: BwError | undefined;
  private readonly closeListeners = new Set<(reason: BwError) => void>();

  constructor(private readonly stream: Duplex) {
    const feed = createLineReader({
      line: (text) => this.receive(text),
      oversize: () => this.fail(new BwError("INTERNAL_ERROR", "the daemon sent a frame over the size limit")),
    });
    stream.on("data", (chunk: Buffer) => feed(chunk));
    stream.on("error", () => {});
    stream.on("close", () => this.fail(new BwError("DAEMON_UNAVAILABLE", "connection closed")));
  }

  private receive(text: string): void {
    let message: { id?: unknown; result?: unknown; error?: { message?: string; data?: unknown } };
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    const pending = typeof message?.id === "number" ? this.pending.get(message.id) : undefined;
    if (!pending) return;
    this.pending.delete(message.id as number);
    clearTimeout(pending.timer);
    if (message.error) pending.reject(errorFromRpc(message.error));
    else pending.resolve(message.result);
  }

  call<P, R>(decl: MethodDecl<P, R>, params: P, timeoutMs?: number): Promise<R> {
    if (this.closeReason) return Promise.reject(this.closeReason);
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      const pending: Pending = { resolve: resolve as (v: unknown) => void, reject };
      if (timeoutMs !== undefined) {
        pending.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new BwError("DAEMON_UNAVAILABLE", `no answer to ${decl.name} within ${timeoutMs} ms`));
        }, timeoutMs);
      }
      this.pending.set(id, pending);
      this.stream.write(encodeFrame({ jsonrpc: "2.0", id, method: decl.name, params: params ?? {} }));
    });
  }

  private fail(reason: BwError): void {
    if (this.closeReason) return;
    this.closeReason = reason;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(reason);
      this.pending.delete(id);
    }
    for (const listener of this.closeListeners) listener(reason);
    this.closeListeners.clear();
  }

  onClose(listener: (reason: BwError) => void): () => void {
    if (this.closeReason) listener(this.closeReason);
    else this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  get isClosed(): boolean {
    return this.closeReason !== undefined;
  }

  close(): void {
    this.fail(new BwError("DAEMON_UNAVAILABLE", "connection closed"));
    this.stream.end();
  }
}
