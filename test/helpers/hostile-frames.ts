// Seeded generators of hostile NDJSON frames and, for each, what a JSON-RPC
// 2.0 peer must answer: a reply with the request's id, an error with a null
// id (the frame could not be read as a request), or nothing (notifications
// and stray responses). Used against the daemon's socket and the worker's pipe.
import * as protocol from "../../shared/protocol/methods/index.js";
import type { SeededRng } from "./seeded-rng.js";

export type Expectation =
  | { kind: "reply"; id: string | number | null }
  | { kind: "refused"; rpcCode: number; id: string | number | null }
  | { kind: "none" };

export interface HostileFrame {
  category: string;
  bytes: Buffer;
  expect: Expectation;
}

/** Every declared method name (client, worker and service methods alike). */
export const DECLARED_METHODS: string[] = Object.values(protocol)
  .filter((v): v is { name: string; params: unknown } => typeof v === "object" && v !== null && typeof (v as { name?: unknown }).name === "string" && typeof (v as { params?: unknown }).params === "function")
  .map((d) => d.name);

const UNKNOWN_METHODS = [
  "", " ", "daemon.", "daemon.hello ", "DAEMON.HELLO", "__proto__", "constructor", "toString", "hasOwnProperty",
  "valueOf", "rpc.discover", "session.exec\u0000", "../../etc/passwd", "\u202edaemon.status", "💥", "a".repeat(5000),
];

const STRINGS = [
  "", " ", "\u0000", "a\u0000b", "../..", "../../etc/passwd", "/etc/passwd", "..", ".", "-", "--help", "con", "NUL",
  "x.betterwright-lock", "default", "é", "\ud800", "\udfff\ud800", "💥".repeat(40), "\u202e", "a".repeat(65), "a".repeat(10_000),
  "http://169.254.169.254/", "file:///etc/passwd", "javascript:alert(1)", "data:text/html,x", "__proto__", "constructor",
  "${process.exit(1)}", "'; rm -rf / #", "\r\n", "%00", "%2e%2e%2f", "1", "true", "null",
];

const NUMBERS = [0, -0, -1, 1, 0.5, -1e308, 1e308, 2 ** 53, -(2 ** 53), 2 ** 31, 4294967296, 1e-300, 123456789];

function hostileValue(rng: SeededRng, depth = 0): unknown {
  switch (rng.int(0, depth > 3 ? 5 : 8)) {
    case 0: return null;
    case 1: return rng.chance(0.5);
    case 2: return rng.pick(NUMBERS);
    case 3: case 4: return rng.pick(STRINGS);
    case 5: return rng.int(-5, 100);
    case 6: return Array.from({ length: rng.int(0, 5) }, () => hostileValue(rng, depth + 1));
    case 7: {
      const out: Record<string, unknown> = {};
      for (let i = rng.int(0, 4); i > 0; i--) out[rng.pick([...STRINGS, "session", "code", "runId", "timeoutMs"])] = hostileValue(rng, depth + 1);
      return out;
    }
    default: return Array.from({ length: rng.int(100, 3000) }, (_, i) => i);
  }
}

/** Params shaped like a method's own (its common field names) but with hostile values. */
function hostileParams(rng: SeededRng, guardValid: boolean): unknown {
  if (rng.chance(0.1)) return rng.pick([null, 1, "params", true, [1, 2], [{ session: "s" }]]);
  const fields = ["session", "code", "runId", "timeoutMs", "budgetMs", "clientVersion", "protocol", "settings", "inspect", "sinceSeq", "limit",
    "id", "site", "username", "password", "url", "resolve", "bytes", "kind", "name", "all", "browser", "headless", "profileDir"];
  const out: Record<string, unknown> = {};
  for (let i = rng.int(0, 5); i > 0; i--) out[rng.pick(fields)] = hostileValue(rng);
  // Methods that would stop the daemon, replace it or launch a browser when
  // valid: a key no declaration has makes sure their validator refuses.
  if (rng.chance(0.1)) out[rng.pick(STRINGS)] = hostileValue(rng);
  if (guardValid) out["\u0000unknown"] = 1;
  return out;
}

function idFor(rng: SeededRng, counter: () => number): unknown {
  const roll = rng.next();
  if (roll < 0.55) return counter();
  if (roll < 0.7) return `s${counter()}`;
  if (roll < 0.8) return undefined;
  return rng.pick<unknown>([null, true, {}, [1], { a: [[[]]] }, 1.5, -7, "", "x".repeat(300)]);
}

/** What a JSON-RPC 2.0 peer owes the sender of `raw` (as the frame reader would see it). */
export function expectationFor(raw: Buffer): Expectation {
  const text = raw.toString("utf8");
  if (text.trim() === "") return { kind: "none" };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "refused", rpcCode: -32700, id: null };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { kind: "refused", rpcCode: -32600, id: null };
  const m = value as Record<string, unknown>;
  const hasId = Object.hasOwn(m, "id");
  const idOk = !hasId || m.id === null || typeof m.id === "string" || (typeof m.id === "number" && Number.isFinite(m.id));
  const replyId = hasId && idOk ? (JSON.parse(JSON.stringify(m.id)) as string | number | null) : null;
  const isRequest = typeof m.method === "string" && !Object.hasOwn(m, "result") && !Object.hasOwn(m, "error");
  if (isRequest) {
    if (m.jsonrpc !== "2.0" || !idOk || (m.params !== undefined && (m.params === null || typeof m.params !== "object"))) {
      return { kind: "refused", rpcCode: -32600, id: replyId };
    }
    return hasId ? { kind: "reply", id: replyId } : { kind: "none" };
  }
  const isResponse = !Object.hasOwn(m, "method") && m.jsonrpc === "2.0" && (Object.hasOwn(m, "result") || Object.hasOwn(m, "error"));
  return isResponse ? { kind: "none" } : { kind: "refused", rpcCode: -32600, id: replyId };
}

function frame(category: string, body: string | Buffer): HostileFrame {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  return { category, bytes: Buffer.concat([bytes, Buffer.from("\n")]), expect: expectationFor(bytes) };
}

export interface GeneratorOptions {
  /** Methods that must never be called with valid params (they stop, replace, or launch). */
  guarded: readonly string[];
  /** Every frame's numeric ids come from here, so replies can be matched. */
  counter: () => number;
}

/** One random frame of one of the categories below. */
export function hostileFrame(rng: SeededRng, options: GeneratorOptions): HostileFrame {
  const roll = rng.int(0, 99);
  const method = rng.chance(0.75) ? rng.pick(DECLARED_METHODS) : rng.pick(UNKNOWN_METHODS);
  const request = (): Record<string, unknown> => {
    const message: Record<string, unknown> = { jsonrpc: rng.chance(0.93) ? "2.0" : rng.pick<unknown>(["1.0", 2, null, "2.0 "]) };
    const id = idFor(rng, options.counter);
    if (id !== undefined) message.id = id;
    message.method = method;
    const guarded = options.guarded.includes(method);
    if (guarded || rng.chance(0.9)) message.params = hostileParams(rng, guarded);
    return message;
  };
  if (roll < 35) return frame("wrong-types", JSON.stringify(request()));
  if (roll < 45) {
    // A valid request line, torn or corrupted.
    const text = JSON.stringify(request());
    const cut = rng.int(0, text.length - 1);
    // A character dropped into a key can still parse ("para,ms"): a guarded method's request would then run
    // with no params at all, so it only gets corruptions that never parse.
    if (options.guarded.includes(method)) return frame("bad-json", rng.pick([text.replace(/"/g, "'"), `${text} ${text}`, `${text.slice(0, cut)}{`]));
    const variants = [
      text.slice(0, cut),
      `${text.slice(0, cut)}${rng.pick(["\"", "{", "}", "]", ",", ":", "\\", "\u0000", "\u001b[2J"])}${text.slice(cut)}`,
      `${text}${rng.pick(["}", "]", ",", "x", " {"])}`,
      text.replace(/"/g, "'"),
      `${text} ${text}`,
    ];
    return frame("bad-json", rng.pick(variants));
  }
  if (roll < 55) {
    // Random bytes (never a newline: that would split the frame).
    const bytes = rng.bytes(rng.int(1, 2000));
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) bytes[i] = 0x00;
    return frame("binary", bytes);
  }
  if (roll < 65) {
    const shapes: unknown[] = [
      [], [request()], [request(), request()], 1, -1, "str", true, null, {}, { jsonrpc: "2.0" },
      { jsonrpc: "2.0", id: options.counter() }, { jsonrpc: "2.0", method: 7, id: options.counter() },
      { jsonrpc: "2.0", method: null, id: options.counter() }, { jsonrpc: "2.0", method: ["daemon.status"], id: options.counter() },
      { ...request(), result: 1 }, { ...request(), error: { code: 1, message: "x" } },
      { jsonrpc: "2.0", id: options.counter(), result: { anything: true } }, { jsonrpc: "2.0", id: null, error: { code: -1, message: "x" } },
      { jsonrpc: "2.0", id: options.counter(), error: "not an object" },
      JSON.parse(`{"__proto__":{"polluted":true},"jsonrpc":"2.0","id":${options.counter()},"method":"daemon.status"}`),
      JSON.parse(`{"jsonrpc":"2.0","id":${options.counter()},"method":"session.list","params":{"__proto__":{"x":1}}}`),
    ];
    const shape = rng.pick(shapes);
    return frame("json-rpc-shape", JSON.stringify(shape));
  }
  if (roll < 75) {
    const m = request();
    m.method = rng.pick(UNKNOWN_METHODS);
    return frame("unknown-method", JSON.stringify(m));
  }
  if (roll < 80) {
    // Moderate nesting: accepted by the reader, refused or served by the handler.
    const depth = rng.int(10, 200);
    const m = request();
    m.params = JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
    return frame("nested", JSON.stringify(m));
  }
  if (roll < 85) {
    // Unicode and control characters in every string position.
    const m = request();
    m.method = `${method}${rng.pick(["\u0000", "\u2028", "\ufeff", "\ud800", ""])}`;
    // Inside params only, so a guarded method keeps its refused params.
    const params = m.params === undefined ? undefined : JSON.stringify(m.params).replace(/a/g, () => rng.pick(["a", "\\u0000", "\\ud83d", "\u2028"]));
    delete m.params;
    const text = JSON.stringify(m);
    return frame("unicode", params === undefined ? text : `${text.slice(0, -1)},"params":${params}}`);
  }
  if (roll < 90) return frame("blank", rng.pick(["", " ", "\t", "\r", "   \t  "]));
  // Harmless valid requests mixed in: the peer must keep answering them.
  return frame("valid", JSON.stringify({ jsonrpc: "2.0", id: options.counter(), method: rng.pick(["daemon.status", "session.list", "worker.ping"]) }));
}

/** Frames that go for the reader itself: depth bombs and lines past the size bound. */
export function readerBombs(counter: () => number, maxFrameBytes: number): HostileFrame[] {
  const deep = 100_000;
  const bombs: HostileFrame[] = [
    { category: "deep-unclosed", bytes: Buffer.from(`${"[".repeat(deep)}\n`), expect: { kind: "refused", rpcCode: -32600, id: null } },
    { category: "deep-array", bytes: Buffer.from(`${"[".repeat(deep)}${"]".repeat(deep)}\n`), expect: { kind: "refused", rpcCode: -32600, id: null } },
    { category: "deep-object", bytes: Buffer.from(`${'{"a":'.repeat(deep)}1${"}".repeat(deep)}\n`), expect: { kind: "refused", rpcCode: -32600, id: null } },
    {
      category: "deep-params",
      bytes: Buffer.from(`{"jsonrpc":"2.0","id":${counter()},"method":"daemon.status","params":{"a":${"[".repeat(deep)}${"]".repeat(deep)}}}\n`),
      expect: { kind: "refused", rpcCode: -32600, id: null },
    },
    {
      category: "deep-id",
      bytes: Buffer.from(`{"jsonrpc":"2.0","method":"daemon.status","id":${"[".repeat(20_000)}${"]".repeat(20_000)}}\n`),
      expect: { kind: "refused", rpcCode: -32600, id: null },
    },
    {
      // The worst case for a parser: millions of brackets inside the size bound.
      category: "deep-max",
      bytes: Buffer.from(`${"[".repeat(maxFrameBytes / 2 - 1)}${"]".repeat(maxFrameBytes / 2 - 1)}\n`),
      expect: { kind: "refused", rpcCode: -32600, id: null },
    },
    { category: "oversize", bytes: Buffer.concat([Buffer.alloc(maxFrameBytes + 1, 0x61), Buffer.from("\n")]), expect: { kind: "refused", rpcCode: -32600, id: null } },
    {
      category: "oversize-json",
      bytes: Buffer.from(`{"jsonrpc":"2.0","id":${counter()},"method":"daemon.status","params":{"pad":"${"x".repeat(maxFrameBytes)}"}}\n`),
      expect: { kind: "refused", rpcCode: -32600, id: null },
    },
  ];
  const id = counter();
  const under = `{"jsonrpc":"2.0","id":${id},"method":"daemon.status","params":{"pad":"`;
  bombs.push({ category: "just-under-limit", bytes: Buffer.from(`${under}${"y".repeat(maxFrameBytes - under.length - 3)}"}}\n`), expect: { kind: "reply", id } });
  return bombs;
}
