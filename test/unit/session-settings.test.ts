// A session's own settings as every caller states them: the checks (ranges,
// IANA zones, BCP 47 tags, one origin), the errors naming the flag or field,
// how two specs differ (SESSION_EXISTS), and what Playwright is handed.
import { describe, expect, it } from "vitest";
import { createParamsFrom, type SessionCreateArgs } from "../../cli/session-options.js";
import { contextOptions } from "../../daemon/browser-worker/isolated-context.js";
import {
  checkLocale,
  checkOrigin,
  checkSessionSettings,
  checkTimezone,
  checkUserAgent,
  describeSpec,
  DEVICE_SCALE_RANGE,
  fieldLabels,
  FLAG_LABELS,
  MAX_USER_AGENT_CHARS,
  specDifferences,
  specOf,
  VIEWPORT_RANGE,
  type SessionSpec,
} from "../../shared/session-settings.js";
import { messageWithout, parseStorageState, storageStateBytes } from "../../shared/storage-state.js";
import { failure } from "../helpers/failure.js";

describe("session settings", () => {
  it.each([
    ["en-us", "en-US"],
    ["DE-de", "de-DE"],
    ["zh-Hant-TW", "zh-Hant-TW"],
    ["fr", "fr"],
  ])("takes the BCP 47 tag %s as %s", (input, canonical) => {
    expect(checkLocale(input, "--locale")).toBe(canonical);
  });

  it.each(["en_US", "english please", "x", "", "i-klingon", "de-DE-".padEnd(70, "a")])("refuses the locale %j, naming the flag", (input) => {
    const error = failure(() => checkLocale(input, "--locale"));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.message).toMatch(/^--locale: /);
  });

  it.each([
    ["Europe/Berlin", "Europe/Berlin"],
    ["asia/tokyo", "Asia/Tokyo"],
    ["UTC", "UTC"],
    ["Etc/GMT+5", "Etc/GMT+5"],
  ])("takes the IANA zone %s as %s", (input, canonical) => {
    expect(checkTimezone(input, "--timezone")).toBe(canonical);
  });

  // Chromium silently ignores a zone it does not know: each of these must fail here.
  it.each(["Mars/Olympus", "+01:00", "GMT+1 ", "Europe/", "../etc/passwd", "", 5])("refuses the time zone %j, naming the flag", (input) => {
    const error = failure(() => checkTimezone(input, "--timezone"));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.message).toMatch(/^--timezone: /);
  });

  it.each([
    ["https://example.com", "https://example.com"],
    ["http://127.0.0.1:8080/", "http://127.0.0.1:8080"],
    ["HTTPS://Example.COM:443", "https://example.com"],
  ])("takes the origin %s as %s", (input, origin) => {
    expect(checkOrigin(input, "--geolocation-origin")).toBe(origin);
  });

  it.each(["example.com", "https://example.com/login", "https://a.com?x=1", "https://u:p@a.com", "file:///etc", "ftp://a.com", "javascript:alert(1)"])("refuses the origin %j", (input) => {
    expect(failure(() => checkOrigin(input, "--geolocation-origin")).message).toMatch(/^--geolocation-origin: /);
  });

  it("bounds the user agent to printable ASCII (it becomes a header)", () => {
    expect(checkUserAgent("Mozilla/5.0 (X11) bw-test", "--user-agent")).toBe("Mozilla/5.0 (X11) bw-test");
    for (const bad of ["", "a\r\nX-Injected: 1", "ünïcode", "x".repeat(MAX_USER_AGENT_CHARS + 1)]) {
      expect(failure(() => checkUserAgent(bad, "--user-agent")).message).toMatch(/^--user-agent: /);
    }
  });

  it("checks a whole settings object, naming each bad field where it came from", () => {
    const settings = checkSessionSettings({
      viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2, locale: "en-gb", timezone: "europe/london",
      colorScheme: "dark", reducedMotion: true, userAgent: "UA", geolocation: { latitude: 51.5, longitude: -0.12, origin: "https://maps.example.com/" },
    }, fieldLabels("params.settings"));
    expect(settings).toEqual({
      viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2, locale: "en-GB", timezone: "Europe/London",
      colorScheme: "dark", reducedMotion: true, userAgent: "UA", geolocation: { latitude: 51.5, longitude: -0.12, origin: "https://maps.example.com" },
    });
    const cases: [unknown, string][] = [
      [{ viewport: { width: VIEWPORT_RANGE.min - 1, height: 600 } }, "params.settings.viewport width"],
      [{ viewport: { width: 800, height: VIEWPORT_RANGE.max + 1 } }, "params.settings.viewport height"],
      [{ viewport: { width: 800.5, height: 600 } }, "params.settings.viewport width"],
      [{ viewport: { width: 800, height: 600, depth: 3 } }, "params.settings.viewport"],
      [{ deviceScaleFactor: DEVICE_SCALE_RANGE.max + 0.5 }, "params.settings.deviceScaleFactor"],
      [{ deviceScaleFactor: 0 }, "params.settings.deviceScaleFactor"],
      [{ colorScheme: "sepia" }, "params.settings.colorScheme"],
      [{ reducedMotion: "yes" }, "params.settings.reducedMotion"],
      [{ geolocation: { latitude: 91, longitude: 0, origin: "https://a.com" } }, "params.settings.geolocation latitude"],
      [{ geolocation: { latitude: 0, longitude: -181, origin: "https://a.com" } }, "params.settings.geolocation longitude"],
      [{ geolocation: { latitude: 0, longitude: 0 } }, "params.settings.geolocation.origin"],
      [{ storageState: {} }, "settings"],
    ];
    for (const [value, label] of cases) {
      const error = failure(() => checkSessionSettings(value, fieldLabels("params.settings")));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.message.startsWith(`${label}: `), error.message).toBe(true);
    }
  });

  it("gives settings and a saved state to isolated sessions only", () => {
    expect(specOf({})).toEqual({ isolated: false, settings: {} });
    expect(specOf({ isolated: true, settings: { locale: "de-DE" }, state: "alice" })).toEqual({ isolated: true, settings: { locale: "de-DE" }, state: "alice" });
    expect(failure(() => specOf({ settings: { locale: "de-DE", timezone: "UTC" } })).message).toBe(
      "params.settings.locale, params.settings.timezone: needs params.isolated: a shared session uses the profile's browser context and its settings",
    );
    expect(failure(() => specOf({ state: "alice" })).message).toMatch(/^params\.state: .*isolated/);
  });

  it("names every difference between a session and a call that would make it again", () => {
    const have: SessionSpec = { isolated: true, settings: { viewport: { width: 1280, height: 800 }, locale: "de-DE" }, state: "alice" };
    expect(specDifferences(have, structuredClone(have))).toEqual([]);
    expect(specDifferences(have, { isolated: true, settings: { viewport: { width: 800, height: 600 }, locale: "de-DE", colorScheme: "dark" } })).toEqual([
      "viewport: the session has 1280x800, this call wants 800x600",
      "colorScheme: the session has none, this call wants \"dark\"",
      "state: the session started from \"alice\", this call wants none",
    ]);
    expect(specDifferences({ isolated: false, settings: {} }, { isolated: true, settings: {} })).toEqual(["the session is shared, this call wants it isolated"]);
    expect(describeSpec(have)).toBe("isolated viewport=1280x800 locale=\"de-DE\" from state alice");
    expect(describeSpec({ isolated: false, settings: {} })).toBe("shared");
  });

  it("hands Playwright the settings, with geolocation's origin left for the grant", () => {
    expect(contextOptions({
      viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, locale: "en-GB", timezone: "Europe/London", colorScheme: "light",
      reducedMotion: true, userAgent: "UA", geolocation: { latitude: 1, longitude: 2, origin: "https://a.com" },
    })).toEqual({
      viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, locale: "en-GB", timezoneId: "Europe/London", colorScheme: "light",
      reducedMotion: "reduce", userAgent: "UA", geolocation: { latitude: 1, longitude: 2 },
    });
    expect(contextOptions({})).toEqual({});
  });
});

describe("the CLI's session flags", () => {
  const parse = (args: SessionCreateArgs) => createParamsFrom(args);

  it("maps the flags onto session.create's params", () => {
    expect(parse({})).toBeUndefined();
    expect(parse({ isolated: true })).toEqual({ isolated: true });
    expect(parse({
      isolated: true, viewport: "390x844", "device-scale": "3", locale: "en-gb", timezone: "UTC", "color-scheme": "dark",
      "reduced-motion": true, "user-agent": "UA", geolocation: "-33.87,151.21", "geolocation-origin": "https://maps.example.com", state: "alice",
    })).toEqual({
      isolated: true,
      settings: {
        viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, locale: "en-GB", timezone: "UTC", colorScheme: "dark",
        reducedMotion: true, userAgent: "UA", geolocation: { latitude: -33.87, longitude: 151.21, origin: "https://maps.example.com" },
      },
      state: "alice",
    });
  });

  it.each<[SessionCreateArgs, string]>([
    [{ isolated: true, viewport: "1280" }, "--viewport"],
    [{ isolated: true, viewport: "10x10" }, "--viewport width"],
    [{ isolated: true, "device-scale": "big" }, "--device-scale"],
    [{ isolated: true, timezone: "Mars/Olympus" }, "--timezone"],
    [{ isolated: true, locale: "en us" }, "--locale"],
    [{ isolated: true, "color-scheme": "blue" }, "--color-scheme"],
    [{ isolated: true, geolocation: "52.5" }, "--geolocation"],
    [{ isolated: true, geolocation: "52.5,13.4" }, "--geolocation-origin"],
    [{ isolated: true, "geolocation-origin": "https://a.com" }, "--geolocation-origin"],
    [{ isolated: true, state: "../other" }, "invalid state name"],
    [{ viewport: "800x600" }, "--viewport"],
    [{ state: "alice" }, "--state"],
  ])("refuses %j with INVALID_ARGUMENT naming %s", (args, flag) => {
    const error = failure(() => parse(args));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.message.startsWith(flag), error.message).toBe(true);
  });

  it("names every flag the CLI has a label for", () => {
    for (const label of Object.values(FLAG_LABELS)) expect(label).toMatch(/^--[a-z-]+$/);
  });
});

describe("a storage state on the pipe", () => {
  const state = { cookies: [{ name: "sid", value: "s3cr3t-cookie" }], origins: [{ origin: "https://a.com", localStorage: [{ name: "t", value: "local-token" }] }] };

  it("round-trips as JSON bytes and refuses what is not a state", () => {
    const bytes = storageStateBytes(state, 10_000);
    expect(parseStorageState(bytes, "VAULT_CORRUPT", "x")).toEqual(state);
    for (const bad of ["[]", "{}", "{\"cookies\":[],\"origins\":{}}", "{\"cookies\":[1],\"origins\":[]}", "not json"]) {
      expect(failure(() => parseStorageState(Buffer.from(bad), "VAULT_CORRUPT", "saved state a")).code).toBe("VAULT_CORRUPT");
    }
  });

  it("refuses a state past its cap with LIMIT_EXCEEDED, naming the setting", () => {
    const error = failure(() => storageStateBytes(state, 10));
    expect(error.code).toBe("LIMIT_EXCEEDED");
    expect(error.message).toContain("BETTERWRIGHT_SAVED_STATE_MAX_BYTES");
    expect(error.message).not.toContain("s3cr3t-cookie");
  });

  it("withholds a message that quotes a value of the state", () => {
    expect(messageWithout("cookie s3cr3t-cookie is invalid\nmore", state)).toBe("(its details are withheld: they quote the saved state)");
    expect(messageWithout("bad local-token", state)).toContain("withheld");
    expect(messageWithout("expires must be a number\nstack", state)).toBe("expires must be a number");
  });
});
