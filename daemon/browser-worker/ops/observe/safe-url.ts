// A request URL as the observation buffers keep it: no user or password, no
// fragment, the values of query parameters that look like secrets replaced,
// data: and blob: URLs cut to their type. Pure.
import { clipAtWord } from "../clip-text.js";

const SECRET_PARAM = /(^|[_-])(token|key|secret|password|passwd|pwd|auth|authorization|session|sid|sig|signature|code|credential|jwt|access|refresh|otp|apikey|api_key)([_-]|$)/i;
export const MAX_URL_CHARS = 2_000;
export const REDACTED_VALUE = "REDACTED";

export function safeUrl(raw: string): string {
  if (/^(data|blob):/i.test(raw)) return `${raw.slice(0, raw.indexOf(":") + 1)}…`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return clipAtWord(raw, 200, "url");
  }
  url.username = "";
  url.password = "";
  url.hash = "";
  for (const key of [...new Set(url.searchParams.keys())]) {
    if (SECRET_PARAM.test(key)) url.searchParams.set(key, REDACTED_VALUE);
  }
  const text = url.toString();
  return clipAtWord(text, MAX_URL_CHARS, "url");
}
