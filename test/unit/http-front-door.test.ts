// The HTTP front door's pure parts: session ids, inputs and their operations,
// error statuses, the bearer header, serve's settings and
// what it states to its daemon, download names, spilled results.
import { describe, expect, it } from "vitest";
import { errorResponse, HttpRefusal } from "../../client/front-doors/http/http-errors.js";
import { INPUT_KEYS, inputOp, MAX_INPUT_TEXT, parseInput } from "../../client/front-doors/http/input.js";
import { safeFileName } from "../../client/front-doors/http/pdf-intake.js";
import { serveDaemonSettings } from "../../client/front-doors/http/serve.js";
import { parseSpilled } from "../../client/front-doors/common/spilled.js";
import { bearerOf, sameToken } from "../../client/front-doors/http/token.js";
import { isSessionId, sessionId } from "../../client/front-doors/http/uuid.js";
import { resolveConfig } from "../../shared/config.js";
import { resolveServeSettings, SERVE_DEFAULTS } from "../../client/front-doors/http/serve-config.js";
import { BwError, ERROR_CODES } from "../../shared/protocol/errors.js";

const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return (error as BwError).code;
  }
  return "none";
};

describe("session ids", () => {
  it.each([
    ["6ba7b810-9dad-11d1-80b4-00c04fd430c8", true], // v1
    ["0b0f3f4e-3c1b-4b8a-9a3c-1d2e3f4a5b6c", true], // v4
    ["017f22e2-79b0-7cc3-98c4-dc0c0c07398f", true], // v7
    ["017f22e2-79b0-8cc3-b8c4-dc0c0c07398f", true], // v8
    ["0B0F3F4E-3C1B-4B8A-AA3C-1D2E3F4A5B6C", true], // case does not matter
    ["00000000-0000-0000-0000-000000000000", false], // nil: version 0
    ["ffffffff-ffff-ffff-ffff-ffffffffffff", false], // max: version f
    ["0b0f3f4e-3c1b-9b8a-9a3c-1d2e3f4a5b6c", false], // version 9
    ["0b0f3f4e-3c1b-4b8a-7a3c-1d2e3f4a5b6c", false], // NCS variant
    ["0b0f3f4e-3c1b-4b8a-ca3c-1d2e3f4a5b6c", false], // Microsoft variant
    ["0b0f3f4e3c1b4b8a9a3c1d2e3f4a5b6c", false],
    ["{0b0f3f4e-3c1b-4b8a-9a3c-1d2e3f4a5b6c}", false],
    ["0b0f3f4e-3c1b-4b8a-9a3c-1d2e3f4a5b6c\n", false],
  ])("%s → %s", (id, ok) => {
    expect(isSessionId(id)).toBe(ok);
  });

  it("names a session by its lower-case form", () => {
    expect(sessionId("0B0F3F4E-3C1B-4B8A-AA3C-1D2E3F4A5B6C")).toBe("0b0f3f4e-3c1b-4b8a-aa3c-1d2e3f4a5b6c");
    expect(code(() => sessionId(42))).toBe("INVALID_ARGUMENT");
  });
});

describe("inputs", () => {
  it("maps the four inputs onto typed operations", () => {
    expect(inputOp(parseInput({ type: "click", x: 320, y: 240 }))).toEqual({ name: "click", args: { target: { x: 320, y: 240 } } });
    expect(inputOp(parseInput({ type: "text", text: "Example" }))).toEqual({ name: "type", args: { text: "Example" } });
    expect(inputOp(parseInput({ type: "key", key: "Enter" }))).toEqual({ name: "press", args: { key: "Enter" } });
    expect(inputOp(parseInput({ type: "scroll", deltaY: -600 }))).toEqual({ name: "scroll", args: { dy: -600 } });
    for (const key of INPUT_KEYS) expect(parseInput({ type: "key", key })).toEqual({ type: "key", key });
    expect(parseInput({ type: "text", text: "x".repeat(MAX_INPUT_TEXT) }).type).toBe("text");
    expect(parseInput({ type: "click", x: 1279.5, y: 799 }).type).toBe("click");
  });

  it.each([
    null, [], "click", {}, { type: "drag" }, { type: "click", x: 1280, y: 0 }, { type: "click", x: 0, y: 800 }, { type: "click", x: -1, y: 0 },
    { type: "click", x: "1", y: 1 }, { type: "click", x: 1, y: 1, selector: "#a" }, { type: "text", text: "" }, { type: "text", text: "x".repeat(MAX_INPUT_TEXT + 1) },
    { type: "key", key: "F5" }, { type: "key", key: "Control+w" }, { type: "key", key: "enter" }, { type: "scroll", deltaY: 5001 }, { type: "scroll", deltaY: 0.5 },
    { type: "scroll", deltaY: 10, deltaX: 10 }, { type: "key", key: "Enter", script: "alert(1)" },
  ])("refuses %j", (input) => {
    expect(code(() => parseInput(input))).toBe("INVALID_ARGUMENT");
  });
});

describe("error responses", () => {
  it.each([
    ["UNAUTHORIZED", 401], ["INVALID_ARGUMENT", 400], ["BLOCKED_URL", 400], ["NOT_FOUND", 404], ["SESSION_CLOSED", 409], ["SESSION_LIMIT", 409],
    ["SESSION_EXISTS", 409], ["LIMIT_EXCEEDED", 413], ["DOWNLOAD_TOO_LARGE", 413], ["NAVIGATION_FAILED", 502], ["DNS_UNAVAILABLE", 502],
    ["BROWSER_UNAVAILABLE", 503], ["DAEMON_UNAVAILABLE", 503], ["INTERNAL_ERROR", 500],
  ] as const)("%s is %d with { error: { code, message } }", (errorCode, status) => {
    expect(errorResponse(new BwError(errorCode, "why"))).toEqual({ status, body: { error: { code: errorCode, message: "why" } } });
  });

  it("gives every thrown thing a code of the table, and a refusal of the HTTP layer its own status", () => {
    expect(errorResponse(new Error("boom"))).toEqual({ status: 500, body: { error: { code: "INTERNAL_ERROR", message: "boom" } } });
    expect(errorResponse(new HttpRefusal(415, "INVALID_ARGUMENT", "json please")).status).toBe(415);
    for (const c of ["UNAUTHORIZED", "NOT_FOUND", "SESSION_CLOSED", "SESSION_LIMIT", "DOWNLOAD_TOO_LARGE", "DOWNLOAD_UNSUPPORTED", "DOWNLOAD_LIMIT"]) expect(ERROR_CODES).toHaveProperty(c);
  });
});

describe("the bearer token", () => {
  it("reads `Authorization: Bearer <token>` only", () => {
    expect(bearerOf("Bearer abc")).toBe("abc");
    expect(bearerOf("bearer  abc ")).toBe("abc");
    for (const header of [undefined, "", "Basic abc", "Bearer", "Bearer a b", "Bearerabc"]) expect(bearerOf(header)).toBeUndefined();
  });

  it("compares whole tokens", () => {
    const token = "t".repeat(43);
    expect(sameToken(token, token)).toBe(true);
    expect(sameToken(token.slice(0, -1), token)).toBe(false);
    expect(sameToken(`${token}x`, token)).toBe(false);
    expect(sameToken("", token)).toBe(false);
  });
});

describe("serve's settings", () => {
  it("takes the reference's limits as defaults, then the environment, then flags", () => {
    expect(resolveServeSettings()).toEqual({ token: undefined, ...SERVE_DEFAULTS });
    expect(SERVE_DEFAULTS).toMatchObject({ maxActiveSessions: 3, maxSavedSessions: 20, idleCloseSeconds: 1800, navigationTimeoutSeconds: 20, maxDownloads: 20, maxDownloadBytes: 10 * 1024 * 1024 });
    const s = resolveServeSettings({ env: { BETTERWRIGHT_SERVE_MAX_SESSIONS: "5", BETTERWRIGHT_TOKEN: "k".repeat(32) }, flags: { "max-sessions": 2, "idle-close": 90 } });
    expect(s).toMatchObject({ maxActiveSessions: 2, idleCloseSeconds: 90, token: "k".repeat(32) });
  });

  it("refuses a short token and bad numbers, naming where they came from", () => {
    for (const input of [{ env: { BETTERWRIGHT_TOKEN: "short" } }, { env: { BETTERWRIGHT_TOKEN: `${"k".repeat(31)} ` } }, { flags: { "max-sessions": 0 } }, { env: { BETTERWRIGHT_SERVE_NAVIGATION_TIMEOUT_SECONDS: "soon" } }]) {
      try {
        resolveServeSettings(input);
        throw new Error("expected a failure");
      } catch (error) {
        expect((error as BwError).code).toBe("INVALID_ARGUMENT");
        expect((error as BwError).message).toMatch(/BETTERWRIGHT_|flag --/);
        expect((error as BwError).message).not.toContain("short");
      }
    }
  });

  it("states public-web unless the caller chose a posture, a download cap equal to its PDF cap, and a TTL past its idle close", () => {
    const serve = resolveServeSettings();
    const plain = serveDaemonSettings(resolveConfig({ env: { BETTERWRIGHT_HOME: "/nonexistent-home" }, flags: { allowHost: ["127.0.0.1"] } }), serve);
    expect(plain.settings.policy).toEqual({ allowLoopback: false, allowPrivateNetwork: false, onlyPorts: [80, 443], allowHosts: ["127.0.0.1"], blockHosts: [] });
    expect(plain.statedPolicy).toMatchObject({ onlyPorts: [80, 443], allowHosts: ["127.0.0.1"] });
    expect(plain.explicit.artifacts?.downloadCapBytes).toBe(serve.maxDownloadBytes);
    expect(plain.explicit.sessionTtlSeconds).toBe(serve.idleCloseSeconds + 60);
    const chosen = serveDaemonSettings(resolveConfig({ env: { BETTERWRIGHT_HOME: "/nonexistent-home" }, flags: { policy: "default" } }), serve);
    expect(chosen.settings.policy).toMatchObject({ allowLoopback: true, allowPrivateNetwork: true, onlyPorts: [] });
    const ttl = serveDaemonSettings(resolveConfig({ env: { BETTERWRIGHT_HOME: "/nonexistent-home", BETTERWRIGHT_SESSION_TTL_SECONDS: "100" } }), serve);
    expect(ttl.settings.sessionTtlSeconds).toBe(100);
  });
});

describe("downloads and spilled results", () => {
  it("makes download names safe to show and to send in a header", () => {
    expect(safeFileName("report.pdf")).toBe("report.pdf");
    expect(safeFileName('../../etc/"x"\r\n.pdf')).toBe("_.._etc__x___.pdf");
    expect(safeFileName("...")).toBe("download.pdf");
    expect(safeFileName("a".repeat(300))).toHaveLength(200);
  });

  it("reads the value between the markers of a spilled result, and only there", () => {
    const doc = ["BETTERWRIGHT UNTRUSTED DATA", "header", "-----BEGIN UNTRUSTED DATA abc123-----", JSON.stringify({ text: "-----END UNTRUSTED DATA x-----\u2028" }), "-----END UNTRUSTED DATA abc123-----", ""].join("\n");
    expect(parseSpilled(doc)).toEqual({ text: "-----END UNTRUSTED DATA x-----\u2028" });
    expect(code(() => parseSpilled(doc.replace("END UNTRUSTED DATA abc123", "END UNTRUSTED DATA zzz")))).toBe("INTERNAL_ERROR");
  });
});
