// JSON-RPC 2.0 over NDJSON on any duplex stream (unix socket, worker pipe),
// both directions on one connection. Handlers come from a registry of
// declared methods; every error leaves as {code, message, data: {code, retryable}}
// and comes back as a BwError.
import type { Duplex } from "node:stream";
import {
  JSONRPCClient,
  JSONRPCErrorException,
  JSONRPCServer,
  JSONRPCServerAndClient,
  type JSONRPCResponse,
} from "json-rpc-2.0";
import { errorText, isOwnRealmError } from "./error-text.js";
import { BwError, RPC_ERROR_CODE, toBwError } from "./errors.js";
import { isStorageFailure, storageError } from "../fs-problem.js";
import { createLineReader, encodeFrame, MAX_FRAME_BYTES, MAX_FRAME_DEPTH, nestsDeeperThan } from "./framing.js";
import type { AnyMethod, MethodDecl } from "./methods/index.js";
import { errorFromRpc, type RpcCaller } from "./rpc-client.js";

export { errorFromRpc };

export type Handler<P, R, C> = (params: P, context: C) => R | Promise<R>;

/** A set of methods one side serves; built once, shared by every connection. */
export class MethodRegistry<C> {
  private readonly handlers = new Map<string, { decl: AnyMethod; handler: Handler<any, any, C> }>();
  private gate: ((method: string, context: C) => void) | undefined;

  /** A check run before every handler (e.g. "hello first"); it throws to refuse. */
  beforeEach(gate: (method: string, context: C) => void): this {
    this.gate = gate;
    return this;
  }

  define<P, R>(decl: MethodDecl<P, R>, handler: Handler<P, R, C>): this {
    if (this.handlers.has(decl.name)) throw new Error(`method ${decl.name} defined twice`);
    this.handlers.set(decl.name, { decl, handler });
    return this;
  }

  has(name: string): boolean {
    return this.handlers.has(name);
  }

  install(server: JSONRPCServer<C>, onInternal: (method: string, error: BwError) => void): void {
    for (const [name, { decl, handler }] of this.handlers) {
      server.addMethod(name, async (params: unknown, context: C) => {
        try {
          this.gate?.(name, context);
          return await handler(decl.params(params, "params"), context);
        } catch (error) {
          // An fs error may arrive bare or already wrapped as an internal error.
          const raw = error instanceof BwError && error.code === "INTERNAL_ERROR" ? error.cause : error;
          const bw = isStorageFailure(raw) ? storageError(raw) : toBwError(error);
          if (bw.code === "INTERNAL_ERROR") onInternal(name, bw);
          throw new JSONRPCErrorException(bw.message, RPC_ERROR_CODE, bw.toJSON());
        }
      });
    }
  }
}

function protocolError(id: unknown, message: string, code: number): JSONRPCResponse {
  const shape = { code: "INVALID_ARGUMENT", message, retryable: false };
  return { jsonrpc: "2.0", id: (typeof id === "string" || typeof id === "number" ? id : null), error: { code, message, data: shape } };
}

/** Replies queued for a peer that does not read them; past this the connection is dropped. */
export const MAX_WRITE_BACKLOG_BYTES = 4 * MAX_FRAME_BYTES;

export interface PeerOptions<C> {
  registry?: MethodRegistry<C>;
  context: C;
  maxFrameBytes?: number;
  log?: (message: string) => void;
  /** A frame past the bound was dropped unread (whatever it answered stays unanswered). */
  onOversize?: () => void;
}

/** One connection: serves `registry` to the other side and calls the other side's methods. */
export class RpcPeer<C = void> implements RpcCaller {
  private readonly rpc: JSONRPCServerAndClient<C, void>;
  private closed = false;
  private closeReason: BwError | undefined;
  private readonly closeListeners = new Set<(reason: BwError) => void>();

  constructor(private readonly stream: Duplex, private readonly options: PeerOptions<C>) {
    const log = options.log ?? (() => {});
    const server = new JSONRPCServer<C>({ errorListener: () => {} });
    options.registry?.install(server, (method, error) => log(`internal error in ${method}: ${errorText(error)}`));
    // Unknown methods and stray throws get a stable code, like any other refusal.
    // A handler's own error (already mapped by the registry) keeps its code.
    server.mapErrorToJSONRPCErrorResponse = (id, error) =>
      (error instanceof JSONRPCErrorException
        ? { jsonrpc: "2.0", id, error: { code: error.code, message: error.message, data: error.data } }
        : protocolError(id, isOwnRealmError(error) ? error.message : errorText(error), -32603)) as never;
    // A notification gets no reply, not even "unknown method" (JSON-RPC 2.0, section 4.1).
    server.handleMethodNotFound = async (request) =>
      request.id === undefined ? null : protocolError(request.id, `unknown method ${JSON.stringify(request.method).slice(0, 100)}`, -32601);
    const client = new JSONRPCClient<void>((request) => {
      this.write(request);
    });
    this.rpc = new JSONRPCServerAndClient(server, client, { errorListener: () => {} });

    const feed = createLineReader(
      {
        line: (text) => this.receive(text),
        oversize: (bytes) => {
          this.write(protocolError(null, `frame larger than ${options.maxFrameBytes ?? MAX_FRAME_BYTES} bytes (${bytes}+)`, -32600));
          options.onOversize?.();
        },
      },
      options.maxFrameBytes,
    );
    stream.on("data", (chunk: Buffer) => feed(chunk));
    stream.on("error", (error) => log(`connection error: ${error.message}`));
    stream.on("close", () => this.markClosed(new BwError("DAEMON_UNAVAILABLE", "connection closed")));
  }

  private receive(text: string): void {
    // Before parsing: a depth bomb costs JSON.parse seconds and JSON.stringify a RangeError.
    if (nestsDeeperThan(text, MAX_FRAME_DEPTH)) {
      this.write(protocolError(null, `frame nests deeper than ${MAX_FRAME_DEPTH} levels`, -32600));
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.write(protocolError(null, "frame is not valid JSON", -32700));
      return;
    }
    if (message === null || typeof message !== "object" || Array.isArray(message)) {
      this.write(protocolError(null, "frame must be one JSON-RPC object", -32600));
      return;
    }
    const m = message as Record<string, unknown>;
    // An id is a string, a finite number or null; anything else could not even be echoed back.
    if ("id" in m && !(m.id === null || typeof m.id === "string" || (typeof m.id === "number" && Number.isFinite(m.id)))) {
      this.write(protocolError(null, "frame has an id that is not a string, a number or null", -32600));
      return;
    }
    const isRequest = typeof m.method === "string" && !("result" in m) && !("error" in m);
    const isResponse = !("method" in m) && ("result" in m || "error" in m) && m.jsonrpc === "2.0";
    if (!isRequest && !isResponse) {
      this.write(protocolError(m.id, "frame is neither a request nor a response", -32600));
      return;
    }
    if (isRequest && (m.jsonrpc !== "2.0" || (m.params !== undefined && (m.params === null || typeof m.params !== "object")))) {
      this.write(protocolError(m.id, "malformed JSON-RPC request", -32600));
      return;
    }
    this.rpc.receiveAndSend(message, this.options.context, undefined).catch((error: unknown) => {
      this.options.log?.(`dispatch failed: ${(error as Error).message}`);
    });
  }

  private write(message: unknown): void {
    if (this.closed || this.stream.destroyed || !this.stream.writable) return;
    this.stream.write(this.boundedFrame(message));
    // A peer that keeps asking and never reads its replies is cut off, not buffered without end.
    if (this.stream.writableLength > MAX_WRITE_BACKLOG_BYTES) {
      this.options.log?.(`connection dropped: ${this.stream.writableLength} bytes of replies unread`);
      this.stream.destroy();
    }
  }

  /**
   * The frame for `message`, never past the bound the other side's reader
   * enforces (it would drop it, and a caller would wait for nothing): a reply
   * too large becomes a LIMIT_EXCEEDED error for its id; a request too large
   * throws, which fails that call.
   */
  private boundedFrame(message: unknown): string {
    const max = this.options.maxFrameBytes ?? MAX_FRAME_BYTES;
    let frame: string | undefined;
    try {
      frame = encodeFrame(message);
    } catch {
      // Past V8's longest string: certainly over the bound.
    }
    if (frame !== undefined && (frame.length * 3 < max || Buffer.byteLength(frame) <= max)) return frame;
    const m = message as { id?: unknown; method?: unknown };
    const problem = `a ${m.method === undefined ? "reply" : `${String(m.method)} request`} larger than the ${max}-byte frame bound was not sent`;
    this.options.log?.(problem);
    if (m.method !== undefined || !(typeof m.id === "string" || typeof m.id === "number")) throw new BwError("LIMIT_EXCEEDED", problem);
    const shape = new BwError("LIMIT_EXCEEDED", problem).toJSON();
    return encodeFrame({ jsonrpc: "2.0", id: m.id, error: { code: RPC_ERROR_CODE, message: problem, data: shape } });
  }

  /** Calls a declared method on the other side; errors come back as BwError. */
  async call<P, R>(decl: MethodDecl<P, R>, params: P, timeoutMs?: number): Promise<R> {
    if (this.closed) throw new BwError("DAEMON_UNAVAILABLE", "connection closed");
    const requester = timeoutMs === undefined ? this.rpc : this.rpc.timeout(timeoutMs);
    let result: unknown;
    try {
      result = await requester.request(decl.name, (params ?? {}) as never, undefined);
    } catch (error) {
      throw this.closeReason ?? errorFromRpc(error);
    }
    if (!decl.checkResult) return result as R;
    try {
      return decl.checkResult(result, "result");
    } catch (error) {
      // The other side answered outside its declaration: nothing of it is passed on.
      const problem = error instanceof BwError ? error.message : String(error);
      this.options.log?.(`${decl.name}: malformed result (${problem})`);
      throw new BwError("INTERNAL_ERROR", `${decl.name} returned a malformed result: ${problem}`);
    }
  }

  notify<P>(decl: MethodDecl<P, unknown>, params: P): void {
    this.rpc.notify(decl.name, (params ?? {}) as never, undefined);
  }

  onClose(listener: (reason: BwError) => void): () => void {
    if (this.closed) listener(new BwError("DAEMON_UNAVAILABLE", "connection closed"));
    else this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private markClosed(reason: BwError): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    this.rpc.rejectAllPendingRequests(reason.message);
    for (const listener of this.closeListeners) listener(reason);
    this.closeListeners.clear();
  }

  close(): void {
    this.markClosed(new BwError("DAEMON_UNAVAILABLE", "connection closed"));
    this.stream.end();
  }
}
