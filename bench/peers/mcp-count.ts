// What an agent's context pays for a tool call: the request (the tool's name
// and its arguments as JSON) and the answer (every content block: text as
// UTF-8, an image or resource by its encoded data). Counted the same way for
// every server, so bytes compare across them. Pure.

export interface ContentBlock {
  type: string;
  text?: string;
  data?: string;
  resource?: { text?: string; blob?: string };
}

const utf8 = (text: string): number => Buffer.byteLength(text, "utf8");

/** The bytes of a tools/call request as the model writes it: name and arguments. */
export function requestBytes(name: string, args: Record<string, unknown>): number {
  return utf8(JSON.stringify({ name, arguments: args }));
}

/** The bytes of a tool result's content, block by block. */
export function contentBytes(content: readonly ContentBlock[]): number {
  let bytes = 0;
  for (const block of content) {
    if (typeof block.text === "string") bytes += utf8(block.text);
    else if (typeof block.data === "string") bytes += utf8(block.data);
    else if (block.resource) bytes += utf8(block.resource.text ?? block.resource.blob ?? "");
  }
  return bytes;
}

/** The text blocks of a tool result, joined by line breaks. */
export function contentText(content: readonly ContentBlock[]): string {
  return content.filter((b) => typeof b.text === "string").map((b) => b.text).join("\n");
}

/** What a series of calls cost; one per task or measurement. */
export interface Tally {
  calls: number;
  requestBytes: number;
  responseBytes: number;
}

export const emptyTally = (): Tally => ({ calls: 0, requestBytes: 0, responseBytes: 0 });

/** The calls and bytes between two readings of a running tally. */
export function since(before: Tally, now: Tally): Tally {
  return { calls: now.calls - before.calls, requestBytes: now.requestBytes - before.requestBytes, responseBytes: now.responseBytes - before.responseBytes };
}
