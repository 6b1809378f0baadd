// What stealth mode changes at launch: no `navigator.webdriver`, and a user
// agent without "Headless" (the one this Chromium's headed build sends: the
// reduced form, Chrome/<major>.0.0.0), so that the user agent, appVersion
// and client hints agree with each other. The rest of the launch, the guard's
// proxy and flags included, is the same in both modes.
import { spawnSync } from "node:child_process";

const PLATFORM_TOKENS: Record<string, string> = {
  linux: "X11; Linux x86_64",
  darwin: "Macintosh; Intel Mac OS X 10_15_7",
  win32: "Windows NT 10.0; Win64; x64",
};

/** The major version of a Chromium binary (`chromium --version`), or undefined when it does not say. */
export function chromiumMajor(executable: string): number | undefined {
  const run = spawnSync(executable, ["--version"], { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "ignore"] });
  const match = /(\d+)\.\d+\.\d+\.\d+/.exec(run.stdout ?? "");
  return match ? Number(match[1]) : undefined;
}

/** Chromium's own user agent for a headed desktop build of this major version. Pure. */
export function desktopUserAgent(major: number, platform: string): string {
  const token = PLATFORM_TOKENS[platform] ?? PLATFORM_TOKENS.linux!;
  return `Mozilla/5.0 (${token}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

/** The launch flags stealth mode adds. Pure but for the version it is given. */
export function stealthArgs(major: number | undefined, platform: string): string[] {
  const args = ["--disable-blink-features=AutomationControlled"];
  if (major !== undefined) args.push(`--user-agent=${desktopUserAgent(major, platform)}`);
  return args;
}
