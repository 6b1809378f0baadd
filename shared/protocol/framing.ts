// NDJSON framing with a bound: a line longer than maxFrameBytes is discarded
// before it is parsed (or even fully buffered), and the stream stays usable.

export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

/**
 * The largest result (as UTF-8 JSON) a run carries from the worker to the
 * daemon: one frame, less room for the console, pages and artifacts beside it.
 * A larger one is cut to a preview in the worker, before it crosses.
 */
export const MAX_RESULT_BYTES = MAX_FRAME_BYTES - 2 * 1024 * 1024;

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

/**
 * Deepest array/object nesting a frame may have. Real messages stay far below
 * it (results are cut at depth 20); past it JSON.stringify throws RangeError,
 * and JSON.parse of millions of brackets holds the event loop for seconds.
 */
export const MAX_FRAME_DEPTH = 256;

/** Whether JSON text nests arrays and objects deeper than `max`, scanning (strings skipped) before any parse. */
export function nestsDeeperThan(text: string, max: number = MAX_FRAME_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // To the closing quote: one preceded by an even run of backslashes.
      for (;;) {
        const quote = text.indexOf('"', i + 1);
        if (quote === -1) return false;
        let before = quote - 1;
        while (text.charCodeAt(before) === 0x5c) before--;
        i = quote;
        if ((quote - 1 - before) % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) {
      depth--;
    }
  }
  return false;
}

export function encodeFrame(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}
