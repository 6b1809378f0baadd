// Redacting a part cut out of a longer text: a secret (in any spelling) that
// crosses a cut never shows in part, whatever the cut position, and when the
// context is narrower than a secret's widest spelling the stretch by the cut
// is withheld rather than trusted.
import { describe, expect, it } from "vitest";
import { CUT_CONTEXT_CHARS, textContextAround } from "../../shared/protocol/envelope.js";
import { filterRunOutput } from "../../daemon/vault/output-filter.js";
import { REDACTED, Redactor } from "../../daemon/vault/redactor.js";
import { boundResult, RESULT_PREVIEW_CHARS } from "../../daemon/browser-worker/result-bound.js";
import { longestSpellingChars } from "../../daemon/vault/secret-spellings.js";

const SECRET = "pa$$ w&rd<42>";

function redactorWith(...secrets: string[]): Redactor {
  const r = new Redactor();
  for (const s of secrets) r.add(s);
  return r;
}

/** Every piece of `secret` of at least 3 characters that `text` holds. */
function pieces(text: string, secret: string): string[] {
  const out: string[] = [];
  for (let len = 3; len <= secret.length; len++) for (let i = 0; i + len <= secret.length; i++) if (text.includes(secret.slice(i, i + len))) out.push(secret.slice(i, i + len));
  return out;
}

describe("Redactor.redactCut", () => {
  const spellings = [SECRET, encodeURIComponent(SECRET), JSON.stringify(SECRET).slice(1, -1), SECRET.replace(/&/g, "&amp;").replace(/</g, "&lt;")];

  it.each(spellings)("hides every piece of %s on both sides of every cut", (spelled) => {
    const r = redactorWith(SECRET);
    const text = `before the secret ${spelled} and after it`;
    const start = text.indexOf(spelled);
    for (let cut = start - 1; cut <= start + spelled.length + 1; cut++) {
      const left = r.redactCut(text.slice(0, cut), textContextAround(text, 0, cut));
      const right = r.redactCut(text.slice(cut), textContextAround(text, cut, text.length));
      expect(pieces(left + right, spelled), `cut at ${cut}`).toEqual([]);
      if (cut > start && cut < start + spelled.length) {
        expect(left.endsWith(REDACTED)).toBe(true);
        expect(right.startsWith(REDACTED)).toBe(true);
      }
    }
  });

  it("leaves a part with no secret, and text away from the cut, as it was", () => {
    const r = redactorWith(SECRET);
    const text = `${"x".repeat(CUT_CONTEXT_CHARS * 3)}`;
    expect(r.redactCut(text.slice(5000, 6000), textContextAround(text, 5000, 6000))).toBe(text.slice(5000, 6000));
    expect(new Redactor().redactCut("abc", { before: "", after: "", fromStart: false, toEnd: false })).toBe("abc");
  });

  it("withholds the stretch by a cut whose context is narrower than a secret's widest spelling", () => {
    const r = redactorWith(SECRET);
    const reach = longestSpellingChars(SECRET) - 1;
    const part = "y".repeat(reach * 3);
    const shown = r.redactCut(part, { before: "", after: "", fromStart: false, toEnd: false });
    expect(shown).toBe(`${REDACTED}${"y".repeat(reach)}${REDACTED}`);
    expect(r.redactCut(part, { before: "", after: "", fromStart: true, toEnd: true })).toBe(part);
  });

  it("bounds a secret's widest spelling above each spelling the redactor knows", () => {
    for (const spelled of spellings) expect(longestSpellingChars(SECRET)).toBeGreaterThanOrEqual(spelled.length);
    expect(longestSpellingChars("abc")).toBeLessThan(CUT_CONTEXT_CHARS);
  });

  it("redacts the preview of a result too large to cross as the whole result would be", () => {
    const r = redactorWith(SECRET);
    const spelled = JSON.stringify(SECRET).slice(1, -1);
    for (let shift = -1; shift <= spelled.length + 1; shift++) {
      // The secret's JSON spelling starts `shift` characters before the preview's end.
      const filler = "x".repeat(RESULT_PREVIEW_CHARS - 1 - shift);
      const result = `${filler}${SECRET}${"y".repeat(50_000)}`;
      const bounded = boundResult({ ok: true, result, console: [], pages: [], artifacts: [], warnings: [] }, 10_000);
      expect(bounded.truncated).toBe(true);
      const { outcome } = filterRunOutput(r, bounded, "");
      expect(outcome.textContext).toBeUndefined();
      expect(pieces(outcome.preview!, spelled), `shift ${shift}`).toEqual([]);
      if (shift > 0 && shift < spelled.length) expect(outcome.preview!.endsWith(`${REDACTED}…`)).toBe(true);
    }
  });
});
