// Finding a Chromium: an explicit path first, then Playwright's own download,
// then the system's. Debian's /usr/bin/chromium* are shell wrappers (one does
// not even exec), so the real binaries under /usr/lib/chromium/ are preferred.
import { accessSync, constants, existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { setupBrowsersDir } from "./paths.js";

export interface BrowserCandidate {
  path: string;
  source: "explicit" | "playwright" | "system";
  /** true for chromium-headless-shell, which cannot run headed. */
  headlessShell: boolean;
}

export interface DiscoveryInput {
  explicit: string | null;
  headless: boolean;
  /** Full Chromium before the headless shell even when headless (stealth mode: the shell tells itself apart; docs/stealth.md). */
  preferFull?: boolean;
  /** Seams for tests. */
  exists?: (file: string) => boolean;
  playwrightCacheDirs?: string[];
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const SYSTEM_HEADLESS_SHELL = ["/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium-headless-shell"];
const SYSTEM_CHROMIUM = [
  "/usr/lib/chromium/chromium",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
];

/** Folders of Playwright-installed browsers: where `setup` puts them (env-paths' cache), then Playwright's default. */
export function playwrightCacheDirs(): string[] {
  return [
    setupBrowsersDir(),
    path.join(homedir(), ".cache", "ms-playwright"),
    path.join(homedir(), "Library", "Caches", "ms-playwright"),
  ];
}

function fromPlaywrightCache(dirs: string[], headless: boolean, exists: (f: string) => boolean): BrowserCandidate | undefined {
  for (const dir of dirs) {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort().reverse();
    } catch {
      continue;
    }
    const wanted = headless ? ["chromium_headless_shell-", "chromium-"] : ["chromium-"];
    for (const prefix of wanted) {
      for (const entry of entries.filter((e) => e.startsWith(prefix))) {
        const shell = prefix.startsWith("chromium_headless_shell");
        const rel = shell
          ? ["chrome-headless-shell-linux64/chrome-headless-shell", "chrome-linux/headless_shell"]
          : ["chrome-linux64/chrome", "chrome-linux/chrome"];
        for (const r of rel) {
          const file = path.join(dir, entry, r);
          if (exists(file)) return { path: file, source: "playwright", headlessShell: shell };
        }
      }
    }
  }
  return undefined;
}

export interface Discovery {
  found?: BrowserCandidate;
  /** What is wrong when nothing usable was found, in words a user can act on. */
  problem?: string;
  searched: string[];
}

export function discoverBrowser(input: DiscoveryInput): BrowserCandidate | undefined {
  return findBrowser(input).found;
}

export function findBrowser(input: DiscoveryInput): Discovery {
  const exists = input.exists ?? ((f: string) => existsSync(f) && isExecutable(f));
  if (input.explicit) {
    if (!exists(input.explicit)) {
      return { problem: `the browser ${input.explicit} (from --browser, BETTERWRIGHT_BROWSER or config.json) does not exist or is not executable`, searched: [input.explicit] };
    }
    return { found: { path: input.explicit, source: "explicit", headlessShell: /headless[-_]shell/.test(path.basename(input.explicit)) }, searched: [input.explicit] };
  }
  const dirs = input.playwrightCacheDirs ?? playwrightCacheDirs();
  const searched = [...dirs, ...(input.headless ? SYSTEM_HEADLESS_SHELL : []), ...SYSTEM_CHROMIUM];
  const found = searchCandidates(input, dirs, exists);
  return found ? { found, searched } : { problem: "no Chromium found", searched };
}

function searchCandidates(input: DiscoveryInput, dirs: string[], exists: (f: string) => boolean): BrowserCandidate | undefined {
  const systemShell = (): BrowserCandidate | undefined => {
    const found = input.headless ? SYSTEM_HEADLESS_SHELL.find(exists) : undefined;
    return found ? { path: found, source: "system", headlessShell: true } : undefined;
  };
  const systemFull = (): BrowserCandidate | undefined => {
    const found = SYSTEM_CHROMIUM.find(exists);
    return found ? { path: found, source: "system", headlessShell: false } : undefined;
  };
  if (input.headless && input.preferFull) {
    return fromPlaywrightCache(dirs, false, exists) ?? systemFull() ?? fromPlaywrightCache(dirs, true, exists) ?? systemShell();
  }
  return fromPlaywrightCache(dirs, input.headless, exists) ?? systemShell() ?? systemFull();
}

export const INSTALL_HINT = "betterwright setup   (on Debian/Ubuntu as root: apt-get install -y chromium-headless-shell chromium)";
