// The guard proxy serves only the browser it was made for. Its port is on
// 127.0.0.1, which every local user can reach, and Chromium cannot authenticate
// to a SOCKS5 proxy, so the proxy asks the kernel instead: the client's socket
// must belong to this process's uid. Linux only (/proc/net); elsewhere the check
// is unavailable and the proxy says so once.
import { readFile } from "node:fs/promises";
import { endianness as hostEndianness } from "node:os";
import { findSocketOwner, tablesFor, type Endianness, type ProcNetTable } from "./peer-owner.js";

/** The text of /proc/net/<table>; injected in tests. */
export type ReadProcNet = (table: ProcNetTable) => Promise<string>;

export interface PeerCheckOptions {
  /** The only uid whose sockets are served. */
  uid: number;
  readTable: ReadProcNet;
  endianness?: Endianness;
}

/** The two ends of an accepted connection, as net.Socket names them. */
export interface PeerConnection {
  remoteAddress?: string | undefined;
  remotePort?: number | undefined;
  localAddress?: string | undefined;
  localPort?: number | undefined;
}

export type PeerVerdict = { allowed: true } | { allowed: false; reason: string };

export type PeerCheck = (connection: PeerConnection) => Promise<PeerVerdict>;

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export const readProcNet: ReadProcNet = (table) => readFile(`/proc/net/${table}`, "latin1");

/**
 * The check for a new proxy (default: this process's uid through /proc/net), or
 * why it cannot work here: no user ids, or no readable /proc/net/tcp.
 */
export async function preparePeerCheck(given?: PeerCheckOptions): Promise<{ check: PeerCheck } | { unavailable: string }> {
  const uid = given?.uid ?? process.getuid?.();
  if (uid === undefined) return { unavailable: `${process.platform} has no user ids to compare` };
  const options: PeerCheckOptions = given ?? { uid, readTable: readProcNet };
  try {
    await options.readTable("tcp");
  } catch (error) {
    return { unavailable: `/proc/net/tcp cannot be read (${messageOf(error)})` };
  }
  return { check: createPeerCheck(options) };
}

/**
 * Reads of each table that are fresh for every caller: a read already under way
 * may have passed the line of a connection accepted after it began, so a caller
 * waits for the next read, and every caller waiting shares it. At most one read
 * per table runs at a time, so a burst of connections costs two reads, not one
 * each (a read costs about 1.5 µs per socket in the namespace, TIME_WAIT included).
 */
export function freshReads(readTable: ReadProcNet): ReadProcNet {
  const running = new Map<ProcNetTable, Promise<unknown>>();
  const next = new Map<ProcNetTable, Promise<string>>();
  return (table) => {
    const queued = next.get(table);
    if (queued !== undefined) return queued;
    const previous = running.get(table);
    const turn = previous === undefined ? new Promise<void>((resolve) => setImmediate(resolve)) : previous.then(() => undefined, () => undefined);
    const read = turn.then(() => {
      next.delete(table);
      const current = readTable(table);
      const settled = current.then(() => undefined, () => undefined);
      running.set(table, settled);
      void settled.then(() => {
        if (running.get(table) === settled) running.delete(table);
      });
      return current;
    });
    next.set(table, read);
    return read;
  };
}

export function createPeerCheck(options: PeerCheckOptions): PeerCheck {
  const order = options.endianness ?? hostEndianness();
  const read = freshReads(options.readTable);

  return async ({ remoteAddress, remotePort, localAddress, localPort }) => {
    if (remoteAddress === undefined || remotePort === undefined || localAddress === undefined || localPort === undefined) {
      return { allowed: false, reason: "it closed before its peer was known" };
    }
    const peer = { address: remoteAddress, port: remotePort };
    const proxy = { address: localAddress, port: localPort };
    for (const table of tablesFor(remoteAddress)) {
      let text: string;
      try {
        text = await read(table);
      } catch (error) {
        return { allowed: false, reason: `/proc/net/${table} cannot be read (${messageOf(error)})` };
      }
      const owner = findSocketOwner(text, table, peer, proxy, order);
      if (owner === undefined) continue;
      if (owner.uid === options.uid) return { allowed: true };
      return { allowed: false, reason: `its socket belongs to uid ${owner.uid}, not to the browser's uid ${options.uid}` };
    }
    return { allowed: false, reason: "its socket is in no table of this network namespace (closed already?)" };
  };
}
