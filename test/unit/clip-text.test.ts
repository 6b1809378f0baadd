// Text the worker shortens before the daemon redacts it is cut at a word (or
// URL delimiter) boundary: a secret without one straddling the limit is kept
// whole or dropped, never shown by its first characters, at any cut position.
import { describe, expect, it } from "vitest";
import { MAX_OBSERVED_TEXT } from "../../daemon/browser-worker/ops/observe/page-observer.js";
import { MAX_URL_CHARS, safeUrl } from "../../daemon/browser-worker/ops/observe/safe-url.js";
import { clipAtWord, cutAtWord } from "../../daemon/browser-worker/ops/clip-text.js";

const SECRET = "Zq8xKv3Wm7pLr2Tn";

/** Every piece of the secret of 3 characters or more in `text`. */
const pieces = (text: string) => {
  const out: string[] = [];
  for (let len = 3; len < SECRET.length; len++) for (let i = 0; i + len <= SECRET.length; i++) if (text.includes(SECRET.slice(i, i + len))) out.push(SECRET.slice(i, i + len));
  return out;
};

describe("clipAtWord", () => {
  it("never keeps part of a word that straddles the limit, at any position", () => {
    for (let at = 0; at < 40; at++) {
      const text = `${"word ".repeat(20).slice(0, 60 + at)} ${SECRET} and the rest`;
      for (const max of [70, 80]) {
        const clipped = clipAtWord(text, max);
        expect(clipped.length).toBeLessThanOrEqual(max + 1);
        if (!clipped.includes(SECRET)) expect(pieces(clipped), `${at}/${max}: ${clipped}`).toEqual([]);
      }
    }
  });

  it("cuts URLs at their delimiters, and an observed URL keeps no piece of a value it cuts", () => {
    for (let shift = 0; shift < SECRET.length + 2; shift++) {
      const url = `https://a.test/${"p".repeat(MAX_URL_CHARS - 30 - shift)}?q=${SECRET}&more=1`;
      const shown = safeUrl(url);
      if (!shown.includes(SECRET)) expect(pieces(shown), `shift ${shift}`).toEqual([]);
    }
    expect(clipAtWord("https://a.test/one/two/three", 20, "url")).toBe("https://a.test/one/…");
  });

  it("leaves short text alone, and cuts one token longer than the allowance where it must", () => {
    expect(clipAtWord("short", 10)).toBe("short");
    expect(clipAtWord("x".repeat(30), 10)).toBe(`${"x".repeat(10)}…`);
    expect(cutAtWord("a bc def", 5)).toBe("a bc");
    expect(clipAtWord(`${"a ".repeat(MAX_OBSERVED_TEXT)}`, MAX_OBSERVED_TEXT).length).toBeLessThanOrEqual(MAX_OBSERVED_TEXT + 1);
  });
});
