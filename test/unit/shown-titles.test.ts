// When the browser's copy of a title could be the page's formatted address,
// it proves nothing about the title (daemon/browser-worker/shown-titles.ts).
import { describe, expect, it } from "vitest";
import { mayBeAddress } from "../../daemon/browser-worker/shown-titles.js";

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
