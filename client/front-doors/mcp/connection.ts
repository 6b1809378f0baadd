// One MCP connection's session: its own, named after the client and made on
// first use (isolated with --isolated), or the one --session names. The
// connection's own session is closed when the connection ends; a session a
// tool or --session named lives on under the daemon's TTL.
import type { BetterWright, CreateSessionOptions } from "../../index.js";
import { BwError } from "../../../shared/protocol/errors.js";
import { AnswerPages } from "./answer-pages.js";

export interface ConnectionOptions {
  /** --session: every connection's default session, shared and never closed by us. */
  session?: string;
  /** --isolated: each connection's own session has its own browser context. */
  isolated: boolean;
}

/** `mcp-<client>-<hex>`: a valid session name (shared/names.ts) that says where it came from. */
export function connectionSessionName(clientName: string | undefined, suffix: string): string {
  const slug = (clientName ?? "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 24).replace(/-+$/, "");
  return slug.length > 0 ? `mcp-${slug}-${suffix}` : `mcp-${suffix}`;
}

export class McpConnection {
  /** Answers too long for one reply, read on with `more`. */
  readonly answers = new AnswerPages();
  private ownName: string | undefined;
  /** Whether the connection's own session may exist (something ran in it), so closing it is worth a call. */
  private ownUsed = false;
  private closed = false;

  constructor(
    private readonly bw: BetterWright,
    private readonly options: ConnectionOptions,
    /** The client's name from the MCP handshake, once known. */
    private readonly clientName: () => string | undefined,
    private readonly suffix: string,
  ) {}

  /** The session tools use when they name none. */
  get session(): string {
    if (this.options.session !== undefined) return this.options.session;
    this.ownName ??= connectionSessionName(this.clientName(), this.suffix);
    return this.ownName;
  }

  /** Whether `session` is this connection's own (made for it, closed with it). */
  isOwn(session: string): boolean {
    return this.options.session === undefined && session === this.session;
  }

  /**
   * Before a call runs in `session`: how the call makes the connection's own isolated session if it does not
   * exist (first use, or again after a daemon restart or the TTL). It travels with the call, not as a call of its own.
   */
  prepare(session: string): { create?: CreateSessionOptions } {
    if (this.closed) throw new BwError("SESSION_CLOSING", "this MCP connection is closing");
    if (!this.isOwn(session)) return {};
    this.ownUsed = true;
    return this.options.isolated ? { create: { isolated: true } } : {};
  }

  /** A tool closed the connection's own session: nothing is left to close at the end. */
  forget(session: string): void {
    if (this.isOwn(session)) this.ownUsed = false;
  }

  /** The connection ended: its own session goes, named ones stay. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownUsed && this.ownName !== undefined) await this.bw.closeSession(this.ownName).catch(() => false);
  }
}
