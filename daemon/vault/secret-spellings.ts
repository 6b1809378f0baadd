// Every spelling of a secret that a page, Playwright or a serializer in a
// snippet can produce, as one regular expression. Text encodings come from one
// list of per-character encoders, applied in order (HTML, then JSON, then URL)
// with each layer optional per character, so mixed and stacked forms match too:
// a text node (`&lt;` but a raw `"`), an attribute (`&quot;`, `&#34;`, `&#x27;`),
// that markup inside JSON.stringify, JSON with `\u003c` or `\/`, URL and form
// encoding in either hex case. Base64 is matched as literal fragments.

interface CharEncoder {
  readonly name: string;
  /** Spellings of one character (a code point) besides the character itself. */
  spell(char: string): readonly string[];
}

/** Base64 fragments shorter than this are too likely to occur by chance in ordinary text. */
const MIN_BASE64_FRAGMENT_CHARS = 6;

const HTML_NAMES: Readonly<Record<string, string>> = { "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "apos", "\u00a0": "nbsp" };

/**
 * The characters HTML serializers escape (text nodes `&<>` and U+00A0; attributes
 * `&"` and U+00A0, `<>` since 2025; template engines `'` too), by name, in
 * decimal (`&#39;`, PHP's `&#039;`) and in hex of either case (`&#x27;`, `&#xA0;`).
 */
const html: CharEncoder = {
  name: "html",
  spell(char) {
    const name = HTML_NAMES[char];
    if (name === undefined) return [];
    const code = char.codePointAt(0)!;
    const hex = code.toString(16);
    return [`&${name};`, `&#${code};`, `&#${String(code).padStart(3, "0")};`, `&#x${hex};`, `&#x${hex.toUpperCase()};`];
  },
};

const JSON_SHORT: Readonly<Record<string, string>> = { '"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
/** Characters some JSON encoder writes as `\uXXXX`: controls, the HTML-significant ones (Go, PHP's JSON_HEX_*), and everything past ASCII (Python's ensure_ascii). */
const JSON_UNICODE_ESCAPED = /[\u0000-\u001f"\\/<>&'\u007f-\uffff]/u;

const json: CharEncoder = {
  name: "json",
  spell(char) {
    const out: string[] = [];
    const short = JSON_SHORT[char];
    if (short !== undefined) out.push(short);
    if (JSON_UNICODE_ESCAPED.test(char) || char.length > 1) {
      let lower = "";
      for (let i = 0; i < char.length; i++) lower += `\\u${char.charCodeAt(i).toString(16).padStart(4, "0")}`;
      out.push(lower, lower.replace(/[a-f]/g, (h) => h.toUpperCase()));
    }
    return out;
  },
};

const URL_PLAIN = /^[A-Za-z0-9\-_.]$/;

/** encodeURIComponent, encodeURI and form encoding (`+` for a space), hex in either case. */
const url: CharEncoder = {
  name: "url",
  spell(char) {
    if (URL_PLAIN.test(char)) return [];
    let upper = "";
    for (const byte of Buffer.from(char, "utf8")) upper += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    return [upper, upper.toLowerCase(), ...(char === " " ? ["+"] : [])];
  },
};

/** Innermost first: a page's markup may be put in JSON, and JSON in a URL. */
export const TEXT_ENCODERS: readonly CharEncoder[] = [html, json, url];

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

type Memo = Map<string, string>;

/** A pattern for `text` after `layers`, each layer optional at every character. */
function layeredPattern(text: string, layers: readonly CharEncoder[], memo: Memo): string {
  if (layers.length === 0) return escapeRegExp(text);
  let out = "";
  for (const char of text) out += charPattern(char, layers, memo);
  return out;
}

function charPattern(char: string, layers: readonly CharEncoder[], memo: Memo): string {
  const key = `${layers.length}:${char}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const [layer, ...rest] = layers;
  // Longer spellings first, so `\\` is taken whole rather than as a `\` and a stray one.
  const options = [...new Set([...layer!.spell(char), char].map((s) => layeredPattern(s, rest, memo)))].sort((a, b) => b.length - a.length);
  const pattern = options.length === 1 ? options[0]! : `(?:${options.join("|")})`;
  memo.set(key, pattern);
  return pattern;
}

/**
 * The whole unpadded encoding (standard and URL-safe alphabets), plus, for each
 * of the three byte alignments the secret can have inside a longer encoded
 * blob, the run of characters that depends on the secret's bytes alone.
 */
export function base64Spellings(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const out = new Set([bytes.toString("base64").replace(/=+$/, "")]);
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (core.length >= MIN_BASE64_FRAGMENT_CHARS) out.add(core);
  }
  for (const b64 of [...out]) out.add(b64.replace(/\+/g, "-").replace(/\//g, "_"));
  out.delete("");
  return [...out];
}

/** A regular expression source matching every spelling of `secret`; "" for an empty secret. */
export function secretPattern(secret: string): string {
  if (secret === "") return "";
  const b64 = base64Spellings(secret).filter((s) => s !== secret).sort((a, b) => b.length - a.length).map(escapeRegExp);
  const text = layeredPattern(secret, TEXT_ENCODERS, new Map());
  // Padding goes with the encoding it ends.
  return b64.length === 0 ? text : `${text}|(?:${b64.join("|")})={0,2}`;
}

/** A character no text encoder rewrites: it appears as itself in every text spelling. */
function isPlain(char: string): boolean {
  return TEXT_ENCODERS.every((encoder) => encoder.spell(char).length === 0);
}

/**
 * The longest run of plain characters in `secret`, which every text spelling
 * contains as it is (a cheap literal to look for before the full pattern);
 * undefined when the secret has none.
 */
export function plainAnchor(secret: string): string | undefined {
  let best = "";
  let run = "";
  for (const char of secret) {
    run = isPlain(char) ? run + char : "";
    if (run.length > best.length) best = run;
  }
  return best === "" ? undefined : best;
}

/** The length of `text`'s longest spelling after `layers` (each layer may apply at any character). */
function longestLayered(text: string, layers: readonly CharEncoder[]): number {
  if (layers.length === 0) return text.length;
  const [layer, ...rest] = layers;
  let total = 0;
  for (const char of text) total += Math.max(...[char, ...layer!.spell(char)].map((s) => longestLayered(s, rest)));
  return total;
}

/** An upper bound on the characters any spelling of `secret` takes: text around a cut this wide holds the whole of any spelling that crosses it. */
export function longestSpellingChars(secret: string): number {
  const b64 = base64Spellings(secret).reduce((most, s) => Math.max(most, s.length + 2), 0);
  return Math.max(longestLayered(secret, TEXT_ENCODERS), b64);
}
