// The pure parts of snapshots and observation: rendering the ai-mode tree,
// masking passwords, the line diff, cursor paging over a capture, the ring
// buffers' drop counts and the URLs they keep.
import { describe, expect, it } from "vitest";
import { collectRefs, describeNode, findRef, maskPasswords, PASSWORD_MASK, renderTree, type AriaTree } from "../../daemon/browser-worker/ops/snapshot/aria-render.js";
import { childFrameRefs } from "../../daemon/browser-worker/ops/snapshot/take-snapshot.js";
import { CAPTURE_TTL_MS, CaptureStore, MAX_CAPTURE_CHARS, MAX_CAPTURES_PER_PAGE } from "../../daemon/browser-worker/ops/snapshot/captures.js";
import { diffLines, editScript } from "../../daemon/browser-worker/ops/snapshot/line-diff.js";
import { RingBuffer } from "../../daemon/browser-worker/ops/observe/ring-buffer.js";
import { safeUrl } from "../../daemon/browser-worker/ops/observe/safe-url.js";
import { failure } from "../helpers/failure.js";
import { SeededRng } from "../helpers/seeded-rng.js";

const PAGE = "http://127.0.0.1:8000/form";

const tree: AriaTree = [{
  role: "generic", ref: "e1", active: true, children: [
    { role: "heading", name: "Sign in", level: 1, ref: "e2" },
    { role: "generic", ref: "e3", children: ["User", { role: "textbox", name: "User", ref: "e4", text: "bob" }] },
    { role: "generic", ref: "e5", children: ["Pass", { role: "textbox", name: "Pass", ref: "e6", text: "hunter2" }] },
    { role: "button", name: "Go", ref: "e7" },
    { role: "combobox", ref: "e8", children: [{ role: "option", name: "A" }, { role: "option", name: "B", selected: true }] },
    { role: "generic", ref: "e9", cursor: "pointer", text: "menu" },
    { role: "paragraph", ref: "e10", text: "Some\n  text" },
    { role: "link", name: "About \"us\"", ref: "e11", url: "http://127.0.0.1:8000/about?x=1" },
    { role: "link", name: "Elsewhere", ref: "e12", url: "https://example.org/" },
  ],
}];

describe("rendering a snapshot", () => {
  it("folds unnamed wrappers, shows refs where an agent acts or points, shortens same-origin links", () => {
    expect(renderTree(structuredClone(tree), { interactive: false, pageUrl: PAGE })).toEqual([
      '- heading "Sign in" [level=1] [e2]',
      // A label's text beside the field it names is not repeated.
      '- textbox "User" [e4]: bob',
      '- textbox "Pass" [e6]: hunter2',
      '- button "Go" [e7]',
      "- combobox [e8]: B",
      '  - option "A"',
      '  - option "B" [selected]',
      "- generic [pointer] [e9]: menu",
      "- paragraph: Some text",
      '- link "About \\"us\\"" [e11] → /about?x=1',
      '- link "Elsewhere" [e12] → https://example.org/',
    ]);
  });

  it("puts a table row on one line, lists at most 25 options, and names the place of look-alike elements", () => {
    const table: AriaTree = [{ role: "table", ref: "e1", children: [
      { role: "rowgroup", children: [{ role: "row", ref: "e2", children: [{ role: "columnheader", name: "Order" }, { role: "columnheader", name: "Open" }] }] },
      { role: "rowgroup", children: [1, 2].map((n) => ({ role: "row", ref: `e${n}0`, children: [
        { role: "cell", name: `#${n}` },
        { role: "cell", children: [{ role: "link", name: "View", ref: `e${n}1`, url: `${PAGE}/${n}` }, { role: "button", name: "Refund", ref: `e${n}2` }] },
      ] })) },
    ] }];
    expect(renderTree(table, { interactive: false, pageUrl: PAGE })).toEqual([
      "- table [e1]",
      "  - row [e2]: Order | Open",
      '  - row [e10]: #1 | link "View" [e11] → /form/1, button "Refund" [e12]',
      '  - row [e20]: #2 | link "View" [e21] → /form/2, button "Refund" [e22]',
    ]);
    expect(renderTree(table, { interactive: true, pageUrl: PAGE })).toEqual([
      '- link "View" [e11] (in row "#1")',
      '- button "Refund" [e12] (in row "#1")',
      '- link "View" [e21] (in row "#2")',
      '- button "Refund" [e22] (in row "#2")',
    ]);
    const select: AriaTree = [{ role: "combobox", name: "Country", ref: "e1", children: Array.from({ length: 40 }, (_, i) => ({ role: "option", name: `C${i}`, ...(i === 30 ? { selected: true } : {}) })) }];
    const lines = renderTree(select, { interactive: false, pageUrl: PAGE });
    expect(lines[0]).toBe('- combobox "Country" [e1]: C30');
    expect(lines).toHaveLength(1 + 25 + 1);
    expect(lines[lines.length - 1]).toBe("  - option … 15 more");
  });

  it("keeps only what an agent can act on with --interactive, a select showing its choice", () => {
    expect(renderTree(structuredClone(tree), { interactive: true, pageUrl: PAGE })).toEqual([
      '- textbox "User" [e4]: bob',
      '- textbox "Pass" [e6]: hunter2',
      '- button "Go" [e7]',
      "- combobox [e8]: B",
      "- generic [pointer] [e9]: menu",
      '- link "About \\"us\\"" [e11]',
      '- link "Elsewhere" [e12]',
    ]);
  });

  it("masks a password value wherever a textbox shows it, in the tree itself", () => {
    const masked = maskPasswords(structuredClone(tree), new Set(["hunter2"]));
    for (const interactive of [false, true]) {
      const text = renderTree(masked, { interactive, pageUrl: PAGE }).join("\n");
      expect(text).not.toContain("hunter2");
      expect(text).toContain(`textbox "Pass" [e6]: ${PASSWORD_MASK}`);
    }
  });

  it("masks every textbox value when the page's password values could not be read", () => {
    const text = renderTree(maskPasswords(structuredClone(tree), "all"), { interactive: true, pageUrl: PAGE }).join("\n");
    expect(text).not.toContain("hunter2");
    expect(text).toContain(`textbox "User" [e4]: ${PASSWORD_MASK}`);
    expect(text).toContain(`textbox "Pass" [e6]: ${PASSWORD_MASK}`);
  });

  it("tells a child frame's refs from the main frame's, which carry a prefix too after a second document", () => {
    const framed: AriaTree = [{ role: "main", ref: "f3e1", children: [
      { role: "button", name: "Top", ref: "f3e2" },
      { role: "iframe", ref: "f3e3", children: [{ role: "button", name: "Pay", ref: "f5e1" }, { role: "iframe", ref: "f5e2", children: [{ role: "link", ref: "f6e1" }] }] },
    ] }];
    expect([...childFrameRefs(framed)]).toEqual([["f5", "f5e1"], ["f6", "f6e1"]]);
  });

  it("knows every ref of the tree, shown or not, and names a ref's element", () => {
    expect([...collectRefs(tree)].sort()).toEqual(["e1", "e10", "e11", "e12", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9"]);
    expect(describeNode(findRef(tree, "e7")!)).toBe('button "Go" [e7]');
    expect(findRef(tree, "e99")).toBeUndefined();
  });
});

describe("the line diff", () => {
  it("finds a shortest edit script that turns one rendering into the other", () => {
    const rng = new SeededRng(7);
    for (let t = 0; t < 500; t++) {
      const a = Array.from({ length: rng.int(0, 30) }, () => String(rng.int(0, 4)));
      const b = Array.from({ length: rng.int(0, 30) }, () => String(rng.int(0, 4)));
      const script = editScript(a, b)!;
      const out: string[] = [];
      let i = 0;
      let j = 0;
      for (const e of script) {
        if (e === "=") { expect(a[i]).toBe(b[j]); out.push(a[i]!); i++; j++; } else if (e === "+") out.push(b[j++]!);
        else i++;
      }
      expect(out).toEqual(b);
      expect(i).toBe(a.length);
    }
  });

  it("shows only what changed, under the line that encloses it, with counts", () => {
    const before = ["- list", "  - item: one", "  - item: two", "- button \"Go\" [e7]"];
    const after = ["- list", "  - item: one", "  - item: 2", "- button \"Go\" [e7]"];
    expect(diffLines(before, after)).toEqual({ lines: ["  - list", "-   - item: two", "+   - item: 2"], added: 1, removed: 1, unchanged: 3 });
    expect(diffLines(before, before)).toEqual({ lines: [], added: 0, removed: 0, unchanged: 4 });
  });

  it("gives up past its bound rather than spend memory on a page that changed entirely", () => {
    const a = Array.from({ length: 2000 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 2000 }, (_, i) => `b${i}`);
    expect(diffLines(a, b)).toBeUndefined();
  });
});

describe("captures and cursors", () => {
  const text = Array.from({ length: 100 }, (_, i) => `- line ${i} ${"x".repeat(i % 13)}`).join("\n");

  it("pages a capture at line ends, and the parts put together are the capture", () => {
    const store = new CaptureStore(() => 0);
    let part = store.add("p1", 1, text, 300);
    const parts = [part.text];
    while (part.cursor) {
      expect(part.text.length).toBeLessThanOrEqual(300);
      part = store.resume(part.cursor, 300);
      parts.push(part.text);
    }
    expect(parts.join("\n")).toBe(text);
    expect(parts.length).toBeGreaterThan(5);
  });

  it("cuts a capture too long to keep at a line end, so no line (nor a secret on it) is kept in part", () => {
    const line = "- paragraph: a line of the page with its own words ";
    const text = Array.from({ length: Math.ceil(MAX_CAPTURE_CHARS / line.length) + 10 }, (_, i) => `${line}${i}`).join("\n");
    const store = new CaptureStore(() => 0);
    let part = store.add("p1", 1, text, 1_000_000);
    let whole = part.text;
    while (part.cursor) {
      part = store.resume(part.cursor, 1_000_000);
      whole += `\n${part.text}`;
    }
    const kept = whole.slice(0, whole.lastIndexOf("\n[capture cut at"));
    expect(kept.length).toBeLessThanOrEqual(MAX_CAPTURE_CHARS);
    expect(text.startsWith(`${kept}\n`)).toBe(true);
  });

  it("refuses a cursor after its 30 s, or one pushed out by newer captures", () => {
    let now = 0;
    const store = new CaptureStore(() => now);
    const first = store.add("p1", 1, text, 300);
    now = CAPTURE_TTL_MS + 1;
    expect(failure(() => store.resume(first.cursor!, 300)).code).toBe("STALE_REF");
    const cursors = Array.from({ length: MAX_CAPTURES_PER_PAGE + 1 }, () => store.add("p1", 1, text, 300).cursor!);
    expect(() => store.resume(cursors[0]!, 300)).toThrow(/expired/);
    expect(store.resume(cursors[MAX_CAPTURES_PER_PAGE]!, 300).document).toBe(1);
    expect(() => store.resume("../../etc", 300)).toThrow(/not a snapshot cursor/);
  });
});

describe("observation buffers", () => {
  it("drop the oldest entries and tell a reader how many it missed", () => {
    const ring = new RingBuffer<{ text: string }>(3);
    for (let i = 1; i <= 5; i++) ring.push({ text: `m${i}` });
    const read = ring.read(0, 10);
    expect(read.entries.map((e) => e.id)).toEqual([3, 4, 5]);
    expect(read.dropped).toBe(2);
    expect(read.nextCursor).toBe(5);
    expect(ring.read(4, 10)).toMatchObject({ dropped: 0, nextCursor: 5, more: false });
    expect(ring.read(5, 10)).toMatchObject({ entries: [], dropped: 0, nextCursor: 5 });
    expect(ring.read(0, 1)).toMatchObject({ nextCursor: 3, more: true });
    // A cursor from a buffer that started over comes back to its end.
    expect(ring.read(99, 10).nextCursor).toBe(5);
  });

  it("keep request URLs without credentials, fragments or secret-looking query values", () => {
    expect(safeUrl("https://user:pw@a.test/p?q=1&token=abc&access_token=x#frag")).toBe("https://a.test/p?q=1&token=REDACTED&access_token=REDACTED");
    expect(safeUrl("data:text/html,<secret>")).toBe("data:…");
    expect(safeUrl("blob:https://a.test/123")).toBe("blob:…");
  });
});
