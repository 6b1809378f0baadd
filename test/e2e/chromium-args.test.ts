// Full Chromium makes hidden WebUI pages for its omnibox popup at start, even
// headless, each holding a renderer; the worker launches it with one merged
// `--disable-features` (Playwright's list plus the WebUI omnibox features:
// Chromium keeps only the last such flag), and on both builds one merged
// `--enable-features` (Playwright's and WebMCP). Checked on the processes the worker
// really starts: the renderers' own flags carry the features in effect.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { ENABLED_FEATURES, WEBUI_OMNIBOX_FEATURES } from "../../daemon/browser-worker/chromium-args.js";
import { findBrowser } from "../../shared/browser-discovery.js";
import { daemonPids, destroyHome, runCli, tempHome } from "../helpers/cli.js";
import { descendants } from "../helpers/procs.js";

const full = findBrowser({ explicit: null, headless: false }).found;
const shell = findBrowser({ explicit: null, headless: true }).found;

function argv(pid: number): string[] {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    // Chromium's children retitle themselves: their whole command line becomes one string, in the room their
    // argv and environment had. With the small allowlisted environment it is cut short: the last word may be partial.
    return args.length === 1 ? args[0]!.split(" ").slice(0, -1) : args;
  } catch {
    return [];
  }
}

const featureFlags = (flag: string) => (args: string[]): string[][] =>
  args.filter((a) => a.startsWith(`${flag}=`)).map((a) => a.slice(flag.length + 1).split(","));
const disabledFeatures = featureFlags("--disable-features");
const enabledFeatures = featureFlags("--enable-features");

/** Ours comes last, so it is the one Chromium keeps: it must hold Playwright's features and WebMCP. */
function expectOneMergedEnable(browser: string[]): void {
  const [playwrights, ...ours] = enabledFeatures(browser);
  expect(ours).toHaveLength(1);
  expect(ours[0]).toEqual(expect.arrayContaining([...playwrights!, "WebMCP"]));
  expect(ours[0]).toEqual(ENABLED_FEATURES);
}

/** The browser process and its renderers under the home's daemon, once a run has made a page and things settled. */
async function browserOf(home: string, browser: string): Promise<{ browser: string[]; renderers: string[][] }> {
  const run = await runCli(["exec", "--browser", browser, "-c", "return 1"], { home });
  expect(run.json, run.stdout + run.stderr).toMatchObject({ ok: true, result: 1 });
  // The WebUI pages come up shortly after start, as the measurement saw them.
  await new Promise((r) => setTimeout(r, 2500));
  const [daemon] = daemonPids(home);
  const processes = descendants(daemon!).map(argv).filter((args) => args[0] === browser);
  const main = processes.filter((args) => !args.some((a) => a.startsWith("--type=")));
  expect(main).toHaveLength(1);
  return { browser: main[0]!, renderers: processes.filter((args) => args.includes("--type=renderer")) };
}

describe("the flags Chromium is launched with", () => {
  let home: string | undefined;
  afterEach(async () => {
    if (home) await destroyHome(home);
    home = undefined;
  });

  it.runIf(full && !full.headlessShell)("full Chromium: Playwright's disabled features and the WebUI omnibox ones, in one flag; no hidden omnibox renderer", async () => {
    home = tempHome("bw-chromium-args-");
    const { browser, renderers } = await browserOf(home, full!.path);
    expectOneMergedEnable(browser);
    const [playwrights, ...ours] = disabledFeatures(browser);
    expect(ours).toHaveLength(1);
    // Ours replaces Playwright's: it must hold every feature of it.
    expect(ours[0]).toEqual(expect.arrayContaining([...playwrights!, ...WEBUI_OMNIBOX_FEATURES]));
    // Renderers take their features from this browser process. Their retitled command lines no longer show them:
    // with the small allowlisted environment there is no room (see argv), so they are not checked here.
    // The session's page and Chromium's spare renderer; the omnibox popup pages made it three.
    expect(renderers.length).toBeGreaterThan(0);
    expect(renderers.length).toBeLessThanOrEqual(2);
  });

  it.runIf(shell?.headlessShell)("the headless shell has no omnibox: Playwright's flag alone, one renderer", async () => {
    home = tempHome("bw-chromium-args-");
    const { browser, renderers } = await browserOf(home, shell!.path);
    expect(disabledFeatures(browser)).toHaveLength(1);
    expectOneMergedEnable(browser);
    expect(renderers).toHaveLength(1);
  });
});
