// Built-ins a vm context lacks (URL, URLSearchParams, TextEncoder/TextDecoder,
// atob/btoa, structuredClone), made INSIDE the context: like the bootstrap,
// this function's source text is compiled there and must not refer to
// anything outside its body. They are pure computations with no effect on the
// world, so one set serves the whole session (objects kept in `state` keep
// working). URL parsing and form encoding ask the host through `pure`, a
// strings-only call; everything else is plain JS.
/* eslint-disable */

/** Calls a pure host computation (arguments and result are JSON data). */
export type PureCall = (name: string, args: unknown[]) => any;
export type ErrorMaker = (name: string, message: string) => Error;

export function contextBuiltins(pure: PureCall, makeError: ErrorMaker): Record<string, unknown> {
  "use strict";
  // The globals these use, taken once while the context is built: a snippet that replaces one later changes nothing here.
  const { String, Array, Object, Map, Set, Date, RegExp, Boolean, Number, ArrayBuffer, DataView, Promise, WeakMap, WeakSet, Symbol } = globalThis;
  const freeze = Object.freeze;
  const fromCharCode = String.fromCharCode;
  const U8 = Uint8Array;
  const isView = ArrayBuffer.isView;

  // --- URLSearchParams / URL -------------------------------------------------
  let paramsReset!: (params: URLSearchParams, list: [string, string][]) => void;
  let paramsAttach!: (params: URLSearchParams, onChange: (query: string) => void) => void;

  class URLSearchParams {
    #list: [string, string][] = [];
    #onChange: ((query: string) => void) | null = null;
    static {
      paramsReset = (p, list) => { p.#list = list; };
      paramsAttach = (p, fn) => { p.#onChange = fn; };
    }
    constructor(init: unknown = "") {
      if (init !== null && typeof init === "object") {
        if (typeof (init as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function") {
          for (const pair of init as Iterable<unknown>) {
            const p = Array.from(pair as Iterable<unknown>);
            if (p.length !== 2) throw makeError("TypeError", "each URLSearchParams pair needs exactly two items");
            this.#list.push([String(p[0]), String(p[1])]);
          }
        } else {
          for (const key of Object.keys(init)) this.#list.push([key, String((init as Record<string, unknown>)[key])]);
        }
      } else {
        let s = String(init);
        if (s.startsWith("?")) s = s.slice(1);
        this.#list = pure("params.parse", [s]);
      }
    }
    #update(): void {
      if (this.#onChange) this.#onChange(this.toString());
    }
    get size(): number { return this.#list.length; }
    append(name: unknown, value: unknown): void { this.#list.push([String(name), String(value)]); this.#update(); }
    delete(name: unknown, value?: unknown): void {
      const n = String(name), v = value === undefined ? undefined : String(value);
      this.#list = this.#list.filter(([k, x]) => !(k === n && (v === undefined || x === v)));
      this.#update();
    }
    get(name: unknown): string | null {
      const found = this.#list.find(([k]) => k === String(name));
      return found ? found[1] : null;
    }
    getAll(name: unknown): string[] { return this.#list.filter(([k]) => k === String(name)).map(([, v]) => v); }
    has(name: unknown, value?: unknown): boolean {
      const n = String(name), v = value === undefined ? undefined : String(value);
      return this.#list.some(([k, x]) => k === n && (v === undefined || x === v));
    }
    set(name: unknown, value: unknown): void {
      const n = String(name), v = String(value);
      const i = this.#list.findIndex(([k]) => k === n);
      if (i === -1) this.#list.push([n, v]);
      else this.#list = this.#list.filter(([k], j) => j <= i || k !== n).map((pair, j) => (j === i ? [n, v] : pair));
      this.#update();
    }
    sort(): void {
      this.#list = this.#list.map((pair, i) => ({ pair, i })).sort((a, b) => (a.pair[0] < b.pair[0] ? -1 : a.pair[0] > b.pair[0] ? 1 : a.i - b.i)).map((x) => x.pair);
      this.#update();
    }
    forEach(fn: (value: string, key: string, params: URLSearchParams) => void, thisArg?: unknown): void {
      for (const [k, v] of this.#list.slice()) fn.call(thisArg, v, k, this);
    }
    keys(): IterableIterator<string> { return this.#list.map(([k]) => k)[Symbol.iterator](); }
    values(): IterableIterator<string> { return this.#list.map(([, v]) => v)[Symbol.iterator](); }
    entries(): IterableIterator<[string, string]> { return this.#list.map(([k, v]) => [k, v] as [string, string])[Symbol.iterator](); }
    [Symbol.iterator](): IterableIterator<[string, string]> { return this.entries(); }
    toString(): string { return pure("params.serialize", [this.#list]); }
    get [Symbol.toStringTag](): string { return "URLSearchParams"; }
  }

  interface UrlRecord { href: string; origin: string; protocol: string; username: string; password: string; host: string; hostname: string; port: string; pathname: string; search: string; hash: string }

  function parseUrl(url: unknown, base: unknown): UrlRecord | null {
    return pure("url.parse", [String(url), base === undefined ? null : String(base)]);
  }

  class URL {
    #r: UrlRecord;
    #params: URLSearchParams | null = null;
    constructor(url: unknown, base?: unknown) {
      const r = parseUrl(url, base);
      if (r === null) throw makeError("TypeError", `Invalid URL: ${String(url)}`);
      this.#r = r;
    }
    static canParse(url: unknown, base?: unknown): boolean { return parseUrl(url, base) !== null; }
    static parse(url: unknown, base?: unknown): URL | null { return parseUrl(url, base) === null ? null : new URL(url, base); }
    #set(key: string, value: unknown): void {
      this.#r = pure("url.set", [this.#r.href, key, String(value)]);
      if (this.#params) paramsReset(this.#params, pure("params.parse", [this.#r.search.slice(1)]));
    }
    get href(): string { return this.#r.href; }
    set href(v: string) {
      const r = parseUrl(v, undefined);
      if (r === null) throw makeError("TypeError", `Invalid URL: ${String(v)}`);
      this.#r = r;
      if (this.#params) paramsReset(this.#params, pure("params.parse", [r.search.slice(1)]));
    }
    get origin(): string { return this.#r.origin; }
    get protocol(): string { return this.#r.protocol; }
    set protocol(v: string) { this.#set("protocol", v); }
    get username(): string { return this.#r.username; }
    set username(v: string) { this.#set("username", v); }
    get password(): string { return this.#r.password; }
    set password(v: string) { this.#set("password", v); }
    get host(): string { return this.#r.host; }
    set host(v: string) { this.#set("host", v); }
    get hostname(): string { return this.#r.hostname; }
    set hostname(v: string) { this.#set("hostname", v); }
    get port(): string { return this.#r.port; }
    set port(v: string) { this.#set("port", v); }
    get pathname(): string { return this.#r.pathname; }
    set pathname(v: string) { this.#set("pathname", v); }
    get search(): string { return this.#r.search; }
    set search(v: string) { this.#set("search", v); }
    get hash(): string { return this.#r.hash; }
    set hash(v: string) { this.#set("hash", v); }
    get searchParams(): URLSearchParams {
      if (!this.#params) {
        const params = new URLSearchParams(this.#r.search);
        paramsAttach(params, (query) => { this.#r = pure("url.set", [this.#r.href, "search", query]); });
        this.#params = params;
      }
      return this.#params;
    }
    toString(): string { return this.#r.href; }
    toJSON(): string { return this.#r.href; }
    get [Symbol.toStringTag](): string { return "URL"; }
  }

  // --- TextEncoder / TextDecoder (UTF-8) -------------------------------------
  function utf8Encode(input: string): number[] {
    const out: number[] = [];
    for (let i = 0; i < input.length; i++) {
      let c = input.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < input.length) {
        const d = input.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); i++; }
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return out;
  }

  class TextEncoder {
    get encoding(): string { return "utf-8"; }
    encode(input: unknown = ""): Uint8Array { return new U8(utf8Encode(String(input))); }
    encodeInto(input: unknown, dest: Uint8Array): { read: number; written: number } {
      const s = String(input);
      let read = 0, written = 0;
      for (let i = 0; i < s.length; ) {
        const c = s.charCodeAt(i);
        const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
        const units = pair ? 2 : 1;
        const bytes = utf8Encode(s.slice(i, i + units));
        if (written + bytes.length > dest.length) break;
        for (const b of bytes) dest[written++] = b;
        read += units;
        i += units;
      }
      return { read, written };
    }
    get [Symbol.toStringTag](): string { return "TextEncoder"; }
  }

  const UTF8_LABELS = ["utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8"];

  function bytesOf(input: unknown): Uint8Array {
    if (input === undefined) return new U8(0);
    if (input instanceof ArrayBuffer) return new U8(input);
    if (isView(input)) return new U8((input as ArrayBufferView).buffer, (input as ArrayBufferView).byteOffset, (input as ArrayBufferView).byteLength);
    throw makeError("TypeError", "TextDecoder.decode needs an ArrayBuffer or a view of one");
  }

  class TextDecoder {
    #fatal: boolean;
    #ignoreBOM: boolean;
    #pending: number[] = [];
    #bomSeen = false;
    constructor(label: unknown = "utf-8", options: { fatal?: boolean; ignoreBOM?: boolean } = {}) {
      if (!UTF8_LABELS.includes(String(label).trim().toLowerCase())) {
        throw makeError("RangeError", `The "${String(label)}" encoding is not supported (snippets have UTF-8 only)`);
      }
      this.#fatal = Boolean(options?.fatal);
      this.#ignoreBOM = Boolean(options?.ignoreBOM);
    }
    get encoding(): string { return "utf-8"; }
    get fatal(): boolean { return this.#fatal; }
    get ignoreBOM(): boolean { return this.#ignoreBOM; }
    decode(input?: unknown, options?: { stream?: boolean }): string {
      const bytes = this.#pending.concat(Array.from(bytesOf(input)));
      const stream = Boolean(options?.stream);
      const units: number[] = [];
      let needed = 0, seen = 0, cp = 0, lower = 0x80, upper = 0xbf, start = 0;
      const fail = (): void => {
        if (this.#fatal) { this.#pending = []; throw makeError("TypeError", "The encoded data was not valid utf-8"); }
        units.push(0xfffd);
      };
      for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i]!;
        if (needed === 0) {
          start = i;
          if (b <= 0x7f) units.push(b);
          else if (b >= 0xc2 && b <= 0xdf) { needed = 1; cp = b & 0x1f; }
          else if (b >= 0xe0 && b <= 0xef) { if (b === 0xe0) lower = 0xa0; if (b === 0xed) upper = 0x9f; needed = 2; cp = b & 0xf; }
          else if (b >= 0xf0 && b <= 0xf4) { if (b === 0xf0) lower = 0x90; if (b === 0xf4) upper = 0x8f; needed = 3; cp = b & 7; }
          else fail();
          continue;
        }
        if (b < lower || b > upper) {
          needed = seen = cp = 0; lower = 0x80; upper = 0xbf;
          fail();
          i--; // the byte starts over
          continue;
        }
        lower = 0x80; upper = 0xbf;
        cp = (cp << 6) | (b & 0x3f);
        if (++seen === needed) {
          if (cp >= 0x10000) units.push(0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
          else units.push(cp);
          needed = seen = cp = 0;
        }
      }
      this.#pending = [];
      if (needed !== 0) {
        if (stream) this.#pending = bytes.slice(start);
        else fail();
      }
      if (!this.#bomSeen && units.length > 0) {
        this.#bomSeen = true;
        if (!this.#ignoreBOM && units[0] === 0xfeff) units.shift();
      }
      if (!stream) this.#bomSeen = false;
      let out = "";
      for (let i = 0; i < units.length; i += 4096) out += fromCharCode(...units.slice(i, i + 4096));
      return out;
    }
    get [Symbol.toStringTag](): string { return "TextDecoder"; }
  }

  // --- atob / btoa ------------------------------------------------------------
  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

  function btoa(input: unknown): string {
    if (arguments.length === 0) throw makeError("TypeError", "btoa needs an argument");
    const s = String(input);
    let out = "";
    for (let i = 0; i < s.length; i += 3) {
      const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
      if (a > 0xff || b > 0xff || c > 0xff) throw makeError("InvalidCharacterError", "btoa: the string contains characters outside of Latin1");
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += B64[n >> 18]! + B64[(n >> 12) & 63]! + (i + 1 < s.length ? B64[(n >> 6) & 63]! : "=") + (i + 2 < s.length ? B64[n & 63]! : "=");
    }
    return out;
  }

  function atob(input: unknown): string {
    if (arguments.length === 0) throw makeError("TypeError", "atob needs an argument");
    let s = String(input).replace(/[\t\n\f\r ]/g, "");
    if (s.length % 4 === 0) s = s.replace(/={1,2}$/, "");
    if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw makeError("InvalidCharacterError", "atob: the string to be decoded is not correctly encoded");
    let out = "", bits = 0, value = 0;
    for (let i = 0; i < s.length; i++) {
      value = (value << 6) | B64.indexOf(s[i]!);
      bits += 6;
      if (bits >= 8) { bits -= 8; out += fromCharCode((value >> bits) & 0xff); }
    }
    return out;
  }

  // --- structuredClone ----------------------------------------------------------
  const ERROR_TYPES: Record<string, ErrorConstructor> = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
  const TYPED: Record<string, any> = { Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array };

  function structuredClone(value: unknown): unknown {
    const memo = new Map<object, unknown>();
    const cloneError = (what: string): Error => makeError("DataCloneError", `${what} could not be cloned`);
    function clone(v: unknown): unknown {
      if (typeof v === "symbol") throw cloneError(String(v));
      if (typeof v === "function") throw cloneError(`function ${(v as { name?: string }).name || "anonymous"}`);
      if (v === null || typeof v !== "object") return v;
      if (memo.has(v)) return memo.get(v);
      let out: any;
      if (v instanceof Date) out = new Date(v.getTime());
      else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
      else if (v instanceof Boolean || v instanceof Number || v instanceof String) out = Object(v.valueOf());
      else if (v instanceof ArrayBuffer) out = v.slice(0);
      else if (v instanceof DataView) out = new DataView(clone(v.buffer) as ArrayBuffer, v.byteOffset, v.byteLength);
      else if (isView(v)) {
        const ctor = TYPED[Object.prototype.toString.call(v).slice(8, -1)];
        if (!ctor) throw cloneError("this view");
        const t = v as unknown as { buffer: ArrayBuffer; byteOffset: number; length: number };
        out = new ctor(clone(t.buffer), t.byteOffset, t.length);
      } else if (v instanceof Error) {
        const name = String(v.name);
        out = new (ERROR_TYPES[name] ?? Error)(String(v.message));
        if (typeof v.stack === "string") Object.defineProperty(out, "stack", { value: v.stack, writable: true, configurable: true });
      } else if (v instanceof Map) {
        out = new Map();
        memo.set(v, out);
        for (const [k, x] of v) out.set(clone(k), clone(x));
        return out;
      } else if (v instanceof Set) {
        out = new Set();
        memo.set(v, out);
        for (const x of v) out.add(clone(x));
        return out;
      } else if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet) {
        throw cloneError(Object.prototype.toString.call(v));
      } else {
        out = Array.isArray(v) ? new Array(v.length) : {};
        memo.set(v, out);
        for (const key of Object.keys(v)) out[key] = clone((v as Record<string, unknown>)[key]);
        return out;
      }
      memo.set(v, out);
      return out;
    }
    return clone(value);
  }

  for (const ctor of [URL, URLSearchParams, TextEncoder, TextDecoder]) freeze(ctor.prototype);
  return freeze({
    URL: freeze(URL), URLSearchParams: freeze(URLSearchParams), TextEncoder: freeze(TextEncoder), TextDecoder: freeze(TextDecoder),
    atob, btoa, structuredClone,
  });
}
