import { describe, expect, it } from "vitest";
import { REFUNDED, WELCOME } from "../../bench/agent-pages.js";
import { agentOver, betterwrightDialect, playwrightMcpDialect, type ToolServer } from "../../bench/peers/mcp-agents.js";
import { loginTask, rowTask } from "../../bench/peers/mcp-tasks.js";

type Answer = { content: { type: "text"; text: string }[]; isError?: boolean };
const text = (t: string, isError = false): Answer => ({ content: [{ type: "text", text: t }], ...(isError ? { isError } : {}) });

/** Stand-in servers: they answer as each server does, from a page state of their own, and log every call. */
function standIn(tools: readonly string[], answer: (name: string, args: Record<string, unknown>) => Answer): ToolServer & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    list: { tools: tools.map((name) => ({ name })) },
    async call(name, args) {
      log.push(`${name} ${JSON.stringify(args)}`);
      return answer(name, args);
    },
    close: async () => undefined,
  };
}

const CORE = ["navigate", "back", "snapshot", "read", "click", "type", "fill", "select", "press", "wait_for", "screenshot", "tabs", "run"];

/** betterwright's answers: a table row on one line, 100 rows a snapshot part, a cursor to the next part. */
function ours(tools: readonly string[], clickWorks = true) {
  const state = { url: "", refunded: false, signedIn: false };
  const row = (i: number) => {
    const order = 10000 + i;
    const status = order === 10217 && state.refunded ? REFUNDED : "shipped";
    return `    - row [e${1000 + i * 8}]: #${order} | Customer ${i} | ${status} | 1 EUR | link "View" [e${1006 + i * 8}] → /orders/${order}, button "Refund" [e${1007 + i * 8}]`;
  };
  const part = (n: number) => {
    const rows = Array.from({ length: 100 }, (_, k) => row(n * 100 + k)).join("\n");
    return n < 2 ? `${rows}\n[page p1 · ${state.url} · 2419 refs · 30000 characters in all, more: call snapshot with cursor "p1.1.${n + 1}"]` : `${rows}\n[page p1 · ${state.url} · 2419 refs]`;
  };
  const login = '- main [f1e2]\n  - textbox "Username" [f1e6]\n  - textbox "Password" [f1e8]\n  - button "Sign in" [f1e9]\n[page p1 · /agent/login · 4 refs]';
  return standIn(tools, (name, args) => {
    if (name === "navigate") state.url = String(args.url);
    if (name === "navigate") return text(JSON.stringify({ url: state.url, status: 200 }));
    if (name === "snapshot" && typeof args.cursor === "string") return text(part(Number(args.cursor.split(".").pop())));
    if (name === "snapshot" && args.target === "e2736") return text(row(217));
    if (name === "snapshot") return text(state.url.endsWith("/login") ? login : part(0));
    if (name === "find") return text(`${Array.from({ length: 300 }, (_, i) => row(i)).filter((l) => l.includes(String(args.query))).join("\n")}\n[1 matches · page p1]`);
    if (name === "click" && args.target === "e2743") state.refunded = clickWorks;
    else if (name === "click" && args.target === "f1e9") state.signedIn = true;
    else if (name === "click") return text(`Error STALE_REF: ${String(args.target)}`, true);
    if (name === "read") return text(state.signedIn ? `Welcome — /agent/welcome\n\n${WELCOME}` : "Sign in");
    return text(JSON.stringify({ target: args.target ?? "fields" }));
  });
}

describe("the MCP tasks, scripted with each server's default tools", () => {
  it("with today's core set: fills field by field, and pages through the snapshot until the row shows", async () => {
    const server = ours(CORE);
    const agent = agentOver("betterwright", "0", server, betterwrightDialect);
    await loginTask(agent, "http://127.0.0.1:1");
    expect(server.log.map((l) => l.split(" ")[0])).toEqual(["navigate", "snapshot", "fill", "fill", "click", "read"]);
    server.log.length = 0;
    await rowTask(agent, "http://127.0.0.1:1");
    expect(server.log).toEqual([
      'navigate {"url":"http://127.0.0.1:1/agent/table"}',
      "snapshot {}",
      'snapshot {"cursor":"p1.1.1"}',
      'snapshot {"cursor":"p1.1.2"}',
      'click {"target":"e2743"}',
      'snapshot {"target":"e2736"}',
    ]);
    expect(agent.tally.calls).toBe(12);
  });

  it("with find and fill_form in the set: uses them, and the tasks take fewer calls", async () => {
    const server = ours([...CORE, "find", "fill_form"]);
    const agent = agentOver("betterwright", "0", server, betterwrightDialect);
    await loginTask(agent, "http://127.0.0.1:1");
    expect(server.log.map((l) => l.split(" ")[0])).toEqual(["navigate", "snapshot", "fill_form", "click", "read"]);
    server.log.length = 0;
    await rowTask(agent, "http://127.0.0.1:1");
    expect(server.log).toEqual(['navigate {"url":"http://127.0.0.1:1/agent/table"}', 'find {"query":"10217"}', 'click {"target":"e2743"}', 'find {"query":"10217"}']);
  });

  it("fails a task that did not get there, with the server's words", async () => {
    const agent = agentOver("betterwright", "0", ours([...CORE, "find"], false), betterwrightDialect);
    await expect(rowTask(agent, "http://127.0.0.1:1")).rejects.toThrow(/does not say "refund requested"/);
  });

  it("takes Playwright MCP's button from the context its find shows under the row", async () => {
    let refunded = false;
    const found = () => `### Result\nFound 2 matches for "10217":\n\n- generic [ref=f1e1]:\n  - table [ref=f1e10]:\n    - row [ref=f1e1755]:\n      - cell "#10217" [ref=f1e1756]\n      - cell "${refunded ? REFUNDED : "shipped"}" [ref=f1e1758]\n      ...\n      - cell [ref=f1e1760]:\n        - link "View" [ref=f1e1761] [cursor=pointer]:\n          - /url: /orders/10217\n        - button "Refund" [ref=f1e1762]`;
    const server = standIn(["browser_navigate", "browser_snapshot", "browser_find", "browser_click"], (name, args) => {
      if (name === "browser_click" && args.target === "f1e1762") refunded = true;
      return text(name === "browser_find" ? found() : "### Page\n- Page URL: /agent/table");
    });
    await rowTask(agentOver("Playwright MCP", "0", server, playwrightMcpDialect), "http://127.0.0.1:1");
    expect(server.log.map((l) => l.split(" ")[0])).toEqual(["browser_navigate", "browser_find", "browser_click", "browser_find"]);
    expect(server.log[2]).toBe('browser_click {"target":"f1e1762","element":"Refund button of order #10217"}');
  });
});
