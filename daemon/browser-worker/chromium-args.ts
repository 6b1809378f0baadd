// The flags betterwright adds to Playwright's own when it launches Chromium.
// Both builds get one merged `--enable-features` list (Playwright's and
// WebMCP). Full Chromium also gets one merged `--disable-features` list: Playwright's
// own list plus the WebUI omnibox features, whose hidden omnibox popup pages
// otherwise hold a renderer of their own (docs/performance.md). Chromium keeps
// only the last `--disable-features` it is given, so the list must repeat
// Playwright's; test/e2e/chromium-args.test.ts fails when Playwright's grows.

/** What keeps every connection on the guard proxy: no QUIC (UDP), no WebRTC UDP that bypasses the proxy. Remote browser servers get these too. */
export const GUARD_ARGS = [
  "--disable-quic",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
];

/**
 * A RegExp that backtracks past V8's bound (50,000 backtracks) is run again by its linear-time engine: a locator's
 * `getByText(/(a|a)*$/)` matched in a page's renderer finishes instead of holding that renderer, and whatever else it
 * hosts, for ever. Patterns the linear engine cannot run (back-references, look-arounds) keep backtracking.
 */
export const REGEXP_ARGS = ["--js-flags=--enable-experimental-regexp-engine-on-excessive-backtracks"];

const BASE_ARGS = [
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  ...GUARD_ARGS,
  ...REGEXP_ARGS,
];

/** Playwright's `--enable-features` (playwright-core 1.65, chromiumSwitches.ts), which ours replaces. */
const PLAYWRIGHT_ENABLED_FEATURES = ["CDPScreenshotNewSurface", "SkipListAccountsWithoutGaiaCookies"];

/**
 * Pages may register tools for agents (document.modelContext); the WebMCP bridge lists and calls them
 * (docs/webmcp.md). One merged flag, as for `--disable-features`: Chromium keeps only the last one.
 */
export const ENABLED_FEATURES = [...PLAYWRIGHT_ENABLED_FEATURES, "WebMCP"];

/** Playwright's `--disable-features` (playwright-core 1.65, chromiumSwitches.ts), which ours replaces. */
const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/** The omnibox popup as WebUI pages (chrome://omnibox-popup.top-chrome/), made at start even when headless. */
export const WEBUI_OMNIBOX_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup"];

/** The headless shell has no omnibox, so it keeps Playwright's list as it is. */
export function chromiumArgs(headlessShell: boolean): string[] {
  const base = [...BASE_ARGS, `--enable-features=${ENABLED_FEATURES.join(",")}`];
  if (headlessShell) return base;
  return [...base, `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...WEBUI_OMNIBOX_FEATURES].join(",")}`];
}
