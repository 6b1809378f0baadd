// Where the worker shortens page text before the daemon sees it (a long text
// node in a snapshot line, a link target, an observed console line or URL):
// at a word boundary, so that a secret the daemon must redact is kept whole or
// not at all, never by its first characters. The daemon redacts only what the
// worker kept, and a secret's start alone is no spelling it can recognise.

/** Text: words end at whitespace. */
const TEXT_BOUNDARY = /\s/;
/** URLs: a query value or a path segment ends at a delimiter no URL encoder leaves raw inside one. */
const URL_BOUNDARY = /[/?&=#]/;

/**
 * At most `max` characters of `text`, ending at the last boundary within
 * reach; mid-word only when no boundary comes before `max` (one token longer
 * than the whole allowance).
 */
export function cutAtWord(text: string, max: number, kind: "text" | "url" = "text"): string {
  if (text.length <= max) return text;
  const boundary = kind === "url" ? URL_BOUNDARY : TEXT_BOUNDARY;
  let cut = max;
  if (!boundary.test(text[max]!) && !boundary.test(text[max - 1]!)) {
    for (let i = max - 1; i > 0; i--) {
      if (boundary.test(text[i]!)) {
        cut = i + 1;
        break;
      }
    }
  }
  return text.slice(0, cut).trimEnd();
}

/** The same with an ellipsis where something was cut. */
export function clipAtWord(text: string, max: number, kind: "text" | "url" = "text"): string {
  return text.length <= max ? text : `${cutAtWord(text, max, kind)}…`;
}
