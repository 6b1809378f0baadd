// Every serialization a page, Playwright or a snippet's serializer can give a
// vault secret is redacted. The spellings here come from the serializers
// themselves (or their documented rules), not from the redactor's encoders.
import { describe, expect, it } from "vitest";
import { REDACTED, Redactor } from "../../daemon/vault/redactor.js";

const entity = (map: Record<string, string>) => (s: string) => s.replace(/[\s\S]/gu, (c) => map[c] ?? c);
const hex4 = (c: string, upper = false) => {
  const h = `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  return upper ? h.replace(/[a-f]/g, (x) => x.toUpperCase()) : h;
};
const jsonBody = (s: string) => JSON.stringify(s).slice(1, -1);

/** name → serializer. */
const SERIALIZERS: [string, (s: string) => string][] = [
  ["raw", (s) => s],
  // Chromium's page.content(): text nodes escape & < > and U+00A0 only, attributes & " and U+00A0 (and < > since 2025).
  ["HTML text node", entity({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\u00a0": "&nbsp;" })],
  ["HTML text node, nbsp kept", entity({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })],
  ["HTML attribute", entity({ "&": "&amp;", '"': "&quot;", "\u00a0": "&nbsp;" })],
  ["HTML attribute, < > escaped", entity({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;", "\u00a0": "&nbsp;" })],
  ["escape-html / lodash (&#39;)", entity({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;", "'": "&#39;" })],
  ["Go html/template (&#34; &#39;)", entity({ "&": "&amp;", '"': "&#34;", "<": "&lt;", ">": "&gt;", "'": "&#39;" })],
  ["Python html.escape / React (&#x27;)", entity({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;", "'": "&#x27;" })],
  ["PHP htmlspecialchars (&#039;)", entity({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;", "'": "&#039;" })],
  ["XML (&apos;)", entity({ "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;", "'": "&apos;" })],
  ["JSON.stringify", jsonBody],
  ["JSON with \\/ (PHP)", (s) => jsonBody(s).replace(/\//g, "\\/")],
  ["JSON with \\u003c \\u003e \\u0026 (Go)", (s) => jsonBody(s).replace(/[<>&]/g, (c) => hex4(c))],
  // Every " in a JSON body is escaped, so each \" there is one.
  ["JSON_HEX_* upper case (PHP)", (s) => jsonBody(s).replace(/\\"/g, "\\u0022").replace(/[<>&']/g, (c) => hex4(c, true))],
  ["JSON ASCII only (Python)", (s) => jsonBody(s).replace(/[\u007f-\uffff]/g, (c) => hex4(c))],
  ["JSON ASCII only, upper hex", (s) => jsonBody(s).replace(/[\u007f-\uffff]/g, (c) => hex4(c, true))],
  ["JSON of a text node", (s) => jsonBody(entity({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\u00a0": "&nbsp;" })(s))],
  ["JSON of an attribute", (s) => jsonBody(entity({ "&": "&amp;", '"': "&quot;", "\u00a0": "&nbsp;" })(s))],
  ["encodeURIComponent", encodeURIComponent],
  ["encodeURIComponent, lower-case hex", (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
  ["encodeURI", encodeURI],
  ["form (URLSearchParams)", (s) => new URLSearchParams({ v: s }).toString().slice(2)],
  ["form, lower-case hex", (s) => new URLSearchParams({ v: s }).toString().slice(2).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
  ["encodeURIComponent, + for space", (s) => encodeURIComponent(s).replace(/%20/g, "+")],
  ["URL-encoded JSON", (s) => encodeURIComponent(jsonBody(s))],
  ["base64", (s) => Buffer.from(s).toString("base64")],
  ["base64url", (s) => Buffer.from(s).toString("base64url")],
];

const PASSWORDS: [string, string][] = [
  ["the one a text node leaked", 'Zq7<Kx&Vu"9>Wm'],
  ["every ASCII punctuation", "aB3 !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~x"],
  ["quotes and markup only, no plain character", "\"'<>&"],
  ["non-breaking space, accents, an astral character", "pa\u00a0ss é😀 <&>\"'/"],
  ["control characters", "tab\there\nline\u007f\u0085'\"&"],
];

describe("secret spellings", () => {
  for (const [pwName, password] of PASSWORDS) {
    describe(pwName, () => {
      const redactor = new Redactor();
      redactor.add(password);
      it.each(SERIALIZERS)("%s", (_name, serialize) => {
        const spelled = serialize(password);
        expect(redactor.redactString(`before ${spelled} after`)).toBe(`before ${REDACTED} after`);
        expect(redactor.redact({ v: [`<p>${spelled}</p>`] })).toEqual({ v: [`<p>${REDACTED}</p>`] });
      });
    });
  }

  it("redacts a secret inside a longer base64 blob at every byte alignment", () => {
    const password = 'Zq7<Kx&Vu"9>Wm';
    const redactor = new Redactor();
    redactor.add(password);
    for (const prefix of ["u:", "us:", "use:"]) {
      const blob = Buffer.from(`${prefix}${password}`).toString("base64");
      const out = redactor.redactString(`Authorization: Basic ${blob}`);
      expect(out).toContain(REDACTED);
      expect(Buffer.from(out.slice(21), "base64").toString("latin1")).not.toContain("Kx&Vu");
    }
  });

  it("leaves text alone that only looks like a spelling of part of the secret", () => {
    const redactor = new Redactor();
    redactor.add('Zq7<Kx&Vu"9>Wm');
    const text = 'Zq7&lt;Kx &amp; Vu&quot;9 <div title="Wm">Zq7</div>';
    expect(redactor.redactString(text)).toBe(text);
  });

  it("finds secrets whose plain parts overlap, or start at the same place", () => {
    const redactor = new Redactor();
    for (const s of ['x"abc', "abcd!", "q<xab", "bcd>z"]) redactor.add(s);
    expect(redactor.redactString("x&quot;abcd")).toBe(`${REDACTED}d`);
    expect(redactor.redactString("abcd%21")).toBe(REDACTED);
    expect(redactor.redactString("q&lt;xabcd&gt;z")).toBe(`${REDACTED}cd&gt;z`);
    expect(redactor.redactString("zz bcd\\u003ez")).toBe(`zz ${REDACTED}`);
  });

  it("replaces a secret that contains another whole", () => {
    const redactor = new Redactor();
    redactor.add("short<1");
    redactor.add("short<1-and-longer");
    expect(redactor.redactString("a short&lt;1-and-longer b short%3C1")).toBe(`a ${REDACTED} b ${REDACTED}`);
  });
});
