// Who owns the other end of a loopback TCP connection, from the text of Linux's
// /proc/net/tcp or /proc/net/tcp6. Pure: the caller reads the file. The client's
// socket is the line whose local address is the peer and whose remote address is
// the proxy; its `uid` column is the owner, and a zero `inode` means no process
// holds it any more (closed, or a TIME_WAIT entry, whose uid always reads 0).
import { isIPv4, isIPv6 } from "node:net";
import { parseIPv6 } from "../../../../shared/guard/proxy/socks5.js";

export type ProcNetTable = "tcp" | "tcp6";
export type Endianness = "LE" | "BE";

export interface Endpoint {
  address: string;
  port: number;
}

export interface SocketOwner {
  uid: number;
  inode: number;
}

const UID_FIELD = 7;
const INODE_FIELD = 9;

function ipv4Bytes(text: string): number[] | undefined {
  return isIPv4(text) ? text.split(".").map(Number) : undefined;
}

function ipv6Bytes(text: string): number[] | undefined {
  return isIPv6(text.split("%")[0]!) ? [...parseIPv6(text)] : undefined;
}

/**
 * How a table spells an address: the network-order bytes taken four at a time as
 * a native integer, each printed as 8 hex digits. tcp holds IPv4 sockets; tcp6 holds
 * IPv6 ones, where an IPv4 peer of a dual-stack socket appears as ::ffff:a.b.c.d.
 * Undefined when the address cannot appear in that table.
 */
export function procNetAddress(address: string, table: ProcNetTable, endianness: Endianness): string | undefined {
  let bytes: number[] | undefined;
  const v4 = ipv4Bytes(address);
  const v6 = v4 ? undefined : ipv6Bytes(address);
  if (table === "tcp") {
    const mapped = v6 && v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff ? v6.slice(12) : undefined;
    bytes = v4 ?? mapped;
  } else {
    bytes = v4 ? [...new Array<number>(10).fill(0), 0xff, 0xff, ...v4] : v6;
  }
  if (!bytes) return undefined;
  let out = "";
  for (let i = 0; i < bytes.length; i += 4) {
    const word = endianness === "LE" ? [bytes[i + 3]!, bytes[i + 2]!, bytes[i + 1]!, bytes[i]!] : bytes.slice(i, i + 4);
    out += word.map((b) => b.toString(16).toUpperCase().padStart(2, "0")).join("");
  }
  return out;
}

/** `ADDR:PORT` as the table prints it (port as 4 upper-case hex digits), or undefined. */
export function procNetEndpoint(endpoint: Endpoint, table: ProcNetTable, endianness: Endianness): string | undefined {
  const address = procNetAddress(endpoint.address, table, endianness);
  if (address === undefined || !Number.isInteger(endpoint.port) || endpoint.port < 0 || endpoint.port > 0xffff) return undefined;
  return `${address}:${endpoint.port.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * The owner of the live socket whose local end is `local` and remote end is
 * `remote`, or undefined when the table holds none (never there, closed, or only
 * a TIME_WAIT remnant). Only lines with exactly that pair in the address columns count.
 */
export function findSocketOwner(text: string, table: ProcNetTable, local: Endpoint, remote: Endpoint, endianness: Endianness): SocketOwner | undefined {
  const localText = procNetEndpoint(local, table, endianness);
  const remoteText = procNetEndpoint(remote, table, endianness);
  if (localText === undefined || remoteText === undefined) return undefined;
  // A plain substring search finds candidates without splitting every line of a large table.
  const needle = `${localText} ${remoteText} `;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    const start = text.lastIndexOf("\n", at) + 1;
    const end = text.indexOf("\n", at);
    const fields = text.slice(start, end === -1 ? undefined : end).trim().split(/\s+/);
    if (fields[1] !== localText || fields[2] !== remoteText) continue;
    const uid = Number(fields[UID_FIELD]);
    const inode = Number(fields[INODE_FIELD]);
    if (!Number.isSafeInteger(uid) || !Number.isSafeInteger(inode) || inode === 0) continue;
    return { uid, inode };
  }
  return undefined;
}

/** The tables to read for a peer, cheapest first: an IPv4 peer is almost always in tcp, a dual-stack client's in tcp6. */
export function tablesFor(peerAddress: string): ProcNetTable[] {
  return ipv4Bytes(peerAddress) || /^::ffff:\d/i.test(peerAddress) ? ["tcp", "tcp6"] : ["tcp6"];
}
