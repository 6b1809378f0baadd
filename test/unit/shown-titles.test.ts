// When the browser's copy of a title could be the page's formatted address,
// it proves nothing about the title (daemon/browser-worker/shown-titles.ts).
import { describe, expect, it } from "vitest";
import { BATCH_URL_CHARS, batchable, mayBeAddress } from "../../daemon/browser-worker/shown-titles.js";

describe("a title that may read as the page's address", () => {
  it("is any title the address, decoded or not, holds, or one holding the host in either form", () => {
    const yes: [string, string][] = [
      ["", "http://127.0.0.1:3000/"], ["127.0.0.1:3000", "http://127.0.0.1:3000/"], ["127.0.0.1:3000/a b", "http://127.0.0.1:3000/a%20b"],
      ["about:blank", "about:blank"], ["data:text/html,", "data:text/html,<p>x"], ["a", "http://example.test/a"],
      ["bücher.example/x", "http://xn--bcher-kva.example/x"], ["www.example.test - home", "https://www.example.test/"], ["x", "not a url"],
    ];
    for (const [title, url] of yes) expect(mayBeAddress(title, url), `${title} @ ${url}`).toBe(true);
    const no: [string, string][] = [["Front page", "http://127.0.0.1:3000/"], ["T", "http://127.0.0.1:3000/"], ["Inbox (3)", "https://mail.example.test/u/0/"]];
    for (const [title, url] of no) expect(mayBeAddress(title, url), `${title} @ ${url}`).toBe(false);
  });
});

describe("one Target.getTargets for the envelopes of a turn", () => {
  it("is asked only while the browser's pages' addresses are short together: no page's long address rides on the others'", () => {
    const short = Array.from({ length: 100 }, (_, i) => `http://127.0.0.1:3000/page/${i}`);
    expect(batchable(short)).toBe(true);
    expect(batchable([...short, `http://127.0.0.1:3000/#${"u".repeat(1_500_000)}`])).toBe(false);
    expect(batchable([`http://x/#${"u".repeat(BATCH_URL_CHARS - 10)}`])).toBe(true);
    expect(batchable([`http://x/#${"u".repeat(BATCH_URL_CHARS - 9)}`])).toBe(false);
    expect(batchable([])).toBe(true);
  });
});
