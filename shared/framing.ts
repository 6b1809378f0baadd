// NDJSON framing with a bound: a line longer than maxFrameBytes is discarded
// before it is parsed (or even fully buffered), and the stream stays usable.

export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

export interface LineReaderEvents {
  line(text: string): void;
  oversize(bytes: number): void;
}

/** Returns a function to feed chunks into; it calls back once per complete line. */
export function createLineReader(events: LineReaderEvents, maxFrameBytes: number = MAX_FRAME_BYTES): (chunk: Buffer) => void {
  let parts: Buffer[] = [];
  let size = 0;
  let discarding = false;

  return (chunk: Buffer) => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      const piece = chunk.subarray(start, end);
      if (!discarding) {
        if (size + piece.length > maxFrameBytes) {
          discarding = true;
          events.oversize(size + piece.length);
          parts = [];
        } else if (piece.length > 0) {
          parts.push(piece);
          size += piece.length;
        }
      }
      if (newline === -1) break;
      if (!discarding) {
        const text = parts.length === 1 ? parts[0]!.toString("utf8") : Buffer.concat(parts, size).toString("utf8");
        if (text.trim() !== "") events.line(text);
      }
      parts = [];
      size = 0;
      discarding = false;
      start = newline + 1;
    }
  };
}

export function encodeFrame(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}
