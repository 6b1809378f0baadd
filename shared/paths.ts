// Where everything lives under the betterwright home. Pure: the home and the
// platform come in as arguments, and nothing here touches the disk except
// `canonicalHome`, which resolves symlinks so client and daemon agree.
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import envPaths from "env-paths";
import { DEFAULT_PROFILE } from "./names.js";

/** sun_path sizes, NUL terminator included. */
export const SOCKET_PATH_LIMIT_BYTES: Record<string, number> = { linux: 108, darwin: 104 };

export interface HomeLayout {
  home: string;
  profile: string;
  profileDir: string;
  profileLockPath: string;
  socketPath: string;
  /** The socket in the home, even when too long to bind (shown to users, for `doctor`). */
  homeSocketPath: string;
  infoPath: string;
  logPath: string;
  configPath: string;
  sessionsRoot: string;
  artifactsRoot: string;
  vaultDir: string;
  runtimeDir: string;
  /** HOME and TMPDIR handed to Chromium, so it leaves nothing outside the betterwright home. */
  browserEnvDir: string;
}

export function defaultHome(): string {
  return path.join(homedir(), ".betterwright");
}

/** Resolve symlinks of the longest existing prefix, so both sides hash the same string. */
export function canonicalHome(home: string): string {
  const absolute = path.resolve(home);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = path.dirname(absolute);
    if (parent === absolute) return absolute;
    return path.join(canonicalHome(parent), path.basename(absolute));
  }
}

function suffix(profile: string): string {
  return profile === DEFAULT_PROFILE ? "" : `-${profile}`;
}

/** betterwright's folders outside its home, where the platform keeps them (XDG on Linux, ~/Library on macOS). */
function userDirs(): { temp: string; cache: string } {
  return envPaths("betterwright", { suffix: "" });
}

/** The owner-only folder for short sockets: env-paths' temp folder, <tmpdir>/<user>/betterwright on Linux. */
export function shortSocketRoot(): string {
  return userDirs().temp;
}

/** Where `betterwright setup` has Playwright's installer put browsers (its PLAYWRIGHT_BROWSERS_PATH). */
export function setupBrowsersDir(): string {
  return path.join(userDirs().cache, "browsers");
}

export function socketPathFor(home: string, profile: string, platform: NodeJS.Platform = process.platform): string {
  const inHome = path.join(home, `daemon${suffix(profile)}.sock`);
  const limit = SOCKET_PATH_LIMIT_BYTES[platform] ?? 104;
  // Node 20 truncates silently at bind and connect; measure bytes, not characters.
  if (Buffer.byteLength(inHome) < limit) return inHome;
  // node:crypto only for a home too deep for a socket path: loading it costs every warm call 2–4 ms.
  const digest = process.getBuiltinModule("node:crypto").createHash("sha256").update(`${home}\0${profile}`).digest("hex").slice(0, 24);
  return path.join(shortSocketRoot(), `${digest}.sock`);
}

export function layoutFor(home: string, profile: string = DEFAULT_PROFILE): HomeLayout {
  const named = profile !== DEFAULT_PROFILE;
  const browserDir = path.join(home, "browser");
  const profileDir = named ? path.join(browserDir, "profiles", profile) : path.join(browserDir, "profile");
  return {
    home,
    profile,
    profileDir,
    profileLockPath: `${profileDir}.betterwright-lock`,
    socketPath: socketPathFor(home, profile),
    homeSocketPath: path.join(home, `daemon${suffix(profile)}.sock`),
    infoPath: path.join(home, `daemon${suffix(profile)}.json`),
    logPath: path.join(home, `daemon${suffix(profile)}.log`),
    configPath: path.join(home, "config.json"),
    sessionsRoot: named ? path.join(home, "sessions", `@${profile}`) : path.join(home, "sessions"),
    artifactsRoot: path.join(home, "artifacts"),
    vaultDir: path.join(home, "vault"),
    runtimeDir: path.join(browserDir, "runtime"),
    browserEnvDir: path.join(browserDir, "env", profile),
  };
}

export function sessionDir(layout: HomeLayout, session: string): string {
  return path.join(layout.sessionsRoot, session);
}

export function transcriptPath(layout: HomeLayout, session: string): string {
  return path.join(sessionDir(layout, session), "transcript.jsonl");
}

export function artifactDir(layout: HomeLayout, session: string): string {
  return path.join(layout.artifactsRoot, layout.profile, session);
}
