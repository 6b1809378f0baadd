// The SOCKS5 wire protocol (RFC 1928) as pure functions over Buffers: no sockets,
// no policy. Every parser accepts a prefix of the stream and says "incomplete"
// until it has a whole message, so the caller can feed it bytes as they arrive.

import { isIPv4, isIPv6 } from "node:net";

export const SOCKS_VERSION = 0x05;

export const SocksMethod = Object.freeze({
  NO_AUTH: 0x00,
  NO_ACCEPTABLE: 0xff,
} as const);

export const SocksCommand = Object.freeze({
  CONNECT: 0x01,
  BIND: 0x02,
  UDP_ASSOCIATE: 0x03,
} as const);

export const SocksAddressType = Object.freeze({
  IPV4: 0x01,
  DOMAIN: 0x03,
  IPV6: 0x04,
} as const);

export const SocksReply = Object.freeze({
  SUCCEEDED: 0x00,
  GENERAL_FAILURE: 0x01,
  NOT_ALLOWED_BY_RULESET: 0x02,
  NETWORK_UNREACHABLE: 0x03,
  HOST_UNREACHABLE: 0x04,
  CONNECTION_REFUSED: 0x05,
  TTL_EXPIRED: 0x06,
  COMMAND_NOT_SUPPORTED: 0x07,
  ADDRESS_TYPE_NOT_SUPPORTED: 0x08,
} as const);

export type SocksReplyCode = (typeof SocksReply)[keyof typeof SocksReply];

/** Largest legal greeting: version, count, 255 methods. */
export const MAX_GREETING_BYTES = 2 + 255;
/** Largest legal request: header, domain length byte, 255-byte domain, port. */
export const MAX_REQUEST_BYTES = 4 + 1 + 255 + 2;

export type ParseResult<T> =
  | { kind: "incomplete" }
  | ({ kind: "ok"; consumed: number } & T)
  | { kind: "error"; reason: string; reply?: SocksReplyCode };

export interface Greeting {
  methods: number[];
}

export type AddressType = "ipv4" | "domain" | "ipv6";

export interface SocksRequest {
  command: number;
  addressType: AddressType;
  /** IPv4 dotted quad, IPv6 in Node's compressed form (no brackets), or the domain as sent. */
  host: string;
  port: number;
}

/** Client greeting: VER NMETHODS METHODS... */
export function parseGreeting(buf: Buffer): ParseResult<Greeting> {
  if (buf.length < 1) return { kind: "incomplete" };
  if (buf[0] !== SOCKS_VERSION) return { kind: "error", reason: `unsupported SOCKS version ${buf[0]}` };
  if (buf.length < 2) return { kind: "incomplete" };
  const count = buf[1]!;
  if (count === 0) return { kind: "error", reason: "greeting offers no methods" };
  if (buf.length < 2 + count) return { kind: "incomplete" };
  return { kind: "ok", consumed: 2 + count, methods: [...buf.subarray(2, 2 + count)] };
}

/** Only "no authentication" is offered: the listener is loopback-only and per-worker. */
export function selectMethod(methods: readonly number[]): number {
  return methods.includes(SocksMethod.NO_AUTH) ? SocksMethod.NO_AUTH : SocksMethod.NO_ACCEPTABLE;
}

export function encodeMethodSelection(method: number): Buffer {
  return Buffer.from([SOCKS_VERSION, method]);
}

/**
 * Request: VER CMD RSV ATYP DST.ADDR DST.PORT. The whole request is parsed before a
 * command is rejected, so a reply to an unsupported command is never interleaved
 * with unread request bytes.
 */
export function parseRequest(buf: Buffer): ParseResult<SocksRequest> {
  if (buf.length < 1) return { kind: "incomplete" };
  if (buf[0] !== SOCKS_VERSION) return { kind: "error", reason: `unsupported SOCKS version ${buf[0]}`, reply: SocksReply.GENERAL_FAILURE };
  if (buf.length < 4) return { kind: "incomplete" };
  const command = buf[1]!;
  if (buf[2] !== 0x00) return { kind: "error", reason: "reserved byte is not zero", reply: SocksReply.GENERAL_FAILURE };
  const atyp = buf[3]!;

  let addressType: AddressType;
  let host: string;
  let offset: number;
  switch (atyp) {
    case SocksAddressType.IPV4: {
      if (buf.length < 4 + 4 + 2) return { kind: "incomplete" };
      addressType = "ipv4";
      host = [...buf.subarray(4, 8)].join(".");
      offset = 8;
      break;
    }
    case SocksAddressType.IPV6: {
      if (buf.length < 4 + 16 + 2) return { kind: "incomplete" };
      addressType = "ipv6";
      host = formatIPv6(buf.subarray(4, 20));
      offset = 20;
      break;
    }
    case SocksAddressType.DOMAIN: {
      if (buf.length < 5) return { kind: "incomplete" };
      const length = buf[4]!;
      if (length === 0) return { kind: "error", reason: "empty domain name", reply: SocksReply.GENERAL_FAILURE };
      if (buf.length < 5 + length + 2) return { kind: "incomplete" };
      addressType = "domain";
      // latin1 keeps one char per byte, so no byte sequence can decode into something
      // that looks different from what was sent; validation happens upstream.
      host = buf.toString("latin1", 5, 5 + length);
      offset = 5 + length;
      break;
    }
    default:
      return { kind: "error", reason: `unsupported address type ${atyp}`, reply: SocksReply.ADDRESS_TYPE_NOT_SUPPORTED };
  }
  const port = buf.readUInt16BE(offset);
  const consumed = offset + 2;
  if (command !== SocksCommand.CONNECT) {
    return { kind: "error", reason: `unsupported command ${command}`, reply: SocksReply.COMMAND_NOT_SUPPORTED };
  }
  return { kind: "ok", consumed, command, addressType, host, port };
}

/** Reply: VER REP RSV ATYP BND.ADDR BND.PORT. Bind address defaults to 0.0.0.0:0. */
export function encodeReply(reply: SocksReplyCode, bind: { address: string; port: number } = { address: "0.0.0.0", port: 0 }): Buffer {
  const port = Buffer.alloc(2);
  port.writeUInt16BE(bind.port & 0xffff);
  if (isIPv6(bind.address)) {
    return Buffer.concat([Buffer.from([SOCKS_VERSION, reply, 0x00, SocksAddressType.IPV6]), parseIPv6(bind.address), port]);
  }
  const v4 = isIPv4(bind.address) ? bind.address.split(".").map(Number) : [0, 0, 0, 0];
  return Buffer.concat([Buffer.from([SOCKS_VERSION, reply, 0x00, SocksAddressType.IPV4, ...v4]), port]);
}

/** Encode a client request; used by tests and by anything that speaks SOCKS outward. */
export function encodeRequest(command: number, host: string, port: number): Buffer {
  const portBytes = Buffer.alloc(2);
  portBytes.writeUInt16BE(port);
  let address: Buffer;
  if (isIPv4(host)) address = Buffer.from([SocksAddressType.IPV4, ...host.split(".").map(Number)]);
  else if (isIPv6(host)) address = Buffer.concat([Buffer.from([SocksAddressType.IPV6]), parseIPv6(host)]);
  else {
    const name = Buffer.from(host, "latin1");
    if (name.length === 0 || name.length > 255) throw new RangeError("domain name must be 1-255 bytes");
    address = Buffer.concat([Buffer.from([SocksAddressType.DOMAIN, name.length]), name]);
  }
  return Buffer.concat([Buffer.from([SOCKS_VERSION, command, 0x00]), address, portBytes]);
}

export type ReplyParse = ParseResult<{ reply: number; bind: { address: string; port: number } }>;

/** Parse a server reply; the client side of the protocol, for tests and tools. */
export function parseReply(buf: Buffer): ReplyParse {
  if (buf.length < 4) return { kind: "incomplete" };
  if (buf[0] !== SOCKS_VERSION) return { kind: "error", reason: `unsupported SOCKS version ${buf[0]}` };
  const reply = buf[1]!;
  const atyp = buf[3]!;
  if (atyp === SocksAddressType.IPV4) {
    if (buf.length < 10) return { kind: "incomplete" };
    return { kind: "ok", consumed: 10, reply, bind: { address: [...buf.subarray(4, 8)].join("."), port: buf.readUInt16BE(8) } };
  }
  if (atyp === SocksAddressType.IPV6) {
    if (buf.length < 22) return { kind: "incomplete" };
    return { kind: "ok", consumed: 22, reply, bind: { address: formatIPv6(buf.subarray(4, 20)), port: buf.readUInt16BE(20) } };
  }
  if (atyp === SocksAddressType.DOMAIN) {
    if (buf.length < 5) return { kind: "incomplete" };
    const end = 5 + buf[4]!;
    if (buf.length < end + 2) return { kind: "incomplete" };
    return { kind: "ok", consumed: end + 2, reply, bind: { address: buf.toString("latin1", 5, end), port: buf.readUInt16BE(end) } };
  }
  return { kind: "error", reason: `unsupported address type ${atyp}` };
}

/** RFC 5952-style compressed form, matching what Node reports for socket addresses. */
export function formatIPv6(bytes: Buffer): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i));
  let bestStart = -1;
  let bestLength = 1; // a single zero group is not compressed
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j += 1;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

/** 16 bytes of an IPv6 literal (zone id dropped; embedded IPv4 tails accepted). */
export function parseIPv6(address: string): Buffer {
  const bare = address.split("%")[0]!;
  if (!isIPv6(bare)) throw new RangeError(`not an IPv6 address: ${address}`);
  let text = bare;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const left = head === "" ? [] : head.split(":");
  const right = rest === undefined || rest === "" ? [] : rest.split(":");
  const zeros = rest === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(zeros).fill("0"), ...right];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}
