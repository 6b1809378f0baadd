// A vault secret that a page shows never comes out in pieces: wherever an
// answer is cut (a snapshot page and the one its cursor continues with, or
// `read --max-chars`), the part of the secret on each side of the cut shows as
// [REDACTED], over the CLI and over MCP, and no transcript holds a piece of it.
// An observed console line the worker cuts keeps the secret whole or drops it.
import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layoutFor, transcriptPath } from "../../shared/paths.js";
import { destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";
import { startStdioMcp, textOf, type StdioMcp } from "../helpers/mcp-client.js";

const LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz";
/** Letters only, so that no piece of it turns up by chance in ports, refs or cursors. */
const secret = Array.from({ length: 16 }, () => LETTERS[randomInt(LETTERS.length)]).join("");
/** Enough filler that the secret sits past the smallest maxChars (200), on the snapshot's first line. */
const filler = Array.from({ length: 45 }, (_, i) => `word${i}`).join(" ");

/** Every piece of the secret of 4 characters or more that `text` holds. */
function piecesIn(text: string): string[] {
  const found: string[] = [];
  for (let len = 4; len <= secret.length; len++) {
    for (let i = 0; i + len <= secret.length; i++) if (text.includes(secret.slice(i, i + len))) found.push(secret.slice(i, i + len));
  }
  return found;
}

describe("a secret cut across an answer's boundary", () => {
  let home: string;
  let server: TestServer;
  let mcp: StdioMcp;
  const S = ["--session", "cuts"];
  const op = async (...args: string[]) => (await runCli([...args, ...S, "--json"], { home })).json;
  /** Where the secret starts in the page's whole snapshot and its read text (the redacted whole shows the marker there). */
  let snapAt = 0;
  let readAt = 0;

  beforeAll(async () => {
    home = tempHome("bw-cuts-");
    server = await startServer({
      "/show": `<title>Show</title><p>${filler} ${secret} end of the line</p>`,
      // Console lines whose secret straddles the 2,000-character cut of an observed entry, at every position.
      "/log": `<title>Log</title><script>for (let at = 0; at <= ${secret.length}; at++) console.log("w ".repeat(1000).slice(0, 1999 - at) + " " + ${JSON.stringify(secret)} + " tail")</script>`,
    });
    const added = await runCli(["vault", "add", "--site", `${server.url}/show`, "--username", "alice", "--json"], { home, input: secret });
    expect(added.code).toBe(0);
    expect((await op("navigate", `${server.url}/show`)).ok).toBe(true);
    const whole = await op("snapshot");
    expect(whole.result.text).toContain("[REDACTED]");
    snapAt = whole.result.text.indexOf("[REDACTED]");
    expect(whole.result.text.lastIndexOf("\n", snapAt)).toBe(-1);
    expect(snapAt).toBeGreaterThan(200);
    const read = await op("read");
    readAt = read.result.text.indexOf("[REDACTED]");
    expect(readAt).toBeGreaterThan(100);
    mcp = await startStdioMcp(home, [], "cuts");
    await mcp.client.callTool({ name: "navigate", arguments: { url: `${server.url}/show` } });
  }, 120_000);

  afterAll(async () => {
    await mcp?.close().catch(() => undefined);
    await destroyHome(home);
    await server.close();
  });

  it("snapshot pages over the CLI: every cut position across the secret", async () => {
    for (let cut = snapAt - 1; cut <= snapAt + secret.length + 1; cut++) {
      const first = await op("snapshot", "--max-chars", String(cut));
      expect(first.ok).toBe(true);
      expect(first.result.cursor).toBeDefined();
      const rest = await op("snapshot", "--cursor", first.result.cursor, "--max-chars", "100000");
      expect(rest.ok).toBe(true);
      const both = `${first.result.text}|${rest.result.text}`;
      expect(piecesIn(JSON.stringify(first)), `cut at ${cut}`).toEqual([]);
      expect(piecesIn(JSON.stringify(rest)), `cut at ${cut}`).toEqual([]);
      if (cut > snapAt && cut < snapAt + secret.length) {
        expect(first.result.text.endsWith("[REDACTED]"), both).toBe(true);
        expect(rest.result.text.startsWith("[REDACTED]"), both).toBe(true);
      }
    }
  }, 240_000);

  it("read --max-chars over the CLI: every cut position across the secret", async () => {
    for (let cut = readAt - 1; cut <= readAt + secret.length + 1; cut++) {
      const answer = await op("read", "--max-chars", String(cut));
      expect(answer.ok).toBe(true);
      expect(piecesIn(JSON.stringify(answer)), `cut at ${cut}`).toEqual([]);
      if (cut > readAt && cut < readAt + secret.length) expect(answer.result.text.endsWith("[REDACTED]")).toBe(true);
    }
  }, 240_000);

  it("snapshot pages and read over MCP: every cut position across the secret", async () => {
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await mcp.client.callTool({ name, arguments: args });
      expect(result.isError, textOf(result)).toBeFalsy();
      return result;
    };
    for (let cut = snapAt - 1; cut <= snapAt + secret.length + 1; cut++) {
      const first = await call("snapshot", { maxChars: cut });
      const cursor = (first.structuredContent as { cursor?: string } | undefined)?.cursor ?? /p\d+\.\d+\.\d+/.exec(textOf(first))?.[0];
      expect(cursor, textOf(first)).toBeDefined();
      const rest = await call("snapshot", { cursor, maxChars: 100_000 });
      expect(piecesIn(JSON.stringify(first)), `cut at ${cut}`).toEqual([]);
      expect(piecesIn(JSON.stringify(rest)), `cut at ${cut}`).toEqual([]);
    }
    for (let cut = readAt - 1; cut <= readAt + secret.length + 1; cut++) {
      expect(piecesIn(JSON.stringify(await call("read", { maxChars: cut }))), `cut at ${cut}`).toEqual([]);
    }
  }, 240_000);

  it("observe: a console line cut where the secret is keeps no piece of it", async () => {
    expect((await op("navigate", `${server.url}/log`)).ok).toBe(true);
    const observed = await op("observe", "console", "--limit", "50");
    expect(observed.ok).toBe(true);
    // Seventeen lines of 2,000 characters: the answer is spilled to a file, which is output too.
    const spilled = observed.fullOutputPath ? readFileSync(observed.fullOutputPath, "utf8") : "";
    const all = `${JSON.stringify(observed)}${spilled}`;
    expect(all.split("w w w").length).toBeGreaterThan(secret.length);
    expect(piecesIn(all)).toEqual([]);
  }, 60_000);

  it("leaves no piece of the secret in the transcripts", () => {
    for (const session of ["cuts"]) {
      expect(piecesIn(readFileSync(transcriptPath(layoutFor(home, "default"), session), "utf8"))).toEqual([]);
    }
  });
});
