import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  encodeMethodSelection,
  encodeReply,
  encodeRequest,
  formatIPv6,
  MAX_GREETING_BYTES,
  MAX_REQUEST_BYTES,
  parseGreeting,
  parseIPv6,
  parseReply,
  parseRequest,
  selectMethod,
  SocksCommand,
  SocksMethod,
  SocksReply,
} from "../../shared/guard/proxy/socks5.js";

const bytes = (...values: number[]): Buffer => Buffer.from(values);

describe("parseGreeting", () => {
  it("parses a no-auth greeting and reports what it consumed", () => {
    expect(parseGreeting(bytes(5, 1, 0))).toEqual({ kind: "ok", consumed: 3, methods: [0] });
    expect(parseGreeting(bytes(5, 2, 2, 0, 5, 1))).toEqual({ kind: "ok", consumed: 4, methods: [2, 0] });
  });

  it("is incomplete for every strict prefix", () => {
    const full = bytes(5, 3, 0, 1, 2);
    for (let i = 0; i < full.length; i += 1) expect(parseGreeting(full.subarray(0, i)).kind).toBe("incomplete");
  });

  it.each([
    ["SOCKS4", bytes(4, 1, 0)],
    ["HTTP", Buffer.from("CONNECT")],
    ["no methods", bytes(5, 0)],
  ])("rejects %s", (_name, input) => {
    expect(parseGreeting(input).kind).toBe("error");
  });

  it("accepts the largest legal greeting", () => {
    const greeting = Buffer.concat([bytes(5, 255), Buffer.alloc(255, 0x80)]);
    expect(greeting.length).toBe(MAX_GREETING_BYTES);
    expect(parseGreeting(greeting)).toMatchObject({ kind: "ok", consumed: MAX_GREETING_BYTES });
  });
});

describe("selectMethod", () => {
  it.each([
    [[0], SocksMethod.NO_AUTH],
    [[2, 0], SocksMethod.NO_AUTH],
    [[2], SocksMethod.NO_ACCEPTABLE],
    [[1, 2, 0x80], SocksMethod.NO_ACCEPTABLE],
  ])("offers %j → %i", (methods, expected) => {
    expect(selectMethod(methods)).toBe(expected);
  });

  it("encodes the selection", () => {
    expect(encodeMethodSelection(SocksMethod.NO_ACCEPTABLE)).toEqual(bytes(5, 0xff));
  });
});

describe("parseRequest", () => {
  it("parses IPv4", () => {
    expect(parseRequest(bytes(5, 1, 0, 1, 127, 0, 0, 1, 0x1f, 0x90))).toEqual({
      kind: "ok",
      consumed: 10,
      command: SocksCommand.CONNECT,
      addressType: "ipv4",
      host: "127.0.0.1",
      port: 8080,
    });
  });

  it("parses a domain name and leaves trailing bytes alone", () => {
    const name = Buffer.from("example.com");
    const input = Buffer.concat([bytes(5, 1, 0, 3, name.length), name, bytes(1, 0xbb), Buffer.from("GET")]);
    expect(parseRequest(input)).toMatchObject({ kind: "ok", consumed: input.length - 3, addressType: "domain", host: "example.com", port: 443 });
  });

  it.each([
    ["::1", [...Array(15).fill(0), 1]],
    ["::", Array(16).fill(0)],
    ["fe80::1", [0xfe, 0x80, ...Array(13).fill(0), 1]],
    ["2001:db8::8:800:200c:417a", [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 8, 8, 0, 0x20, 0x0c, 0x41, 0x7a]],
    ["::ffff:a9fe:a9fe", [...Array(10).fill(0), 0xff, 0xff, 169, 254, 169, 254]],
    ["1:0:1:0:1:0:1:0", [0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0]],
    ["1::1:0:0:1", [0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1]],
  ])("parses IPv6 %s", (expected, address) => {
    const result = parseRequest(bytes(5, 1, 0, 4, ...address, 0, 80));
    expect(result).toMatchObject({ kind: "ok", consumed: 22, addressType: "ipv6", host: expected, port: 80 });
  });

  it("is incomplete for every strict prefix of each address type", () => {
    for (const host of ["10.1.2.3", "example.org", "2001:db8::1"]) {
      const full = encodeRequest(SocksCommand.CONNECT, host, 443);
      for (let i = 0; i < full.length; i += 1) expect(parseRequest(full.subarray(0, i)).kind, `${host} prefix ${i}`).toBe("incomplete");
      expect(parseRequest(full)).toMatchObject({ kind: "ok", host, port: 443, consumed: full.length });
    }
  });

  it.each([
    ["BIND", SocksCommand.BIND],
    ["UDP ASSOCIATE", SocksCommand.UDP_ASSOCIATE],
    ["unknown", 0x09],
  ])("answers %s with command-not-supported after reading the whole request", (_name, command) => {
    const input = encodeRequest(command, "example.com", 80);
    expect(parseRequest(input.subarray(0, input.length - 1)).kind).toBe("incomplete");
    expect(parseRequest(input)).toMatchObject({ kind: "error", reply: SocksReply.COMMAND_NOT_SUPPORTED });
  });

  it("answers an unknown address type with address-type-not-supported", () => {
    expect(parseRequest(bytes(5, 1, 0, 2, 1, 2, 3))).toMatchObject({ kind: "error", reply: SocksReply.ADDRESS_TYPE_NOT_SUPPORTED });
  });

  it.each([
    ["wrong version", bytes(4, 1, 0, 1, 1, 1, 1, 1, 0, 80)],
    ["nonzero reserved byte", bytes(5, 1, 1, 1, 1, 1, 1, 1, 0, 80)],
    ["empty domain", bytes(5, 1, 0, 3, 0, 0, 80)],
  ])("rejects %s with a general failure", (_name, input) => {
    expect(parseRequest(input)).toMatchObject({ kind: "error", reply: SocksReply.GENERAL_FAILURE });
  });

  it("accepts the longest legal request", () => {
    const input = encodeRequest(SocksCommand.CONNECT, "a".repeat(255), 1);
    expect(input.length).toBe(MAX_REQUEST_BYTES);
    expect(parseRequest(input)).toMatchObject({ kind: "ok", host: "a".repeat(255) });
  });

  it("decodes domain bytes one character per byte, never merging them", () => {
    const input = Buffer.concat([bytes(5, 1, 0, 3, 4), bytes(0xc3, 0xa9, 0x00, 0x2e), bytes(0, 80)]);
    const result = parseRequest(input);
    expect(result).toMatchObject({ kind: "ok" });
    if (result.kind === "ok") expect(result.host).toHaveLength(4);
  });
});

describe("replies", () => {
  it.each([
    [SocksReply.SUCCEEDED, { address: "127.0.0.1", port: 1080 }, bytes(5, 0, 0, 1, 127, 0, 0, 1, 0x04, 0x38)],
    [SocksReply.NOT_ALLOWED_BY_RULESET, undefined, bytes(5, 2, 0, 1, 0, 0, 0, 0, 0, 0)],
    [SocksReply.HOST_UNREACHABLE, undefined, bytes(5, 4, 0, 1, 0, 0, 0, 0, 0, 0)],
    [SocksReply.SUCCEEDED, { address: "::1", port: 80 }, bytes(5, 0, 0, 4, ...Array(15).fill(0), 1, 0, 80)],
    [SocksReply.SUCCEEDED, { address: "not-an-ip", port: 80 }, bytes(5, 0, 0, 1, 0, 0, 0, 0, 0, 80)],
  ])("encodes reply %i with bind %j", (code, bind, expected) => {
    expect(encodeReply(code, bind)).toEqual(expected);
  });

  it("round-trips through parseReply", () => {
    for (const address of ["10.0.0.1", "2001:db8::1", "::1"]) {
      const encoded = encodeReply(SocksReply.CONNECTION_REFUSED, { address, port: 65535 });
      expect(parseReply(encoded)).toEqual({ kind: "ok", consumed: encoded.length, reply: 5, bind: { address, port: 65535 } });
      for (let i = 0; i < encoded.length; i += 1) expect(parseReply(encoded.subarray(0, i)).kind).toBe("incomplete");
    }
  });
});

describe("IPv6 text form", () => {
  it.each(["::1", "::", "fe80::1", "2001:db8::1", "1:2:3:4:5:6:7:8", "1::8", "1:0:0:2::3", "::ffff:a9fe:a9fe", "64:ff9b::a9fe:a9fe"])(
    "round-trips %s",
    (address) => {
      expect(formatIPv6(parseIPv6(address))).toBe(address);
    },
  );

  it("accepts embedded IPv4 tails and zone ids", () => {
    expect(formatIPv6(parseIPv6("::ffff:169.254.169.254"))).toBe("::ffff:a9fe:a9fe");
    expect(formatIPv6(parseIPv6("fe80::1%eth0"))).toBe("fe80::1");
  });

  it("rejects non-IPv6 text", () => {
    expect(() => parseIPv6("127.0.0.1")).toThrow(RangeError);
  });
});

describe("malformed input", () => {
  it("never throws on random bytes", () => {
    for (let i = 0; i < 2_000; i += 1) {
      const input = randomBytes(i % 64);
      if (i % 2 === 0 && input.length > 0) input[0] = 5;
      expect(() => {
        parseGreeting(input);
        parseRequest(input);
        parseReply(input);
      }).not.toThrow();
    }
  });
});
