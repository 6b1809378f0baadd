import { describe, expect, it } from "vitest";
import { BwError } from "../../shared/protocol/errors.js";
import { DEFAULT_PROFILE, isServeName, LOCK_MARKER, MAX_NAME_LENGTH, nameProblem, normalizeProfile, validateName } from "../../shared/names.js";

describe("profile and session names", () => {
  it.each([
    "a",
    "research",
    "Research-2",
    "a.b_c-d",
    "0day",
    "a".repeat(MAX_NAME_LENGTH),
    "con-artist",
    "console",
    "lockless.betterwright",
  ])("accepts %j", (name) => {
    expect(nameProblem(name, "session")).toBeUndefined();
    expect(validateName(name, "profile")).toBe(name);
  });

  it.each([
    ["empty", ""],
    ["parent folder", ".."],
    ["path traversal", "../x"],
    ["a slash", "a/b"],
    ["a backslash", "a\\b"],
    ["a leading dot", ".hidden"],
    ["a leading dash", "-rf"],
    ["a leading underscore", "_x"],
    ["a double dot inside", "a..b"],
    ["a trailing dot", "name."],
    ["a space", "a b"],
    ["a NUL byte", "a\0b"],
    ["a newline", "a\nb"],
    ["non-ASCII letters", "café"],
    ["too long", "a".repeat(MAX_NAME_LENGTH + 1)],
    ["a Windows device", "con"],
    ["a Windows device in capitals", "NUL"],
    ["a Windows device with an extension", "com1.txt"],
    ["lpt9", "lpt9"],
    ["the lock marker", `x${LOCK_MARKER}`],
    ["the lock marker in capitals", `x${LOCK_MARKER.toUpperCase()}`],
  ])("refuses %s", (_what, name) => {
    expect(nameProblem(name, "session")).toEqual(expect.any(String));
    let thrown: unknown;
    try {
      validateName(name, "session");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(BwError);
    expect((thrown as BwError).code).toBe("INVALID_ARGUMENT");
    expect((thrown as BwError).message).toContain("session");
  });

  it.each([undefined, null, 5, {}, ["a"]])("refuses the non-string %j", (value) => {
    expect(nameProblem(value, "profile")).toMatch(/profile name must be a non-empty string/);
  });

  it("treats `default` and no profile as the default profile, and validates any other", () => {
    expect(normalizeProfile(undefined)).toBe(DEFAULT_PROFILE);
    expect(normalizeProfile("default")).toBe(DEFAULT_PROFILE);
    expect(normalizeProfile("social")).toBe("social");
    expect(() => normalizeProfile("../social")).toThrow(BwError);
  });
});

describe("betterwright serve's names", () => {
  it.each([
    ["0b0f3f4e-1a2b-4c3d-8e9f-0123456789ab", "session", true],
    ["0B0F3F4E-1A2B-4C3D-8E9F-0123456789AB", "session", true],
    ["0b0f3f4e-1a2b-9c3d-8e9f-0123456789ab", "session", false],
    ["mcp-agent-0b0f3f4e", "session", false],
    ["http-0b0f3f4e-1a2b-4c3d-8e9f-0123456789ab", "session", false],
    ["http-0b0f3f4e-1a2b-4c3d-8e9f-0123456789ab", "state", true],
    ["HTTP-anything", "state", true],
    ["https-login", "state", false],
    ["login", "state", false],
  ] as const)("%s as a %s name: %s", (name, kind, reserved) => {
    expect(isServeName(name, kind)).toBe(reserved);
  });
});
