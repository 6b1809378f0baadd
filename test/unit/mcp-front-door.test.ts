// The MCP front door's pure parts: how results
// and errors read to a model, session names and labels, and which files may
// come back as images.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readArtifactImage } from "../../client/front-doors/mcp/artifact-image.js";
import { connectionSessionName } from "../../client/front-doors/mcp/connection.js";
import { errorResult, nextStep } from "../../client/front-doors/mcp/errors.js";
import { createOptions } from "../../client/front-doors/mcp/front-door-calls.js";
import { parseLabels } from "../../client/front-doors/mcp/labels.js";
import { envelopeResult, resultText } from "../../client/front-doors/mcp/results.js";
import type { Envelope } from "../../shared/protocol/envelope.js";
import { BwError, ERROR_CODES } from "../../shared/protocol/errors.js";
import { nameProblem } from "../../shared/names.js";

const envelope = (over: Partial<Envelope>): Envelope => ({ ok: true, session: "s", profile: "default", runId: "r", seq: 1, durationMs: 1, console: [], pages: [], artifacts: [], warnings: [], ...over });

describe("results and errors for a model", () => {
  it("shows a snapshot's text plainly with its refs, and how to go on", () => {
    const text = resultText("snapshot", { pageId: "p1", url: "http://x/", text: '- button "Go" [e3]', totalChars: 900, offset: 0, cursor: "c1", refs: 3, interactive: false });
    expect(text.startsWith('- button "Go" [e3]\n')).toBe(true);
    expect(text).toContain('cursor "c1"');
    expect(resultText("click", { target: "e3 button" })).toBe('{"target":"e3 button"}');
  });

  it("gives every error its code and a next step", () => {
    for (const code of Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[]) expect(nextStep(code).length).toBeGreaterThan(0);
    const stale = errorResult({ code: "STALE_REF", message: "e9 is gone", retryable: false });
    expect(stale.isError).toBe(true);
    expect(stale.structuredContent).toEqual({ error: { code: "STALE_REF", message: "e9 is gone", retryable: false } });
    expect(stale.content[0]).toMatchObject({ type: "text", text: expect.stringMatching(/^Error STALE_REF: e9 is gone\nNext: take a new snapshot/) });
    expect(errorResult(new BwError("BLOCKED_URL", "no")).structuredContent).toMatchObject({ error: { code: "BLOCKED_URL" } });
    expect(errorResult(new Error("boom")).structuredContent).toMatchObject({ error: { code: "INTERNAL_ERROR" } });
  });

  it("reports warnings, blocked requests and pages after an action", () => {
    const result = envelopeResult("click", envelope({
      result: { target: "e3" },
      warnings: [{ code: "ARTIFACT_EVICTED", message: "old file went" }],
      blocked: [{ url: "http://10.0.0.1/", layer: "proxy", reason: "private network", count: 1 }],
      pages: [{ pageId: "p1", url: "http://x/", title: "X", active: true }],
    }));
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain("warning ARTIFACT_EVICTED");
    expect(text).toContain("blocked (proxy) http://10.0.0.1/");
    expect(text).toContain("* p1 http://x/ — X");
    const failed = envelopeResult("click", envelope({ ok: false, error: { code: "LOCATOR_AMBIGUOUS", message: "3 match", retryable: false } }));
    expect(failed).toMatchObject({ isError: true, structuredContent: { error: { code: "LOCATOR_AMBIGUOUS" } } });
  });
});

describe("sessions of MCP connections", () => {
  it("names a connection's session after its client, as a valid session name", () => {
    expect(connectionSessionName("Claude Code", "a1b2c3")).toBe("mcp-claude-code-a1b2c3");
    expect(connectionSessionName(undefined, "a1b2c3")).toBe("mcp-a1b2c3");
    for (const client of ["", "---", "ü".repeat(80), "x".repeat(200), "a/../b", "\u0000\n"]) expect(nameProblem(connectionSessionName(client, "a1b2c3"), "session")).toBeUndefined();
  });

  it("takes labels as key=value, bounded and printable", () => {
    expect(parseLabels(["role=buyer", "account=work"])).toEqual({ role: "buyer", account: "work" });
    expect(() => parseLabels(["=x"])).toThrow(BwError);
    expect(() => parseLabels(["role=a\u0007b"])).toThrow(/printable/);
    expect(() => parseLabels(Array.from({ length: 9 }, (_, i) => `k${i}=v`))).toThrow(/at most 8/);
  });

  it("makes session_create's settings isolated ones", () => {
    expect(createOptions({ name: "m", width: 390, height: 844, locale: "fr-FR" })).toEqual({ isolated: true, settings: { viewport: { width: 390, height: 844 }, locale: "fr-FR" } });
    expect(createOptions({ name: "s" })).toEqual({});
    expect(() => createOptions({ name: "m", width: 390 })).toThrow(/together/);
    expect(() => createOptions({ name: "m", isolated: false, state: "login" })).toThrow(/isolated/);
  });
});

describe("screenshots read back as images", () => {
  const root = mkdtempSync(path.join(tmpdir(), "bw-mcp-image-"));
  const dir = path.join(root, "artifacts", "default", "s");
  mkdirSync(dir, { recursive: true });
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
  writeFileSync(path.join(dir, "shot.png"), png);
  writeFileSync(path.join(root, "secret.png"), png);
  writeFileSync(path.join(dir, "notes.txt"), "not an image at all");
  symlinkSync(path.join(root, "secret.png"), path.join(dir, "link.png"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("reads a PNG inside the session's folder", () => {
    expect(readArtifactImage(path.join(dir, "shot.png"), dir, 1024)).toEqual({ mimeType: "image/png", data: png.toString("base64") });
  });

  it("refuses anything else: outside the folder, through a link, not an image, too large", () => {
    expect(readArtifactImage(path.join(root, "secret.png"), dir, 1024)).toBeUndefined();
    expect(readArtifactImage(path.join(dir, "..", "..", "..", "secret.png"), dir, 1024)).toBeUndefined();
    expect(readArtifactImage(path.join(dir, "link.png"), dir, 1024)).toBeUndefined();
    expect(readArtifactImage(path.join(dir, "notes.txt"), dir, 1024)).toBeUndefined();
    expect(readArtifactImage(path.join(dir, "shot.png"), dir, 10)).toBeUndefined();
    expect(readArtifactImage("shot.png", dir, 1024)).toBeUndefined();
  });
});
