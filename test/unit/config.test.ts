import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ARTIFACT_DEFAULTS, DEFAULTS, LIMIT_DEFAULTS, resolveConfig, STATE_BYTES_CEILING, STATE_DEFAULTS } from "../../shared/config.js";
import { failure } from "../helpers/failure.js";

describe("the config module", () => {
  let home: string;
  const writeConfig = (value: unknown) => writeFileSync(path.join(home, "config.json"), typeof value === "string" ? value : JSON.stringify(value));

  beforeEach(() => {
    home = realpathSync(mkdtempSync(path.join(tmpdir(), "bw-config-")));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it("uses the defaults when nothing is stated, and states nothing explicitly", () => {
    const { settings, explicit } = resolveConfig({ flags: { home }, env: {} });
    expect(settings).toMatchObject({
      home,
      profile: "default",
      session: "default",
      browser: null,
      headless: true,
      timeoutMs: DEFAULTS.timeoutMs,
      sessionTtlSeconds: DEFAULTS.sessionTtlSeconds,
      daemonIdleSeconds: DEFAULTS.daemonIdleSeconds,
      noDaemon: false,
      policy: { allowLoopback: true, allowPrivateNetwork: true, allowHosts: [], blockHosts: [], onlyPorts: [] },
      artifacts: ARTIFACT_DEFAULTS,
      limits: LIMIT_DEFAULTS,
      states: STATE_DEFAULTS,
    });
    expect(explicit).toEqual({});
  });

  it("layers defaults < config.json < its profile section < environment < flags", () => {
    writeConfig({ timeoutSeconds: 10, sessionTtlSeconds: 100, daemonIdleSeconds: 5, browser: "/file/chrome", profiles: { social: { timeoutSeconds: 20, sessionTtlSeconds: 200 } } });
    const env = { BETTERWRIGHT_HOME: home, BETTERWRIGHT_TIMEOUT_SECONDS: "30", BETTERWRIGHT_BROWSER: "/env/chrome" };

    const fileOnly = resolveConfig({ env: { BETTERWRIGHT_HOME: home } }).settings;
    expect([fileOnly.timeoutMs, fileOnly.sessionTtlSeconds, fileOnly.daemonIdleSeconds, fileOnly.browser]).toEqual([10_000, 100, 5, "/file/chrome"]);

    const section = resolveConfig({ flags: { profile: "social" }, env: { BETTERWRIGHT_HOME: home } }).settings;
    expect([section.timeoutMs, section.sessionTtlSeconds, section.daemonIdleSeconds]).toEqual([20_000, 200, 5]);

    const withEnv = resolveConfig({ flags: { profile: "social" }, env }).settings;
    expect([withEnv.timeoutMs, withEnv.sessionTtlSeconds, withEnv.browser]).toEqual([30_000, 200, "/env/chrome"]);

    const withFlags = resolveConfig({ flags: { profile: "social", timeoutSeconds: 40, browser: "/flag/chrome" }, env }).settings;
    expect([withFlags.timeoutMs, withFlags.browser]).toEqual([40_000, "/flag/chrome"]);

    // Another profile does not see the section.
    expect(resolveConfig({ flags: { profile: "work" }, env: { BETTERWRIGHT_HOME: home } }).settings.timeoutMs).toBe(10_000);
  });

  it("picks home, profile and session from flags over the environment", () => {
    const other = path.join(home, "other");
    const env = { BETTERWRIGHT_HOME: other, BETTERWRIGHT_PROFILE: "envprof", BETTERWRIGHT_SESSION: "envsess" };
    expect(resolveConfig({ env }).settings).toMatchObject({ home: other, profile: "envprof", session: "envsess" });
    expect(resolveConfig({ flags: { home, profile: "flagprof", session: "flagsess" }, env }).settings).toMatchObject({ home, profile: "flagprof", session: "flagsess" });
  });

  it("marks as explicit only what a file, the environment or a flag stated", () => {
    writeConfig({ headless: false });
    const { explicit } = resolveConfig({ flags: { home, blockPrivateNetwork: true, timeoutSeconds: 5 }, env: { BETTERWRIGHT_DAEMON_IDLE_SECONDS: "7" } });
    expect(explicit).toEqual({
      headless: false,
      daemonIdleSeconds: 7,
      policy: { allowLoopback: true, allowPrivateNetwork: false, allowHosts: [], blockHosts: [], onlyPorts: [] },
    });
  });

  it("makes blocking loopback imply blocking the private network, from every source", () => {
    expect(resolveConfig({ flags: { home, blockLoopback: true }, env: {} }).settings.policy).toMatchObject({ allowLoopback: false, allowPrivateNetwork: false });
    expect(resolveConfig({ flags: { home }, env: { BETTERWRIGHT_BLOCK_LOOPBACK: "1" } }).settings.policy).toMatchObject({ allowLoopback: false, allowPrivateNetwork: false });
    writeConfig({ allowLoopback: false, allowPrivateNetwork: true });
    expect(resolveConfig({ flags: { home }, env: {} }).settings.policy).toMatchObject({ allowLoopback: false, allowPrivateNetwork: false });
  });

  it.each([
    ["an environment timeout", { env: { BETTERWRIGHT_TIMEOUT_SECONDS: "soon" } }, "BETTERWRIGHT_TIMEOUT_SECONDS"],
    ["a negative TTL", { env: { BETTERWRIGHT_SESSION_TTL_SECONDS: "-1" } }, "BETTERWRIGHT_SESSION_TTL_SECONDS"],
    ["a non-boolean headed", { env: { BETTERWRIGHT_HEADED: "maybe" } }, "BETTERWRIGHT_HEADED"],
    ["a zero flag timeout", { flags: { timeoutSeconds: 0 } }, "flag --timeout"],
    ["a timeout over a day", { flags: { timeoutSeconds: 2 * 24 * 3600 } }, "flag --timeout"],
    ["a bad session name", { flags: { session: "../x" } }, "session"],
    ["a bad profile name", { env: { BETTERWRIGHT_PROFILE: "a/b" } }, "profile"],
  ])("refuses %s with INVALID_ARGUMENT naming its source", (_what, input, source) => {
    const error = failure(() => resolveConfig({ flags: { home, ...(input as { flags?: object }).flags }, env: (input as { env?: NodeJS.ProcessEnv }).env ?? {} }));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.message).toContain(source);
  });

  it.each([
    ["invalid JSON", "{ nope", "config.json"],
    ["an array", "[]", "config.json"],
    ["an unknown key", { timeout: 5 }, "timeout"],
    ["a bad top-level value", { headless: "sometimes" }, "headless"],
    ["a bad value in a profile section", { profiles: { social: { timeoutSeconds: "x" } } }, "profiles.social"],
    ["a profile section that is not an object", { profiles: { social: 5 } }, "profiles.social"],
  ])("refuses config.json with %s, naming the file", (_what, content, mention) => {
    writeConfig(content);
    const error = failure(() => resolveConfig({ flags: { home, profile: "social" }, env: {} }));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.message).toContain(path.join(home, "config.json"));
    expect(error.message).toContain(mention);
  });

  it("reads the session and queue limits from config.json and the environment, as daemon settings", () => {
    const MiB = 1024 * 1024;
    expect(LIMIT_DEFAULTS).toEqual({
      maxSessions: 64, maxQueuedExecs: 100,
      maxCallArgBytes: 16 * MiB, maxCallResultBytes: 16 * MiB, maxSessionBytesInFlight: 64 * MiB, maxSessionCallsInFlight: 1000,
    });
    writeConfig({ maxSessions: 8, maxCallArgBytes: 4096, profiles: { social: { maxQueuedExecs: 5, maxSessionCallsInFlight: 50 } } });
    const fromFile = resolveConfig({ flags: { home, profile: "social" }, env: {} });
    const stated = { ...LIMIT_DEFAULTS, maxSessions: 8, maxQueuedExecs: 5, maxCallArgBytes: 4096, maxSessionCallsInFlight: 50 };
    expect(fromFile.settings.limits).toEqual(stated);
    expect(fromFile.explicit.limits).toEqual(stated);
    const fromEnv = resolveConfig({ flags: { home }, env: {
      BETTERWRIGHT_MAX_SESSIONS: "3", BETTERWRIGHT_MAX_QUEUED_EXECS: "7", BETTERWRIGHT_MAX_CALL_RESULT_BYTES: "9000", BETTERWRIGHT_MAX_SESSION_BYTES_IN_FLIGHT: "20000",
    } });
    expect(fromEnv.settings.limits).toEqual({ ...LIMIT_DEFAULTS, maxSessions: 3, maxQueuedExecs: 7, maxCallArgBytes: 4096, maxCallResultBytes: 9000, maxSessionBytesInFlight: 20000 });
    for (const bad of ["0", "-1", "2.5", "many"]) {
      const error = failure(() => resolveConfig({ flags: { home }, env: { BETTERWRIGHT_MAX_QUEUED_EXECS: bad } }));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.message).toContain("BETTERWRIGHT_MAX_QUEUED_EXECS");
    }
    writeConfig({ maxSessions: 0 });
    expect(failure(() => resolveConfig({ flags: { home }, env: {} })).message).toContain("maxSessions");
  });

  it("reads the saved-state caps from config.json and the environment, as daemon settings, within the pipe's ceiling", () => {
    writeConfig({ maxSavedStates: 5, profiles: { social: { savedStatesMaxTotalBytes: 1000 } } });
    const fromFile = resolveConfig({ flags: { home, profile: "social" }, env: {} });
    expect(fromFile.settings.states).toEqual({ ...STATE_DEFAULTS, maxStates: 5, maxTotalStateBytes: 1000 });
    expect(fromFile.explicit.states).toEqual(fromFile.settings.states);
    const fromEnv = resolveConfig({ flags: { home }, env: { BETTERWRIGHT_SAVED_STATE_MAX_BYTES: "2048" } });
    expect(fromEnv.settings.states.maxStateBytes).toBe(2048);
    const tooBig = failure(() => resolveConfig({ flags: { home }, env: { BETTERWRIGHT_SAVED_STATE_MAX_BYTES: String(STATE_BYTES_CEILING + 1) } }));
    expect(tooBig.code).toBe("INVALID_ARGUMENT");
    expect(tooBig.message).toContain("BETTERWRIGHT_SAVED_STATE_MAX_BYTES");
    expect(tooBig.message).toContain(`at most ${STATE_BYTES_CEILING}`);
  });

  it("reads --no-daemon from the flag or BETTERWRIGHT_NO_DAEMON", () => {
    expect(resolveConfig({ flags: { home }, env: { BETTERWRIGHT_NO_DAEMON: "1" } }).settings.noDaemon).toBe(true);
    expect(resolveConfig({ flags: { home, noDaemon: true }, env: {} }).settings.noDaemon).toBe(true);
    expect(failure(() => resolveConfig({ flags: { home }, env: { BETTERWRIGHT_NO_DAEMON: "perhaps" } })).message).toContain("BETTERWRIGHT_NO_DAEMON");
  });

  it("reads requireContainment from config.json, BETTERWRIGHT_REQUIRE_CONTAINMENT and --require-containment, as a daemon setting", () => {
    expect(resolveConfig({ flags: { home }, env: {} }).settings.requireContainment).toBe(false);
    writeConfig({ requireContainment: true });
    const fromFile = resolveConfig({ flags: { home }, env: {} });
    expect(fromFile.settings.requireContainment).toBe(true);
    expect(fromFile.explicit.requireContainment).toBe(true);
    expect(resolveConfig({ flags: { home }, env: { BETTERWRIGHT_REQUIRE_CONTAINMENT: "0" } }).settings.requireContainment).toBe(false);
    writeConfig({});
    expect(resolveConfig({ flags: { home }, env: { BETTERWRIGHT_REQUIRE_CONTAINMENT: "1" } }).explicit.requireContainment).toBe(true);
    expect(resolveConfig({ flags: { home, requireContainment: true }, env: {} }).settings.requireContainment).toBe(true);
    expect(failure(() => resolveConfig({ flags: { home }, env: { BETTERWRIGHT_REQUIRE_CONTAINMENT: "maybe" } })).message).toContain("BETTERWRIGHT_REQUIRE_CONTAINMENT");
    writeConfig({ requireContainment: "sometimes" });
    expect(failure(() => resolveConfig({ flags: { home }, env: {} })).message).toContain("requireContainment");
  });
});
