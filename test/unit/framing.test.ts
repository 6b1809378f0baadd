import { describe, expect, it } from "vitest";
import { createLineReader, encodeFrame, MAX_FRAME_BYTES } from "../../shared/protocol/framing.js";

function reader(maxFrameBytes?: number) {
  const lines: string[] = [];
  const oversize: number[] = [];
  const feed = createLineReader({ line: (t) => lines.push(t), oversize: (b) => oversize.push(b) }, maxFrameBytes);
  return { lines, oversize, feed: (s: string | Buffer) => feed(typeof s === "string" ? Buffer.from(s) : s) };
}

describe("NDJSON framing", () => {
  it("splits a chunk into lines and skips blank ones", () => {
    const r = reader();
    r.feed('{"a":1}\n\n  \n{"b":2}\n');
    expect(r.lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("joins a line delivered in many partial chunks, one byte at a time", () => {
    const r = reader();
    const text = '{"method":"daemon.hello","params":{"x":"é✓"}}\n';
    for (const byte of Buffer.from(text)) r.feed(Buffer.from([byte]));
    expect(r.lines).toEqual([text.trimEnd()]);
  });

  it("holds an unfinished line until its newline arrives", () => {
    const r = reader();
    r.feed('{"a":');
    expect(r.lines).toEqual([]);
    r.feed("1}\n{");
    expect(r.lines).toEqual(['{"a":1}']);
    r.feed("}\n");
    expect(r.lines).toEqual(['{"a":1}', "{}"]);
  });

  it("discards an oversized line once, without buffering it, and reads the next line normally", () => {
    const r = reader(16);
    r.feed("x".repeat(10));
    r.feed("y".repeat(10));
    expect(r.oversize).toHaveLength(1);
    expect(r.oversize[0]).toBeGreaterThan(16);
    r.feed("z".repeat(1000));
    expect(r.oversize).toHaveLength(1);
    r.feed("\nok\n");
    expect(r.lines).toEqual(["ok"]);
  });

  it("accepts a line of exactly the limit and refuses one byte more", () => {
    const r = reader(8);
    r.feed(`${"a".repeat(8)}\n${"b".repeat(9)}\nc\n`);
    expect(r.lines).toEqual(["a".repeat(8), "c"]);
    expect(r.oversize).toEqual([9]);
  });

  it("bounds frames at 8 MiB by default", () => {
    expect(MAX_FRAME_BYTES).toBe(8 * 1024 * 1024);
    const r = reader();
    r.feed(Buffer.alloc(MAX_FRAME_BYTES + 1, 0x61));
    r.feed("\n{}\n");
    expect(r.oversize).toHaveLength(1);
    expect(r.lines).toEqual(["{}"]);
  });

  it("encodes one message per line", () => {
    expect(encodeFrame({ a: "line\nbreak" })).toBe('{"a":"line\\nbreak"}\n');
  });
});
