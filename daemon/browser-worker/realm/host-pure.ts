// The host half of the context's pure built-ins: URL parsing and form
// encoding, computed with Node's own implementations on strings and returned
// as plain data. Nothing here touches the browser or keeps state.
import { BwError } from "../../../shared/protocol/errors.js";

const MAX_INPUT_CHARS = 1_000_000;
const URL_PARTS = ["href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"] as const;
type UrlPart = (typeof URL_PARTS)[number];

export interface UrlRecord extends Record<UrlPart | "origin", string> {}

function text(value: unknown, what: string): string {
  if (typeof value !== "string") throw new BwError("INVALID_ARGUMENT", `${what} must be a string`);
  if (value.length > MAX_INPUT_CHARS) throw new BwError("LIMIT_EXCEEDED", `${what} is longer than ${MAX_INPUT_CHARS} characters`);
  return value;
}

function record(url: URL): UrlRecord {
  const r = { origin: url.origin } as UrlRecord;
  for (const key of URL_PARTS) r[key] = url[key];
  return r;
}

function parseUrl(input: unknown, base: unknown): UrlRecord | null {
  try {
    return record(new URL(text(input, "url"), base === null || base === undefined ? undefined : text(base, "base")));
  } catch (error) {
    if (error instanceof BwError) throw error;
    return null;
  }
}

function pairs(value: unknown): [string, string][] {
  if (!Array.isArray(value)) throw new BwError("INVALID_ARGUMENT", "form pairs must be an array");
  return value.map((pair) => {
    if (!Array.isArray(pair) || pair.length !== 2) throw new BwError("INVALID_ARGUMENT", "a form pair has two items");
    return [text(pair[0], "name"), text(pair[1], "value")];
  });
}

export function pureCall(name: unknown, args: unknown): unknown {
  const a = Array.isArray(args) ? args : [];
  switch (name) {
    case "url.parse":
      return parseUrl(a[0], a[1]);
    case "url.set": {
      const url = new URL(text(a[0], "href"));
      const key = a[1] as UrlPart;
      if (!URL_PARTS.includes(key) || key === "href") throw new BwError("INVALID_ARGUMENT", `URL has no settable part ${String(key)}`);
      url[key] = text(a[2], key);
      return record(url);
    }
    case "params.parse":
      return [...new URLSearchParams(text(a[0], "query"))];
    case "params.serialize":
      return new URLSearchParams(pairs(a[0])).toString();
    default:
      throw new BwError("INVALID_ARGUMENT", `unknown built-in operation ${String(name)}`);
  }
}
