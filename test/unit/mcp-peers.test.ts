import { describe, expect, it } from "vitest";
import { agentPage, LOGIN, REFUNDED } from "../../bench/agent-pages.js";
import { contentBytes, contentText, emptyTally, requestBytes, since } from "../../bench/peers/mcp-count.js";
import { cursorOf, enclosingRef, lineWith, refInside, refOf, refOnLine } from "../../bench/peers/mcp-refs.js";
import { MCP_PEER, MCP_PEER_AIMS, peerVerdicts } from "../../bench/peers/peer-aims.js";
import { formatPeersTable, type PeerRow } from "../../bench/peers/table.js";

// Shaped as each server answers: betterwright puts a table row on one line;
// Playwright MCP's find answers with a heading and the match's context.
const OURS_FIND = `- row [e1755]: #10217 | Customer 11 | shipped | 190.27 EUR | link "View" [e1761] → /orders/10217, button "Refund" [e1762]
[1 matches · page p1]`;
const PLAYWRIGHT_FIND = `### Result
Found 2 matches for "10217":

- generic [active] [ref=f1e1]:
  - main [ref=f1e8]:
    - table [ref=f1e10]:
      - rowgroup [ref=f1e18]:
        - row [ref=f1e1747]:
          ...
          - cell [ref=f1e1752]:
            - button "Refund" [ref=f1e1754]
        - row [ref=f1e1755]:
          - cell "#10217" [ref=f1e1756]
          - cell "shipped" [ref=f1e1758]
          ...
          - cell [ref=f1e1760]:
            - link "View" [ref=f1e1761] [cursor=pointer]:
              - /url: /orders/10217
            - button "Refund" [ref=f1e1762]
        - row [ref=f1e1763]:
          - cell "#10218" [ref=f1e1764]`;

describe("what a tool call costs an agent", () => {
  it("counts the request as its name and arguments in JSON, and the answer block by block in UTF-8", () => {
    expect(requestBytes("click", { target: "e3" })).toBe('{"name":"click","arguments":{"target":"e3"}}'.length);
    const content = [{ type: "text", text: "héllo" }, { type: "image", data: "QUJD" }, { type: "resource", resource: { text: "ab" } }];
    expect(contentBytes(content)).toBe(6 + 4 + 2);
    expect(contentText(content)).toBe("héllo");
  });

  it("gives the calls and bytes between two readings of a tally", () => {
    const before = { ...emptyTally(), calls: 2, requestBytes: 10, responseBytes: 100 };
    expect(since(before, { calls: 5, requestBytes: 40, responseBytes: 1100 })).toEqual({ calls: 3, requestBytes: 30, responseBytes: 1000 });
  });
});

describe("reading refs from a snapshot", () => {
  it("reads both servers' refs, frame prefixes included, and the one right after a label", () => {
    expect(refOnLine('  - button "Go" [e3]')).toBe("e3");
    expect(refOnLine('  - heading "Hi" [level=1] [ref=f2e3]')).toBe("f2e3");
    expect(refOnLine(OURS_FIND.split("\n")[0]!, 'button "Refund"')).toBe("e1762");
    expect(refOnLine(OURS_FIND.split("\n")[0]!, 'button "Delete"')).toBeUndefined();
    expect(refOf('- textbox "Username" [f1e6]\n- textbox "Password" [f1e8]', 'textbox "Password"')).toBe("f1e8");
    expect(() => refOf("- heading \"Hi\" [e2]", 'button "Sign in"')).toThrow(/no ref for button "Sign in"/);
  });

  it("takes a mention from the snapshot's elements, never from a heading that repeats the search", () => {
    expect(lineWith(PLAYWRIGHT_FIND, "10217")).toBe("          - cell \"#10217\" [ref=f1e1756]");
  });

  it("finds the row that holds a mention: the line itself, or the nearest less indented row above it", () => {
    expect(enclosingRef(OURS_FIND, "#10217", "row")).toBe("e1755");
    expect(enclosingRef(PLAYWRIGHT_FIND, "#10217", "row")).toBe("f1e1755");
    expect(() => enclosingRef(PLAYWRIGHT_FIND, "#99999", "row")).toThrow(/not in/);
    expect(() => enclosingRef('- main [e1]\n  - cell "#10217" [e2]', "#10217", "row")).toThrow(/no row holds/);
  });

  it("takes the row's own button, never a neighbour's, and nothing when the row's subtree is not shown", () => {
    expect(refInside(OURS_FIND, "#10217", "row", 'button "Refund"')).toBe("e1762");
    expect(refInside(PLAYWRIGHT_FIND, "#10217", "row", 'button "Refund"')).toBe("f1e1762");
    const cut = PLAYWRIGHT_FIND.slice(0, PLAYWRIGHT_FIND.indexOf("          ...\n          - cell [ref=f1e1760]"));
    expect(refInside(`${cut}        - row [ref=f1e1763]:\n          - button "Refund" [ref=f1e1770]`, "#10217", "row", 'button "Refund"')).toBeUndefined();
  });

  it("reads the cursor a cut answer names for its next part", () => {
    expect(cursorOf('- row [e507]: …\n[page p1 · http://127.0.0.1:1/agent/table · 2419 refs · 37614 characters in all, more: call snapshot with cursor "p1.1.7984"]')).toBe("p1.1.7984");
    expect(cursorOf("- heading \"Hi\" [e2]\n[page p1 · http://127.0.0.1:1/ · 4 refs]")).toBeUndefined();
    expect(cursorOf('- link "Home" [ref=e4] [cursor=pointer]:')).toBeUndefined();
    expect(cursorOf('{"text":"…","cursor":"p1.2.8000"}')).toBe("p1.2.8000");
    expect(cursorOf('more: cursor: "p1.3.16000"')).toBe("p1.3.16000");
  });
});

describe("the MCP rows' aims", () => {
  it("holds every MCP row, tasks' calls and bytes alike, at or ahead of Playwright MCP, and prints counts whole", () => {
    const row = (name: string, ours: number, theirs: number): PeerRow => ({ name, better: "lower", counts: true, cells: { betterwright: { value: ours }, [MCP_PEER]: { value: theirs } } });
    const rows = [
      row("tools/list, default set (bytes of its JSON)", 15145, 21187),
      row("login task: tool calls", 5, 5),
      row("login task: bytes of requests and answers", 1039, 1959),
      row("row task: tool calls", 7, 4),
      { name: "click latency: a button (ms)", better: "lower", cells: { betterwright: { value: 50 }, [MCP_PEER]: { error: "boom" } } } satisfies PeerRow,
    ];
    const verdicts = peerVerdicts(rows, "betterwright", MCP_PEER_AIMS, "MCP peers");
    expect(verdicts.map((v) => [v.name, v.measured, v.met])).toEqual([
      [`tools/list, default set (bytes of its JSON), vs ${MCP_PEER}`, 0.71, true],
      [`login task: tool calls, vs ${MCP_PEER}`, 1, true],
      [`login task: bytes of requests and answers, vs ${MCP_PEER}`, 0.53, true],
      [`row task: tool calls, vs ${MCP_PEER}`, 1.75, false],
    ]);
    expect(verdicts.every((v) => v.scenario === "MCP peers")).toBe(true);
    expect(formatPeersTable([{ name: "betterwright" }, { name: MCP_PEER }], rows.slice(1, 2))).toContain("| login task: tool calls | 5 (1.00×) | 5 (1.00×) |");
  });
});

describe("the pages of the agent tasks", () => {
  it("lets the right user in to the welcome page and turns anyone else back", () => {
    const right = new URLSearchParams({ user: LOGIN.user, password: LOGIN.password }).toString();
    expect(agentPage("POST", "/agent/login", right)).toMatchObject({ status: 303, headers: { location: "/agent/welcome" } });
    expect(agentPage("POST", "/agent/login", "user=ada&password=wrong")?.status).toBe(401);
    expect(agentPage("GET", "/agent/login")?.body).toContain('<button type="submit">Sign in</button>');
  });

  it("serves a table whose row buttons write the new status, and nothing outside /agent/", () => {
    const table = agentPage("GET", "/agent/table")!.body;
    expect(table.match(/<button>Refund<\/button>/g)).toHaveLength(300);
    expect(table).toContain(JSON.stringify(REFUNDED));
    expect(agentPage("GET", "/agent/nothing")).toBeUndefined();
  });
});
