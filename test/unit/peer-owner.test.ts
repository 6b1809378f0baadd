// Whose socket is on the other end of a proxy connection, read from the text
// of /proc/net/tcp{,6} (lines as a Linux 6.x kernel prints them), and the
// check built on it with an injected reader.
import { describe, expect, it } from "vitest";
import { createPeerCheck, freshReads, preparePeerCheck, type ReadProcNet } from "../../daemon/browser-worker/guard/proxy/peer-check.js";
import { findSocketOwner, procNetAddress, tablesFor, type Endpoint } from "../../daemon/browser-worker/guard/proxy/peer-owner.js";
import { rateLimitedLog } from "../../daemon/browser-worker/guard/rate-limited-log.js";

const TCP_HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode                                                     ";
const TCP6_HEADER = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode";

const line = (sl: number, local: string, remote: string, state: string, uid: number, inode: number) =>
  `${String(sl).padStart(4)}: ${local} ${remote} ${state} 00000000:00000000 00:00000000 00000000 ${String(uid).padStart(5)}        0 ${inode} 1 0000000096850b21 20 0 0 10 -1                     `;

// The proxy on 127.0.0.1:8080 (1F90); clients on 127.0.0.1:54321 (D431) and 127.0.0.1:54322 (D432).
const PROXY: Endpoint = { address: "127.0.0.1", port: 8080 };
const TCP = [
  TCP_HEADER,
  line(0, "0100007F:1F90", "00000000:0000", "0A", 0, 9329),
  // The proxy's side of each connection: owned by the proxy, never the answer.
  line(1, "0100007F:1F90", "0100007F:D431", "01", 0, 13531),
  line(2, "0100007F:D431", "0100007F:1F90", "01", 65534, 13528),
  line(3, "0100007F:1F90", "0100007F:D432", "01", 0, 13533),
  // A client that already closed: TIME_WAIT reads uid 0 and inode 0.
  line(4, "0100007F:D432", "0100007F:1F90", "06", 0, 0),
  line(5, "0100007F:D433", "0100007F:1F90", "01", 1000, 14000),
  "",
].join("\n");

const TCP6 = [
  TCP6_HEADER,
  line(0, "00000000000000000000000001000000:1F90", "00000000000000000000000001000000:8BB4", "01", 0, 13531),
  line(1, "00000000000000000000000001000000:8BB4", "00000000000000000000000001000000:1F90", "01", 1000, 13529),
  // A dual-stack client reaching the IPv4 proxy: its socket is in tcp6, the address IPv4-mapped.
  line(2, "0000000000000000FFFF00000100007F:D434", "0000000000000000FFFF00000100007F:1F90", "01", 1000, 13530),
  "",
].join("\n");

describe("procNetAddress", () => {
  it.each([
    ["127.0.0.1", "tcp", "LE", "0100007F"],
    ["127.0.0.1", "tcp", "BE", "7F000001"],
    ["10.1.2.3", "tcp", "LE", "0302010A"],
    ["::ffff:127.0.0.1", "tcp", "LE", "0100007F"],
    ["127.0.0.1", "tcp6", "LE", "0000000000000000FFFF00000100007F"],
    ["::1", "tcp6", "LE", "00000000000000000000000001000000"],
    ["::1", "tcp6", "BE", "00000000000000000000000000000001"],
    ["fe80::1%eth0", "tcp6", "LE", "000080FE000000000000000001000000"],
    ["::1", "tcp", "LE", undefined],
    ["::fffe:0:1", "tcp", "LE", undefined],
    ["::ffff:0:1", "tcp", "LE", "01000000"],
    ["localhost", "tcp", "LE", undefined],
    ["1.2.3", "tcp", "LE", undefined],
    ["1::2::3", "tcp6", "LE", undefined],
  ] as const)("%s in %s (%s) is %s", (address, table, order, expected) => {
    expect(procNetAddress(address, table, order)).toBe(expected);
  });
});

describe("findSocketOwner", () => {
  const client = (port: number, address = "127.0.0.1"): Endpoint => ({ address, port });

  it.each([
    ["another user's client", TCP, "tcp", client(54321), PROXY, { uid: 65534, inode: 13528 }],
    ["the owner's client", TCP, "tcp", client(54323), PROXY, { uid: 1000, inode: 14000 }],
    ["a client gone to TIME_WAIT (uid reads 0)", TCP, "tcp", client(54322), PROXY, undefined],
    ["a port not in the table", TCP, "tcp", client(40000), PROXY, undefined],
    ["the right client of another proxy port", TCP, "tcp", client(54321), { address: "127.0.0.1", port: 8081 }, undefined],
    ["a dual-stack client, IPv4-mapped in tcp6", TCP6, "tcp6", client(54324), PROXY, { uid: 1000, inode: 13530 }],
    ["an IPv6 client", TCP6, "tcp6", client(35764, "::1"), { address: "::1", port: 8080 }, { uid: 1000, inode: 13529 }],
    ["an IPv4 client looked up in the wrong table", TCP6, "tcp6", client(54321), PROXY, undefined],
    ["an empty table", "", "tcp", client(54321), PROXY, undefined],
    ["a table without its header", TCP.split("\n").slice(3).join("\n"), "tcp", client(54321), PROXY, { uid: 65534, inode: 13528 }],
  ] as const)("%s", (_name, text, table, local, remote, expected) => {
    expect(findSocketOwner(text, table, local, remote, "LE")).toEqual(expected);
  });

  it("never takes the proxy's own side of a connection for the client's", () => {
    // Only the proxy's side is listed (the client's is in the other table): no owner.
    const proxySideOnly = [TCP_HEADER, line(1, "0100007F:1F90", "0100007F:D431", "01", 0, 13531)].join("\n");
    expect(findSocketOwner(proxySideOnly, "tcp", client(54321), PROXY, "LE")).toBeUndefined();
  });

  it("reads the columns, not a lookalike elsewhere on a line", () => {
    const shifted = [TCP_HEADER, `   0: 0100007F:0001 0100007F:D431 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 77 1`].join("\n");
    expect(findSocketOwner(shifted, "tcp", client(54321), PROXY, "LE")).toBeUndefined();
  });
});

describe("tablesFor", () => {
  it("reads tcp first for an IPv4 peer, tcp6 alone for an IPv6 one", () => {
    expect(tablesFor("127.0.0.1")).toEqual(["tcp", "tcp6"]);
    expect(tablesFor("::ffff:127.0.0.1")).toEqual(["tcp", "tcp6"]);
    expect(tablesFor("::1")).toEqual(["tcp6"]);
  });
});

describe("createPeerCheck", () => {
  const tables = (texts: Partial<Record<"tcp" | "tcp6", string>>) => {
    const reads: string[] = [];
    const readTable: ReadProcNet = async (table) => {
      reads.push(table);
      const text = texts[table];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: /proc/net/${table}`), { code: "ENOENT" });
      return text;
    };
    return { readTable, reads };
  };
  const from = (port: number, address = "127.0.0.1") => ({ remoteAddress: address, remotePort: port, localAddress: "127.0.0.1", localPort: 8080 });

  it("allows the uid's own sockets and refuses another user's, naming the uid", async () => {
    const { readTable } = tables({ tcp: TCP, tcp6: TCP6 });
    const check = createPeerCheck({ uid: 1000, readTable, endianness: "LE" });
    expect(await check(from(54323))).toEqual({ allowed: true });
    expect(await check(from(54324))).toEqual({ allowed: true });
    expect(await check(from(54321))).toEqual({ allowed: false, reason: expect.stringContaining("uid 65534") });
  });

  it("refuses what it cannot find or cannot read: a closed client, a missing table, an unknown end", async () => {
    const { readTable } = tables({ tcp: TCP });
    const check = createPeerCheck({ uid: 0, readTable, endianness: "LE" });
    expect((await check(from(54322))).allowed).toBe(false);
    expect(await check(from(54324))).toEqual({ allowed: false, reason: expect.stringContaining("/proc/net/tcp6 cannot be read") });
    expect(await check({ remoteAddress: undefined, remotePort: undefined, localAddress: "127.0.0.1", localPort: 8080 })).toMatchObject({ allowed: false });
  });

  it("reads each table once for connections accepted together, and again for a later one", async () => {
    const { readTable, reads } = tables({ tcp: TCP, tcp6: TCP6 });
    const check = createPeerCheck({ uid: 1000, readTable, endianness: "LE" });
    const together = await Promise.all([check(from(54323)), check(from(54323)), check(from(54321))]);
    expect(together.map((v) => v.allowed)).toEqual([true, true, false]);
    expect(reads).toEqual(["tcp"]);
    await check(from(54323));
    expect(reads).toEqual(["tcp", "tcp"]);
  });

  it("runs one read at a time: callers arriving during a read share the next one, never the one under way", async () => {
    const started: ((text: string) => void)[] = [];
    const fresh = freshReads(() => new Promise<string>((resolve) => started.push(resolve)));
    const first = fresh("tcp");
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toHaveLength(1);
    const later = [fresh("tcp"), fresh("tcp"), fresh("tcp")];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toHaveLength(1);
    started[0]!("before");
    expect(await first).toBe("before");
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toHaveLength(2);
    started[1]!("after");
    expect(await Promise.all(later)).toEqual(["after", "after", "after"]);
  });

  it("is unavailable, with the reason, where /proc/net/tcp cannot be read", async () => {
    expect(await preparePeerCheck({ uid: 0, readTable: tables({}).readTable })).toEqual({ unavailable: expect.stringContaining("/proc/net/tcp cannot be read") });
    expect(await preparePeerCheck({ uid: 0, readTable: tables({ tcp: TCP }).readTable })).toHaveProperty("check");
  });
});

describe("rateLimitedLog", () => {
  it("writes at most one line per interval and counts what it left out", () => {
    let time = 0;
    const lines: string[] = [];
    const log = rateLimitedLog((l) => lines.push(l), 1000, () => time);
    log("a");
    time = 10;
    log("b");
    log("c");
    time = 1000;
    log("d");
    time = 1500;
    log("e");
    expect(lines).toEqual(["a", "d (and 2 more like it since the last such line)"]);
  });
});
