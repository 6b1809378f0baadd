// The home a daemon serves from must be ours alone: the home itself and the
// folders under it that a daemon of the profile uses. Checked once at the
// daemon's start (folders made later are made by us, 0700, inside a home
// nobody else can write) and by `doctor`.
import path from "node:path";
import type { HomeLayout } from "./paths.js";
import { problemOf, walkBelow, type PathProblem } from "./path-trust.js";
import { currentUid, ensureTrustedDir, NODE_FS, trustProblem, unsafePath } from "./secure-fs.js";

/** The folders under the home that a daemon of this profile reads or writes. */
export function usedDirs(layout: HomeLayout): string[] {
  return [
    layout.profileDir,
    layout.browserEnvDir,
    layout.runtimeDir,
    layout.sessionsRoot,
    layout.vaultDir,
    path.join(layout.artifactsRoot, layout.profile),
  ];
}

/** The first existing folder under the home that is not ours alone (a link, another owner, writable by others). */
function usedDirProblem(layout: HomeLayout, uid: number): PathProblem | undefined {
  for (const dir of usedDirs(layout)) {
    const problem = problemOf(walkBelow(NODE_FS, layout.home, dir, uid));
    if (problem) return problem;
  }
  return undefined;
}

/** What is wrong with the home, without creating anything; undefined when it is fine or not made yet. */
export function homeProblem(layout: HomeLayout): PathProblem | undefined {
  const uid = currentUid();
  if (uid === undefined) return undefined;
  return trustProblem(layout.home) ?? usedDirProblem(layout, uid);
}

/** Makes the home (0700) if missing and refuses it, with UNSAFE_PATH, unless it and its folders are ours alone. */
export function prepareHome(layout: HomeLayout): void {
  ensureTrustedDir(layout.home);
  const uid = currentUid();
  const problem = uid === undefined ? undefined : usedDirProblem(layout, uid);
  if (problem) throw unsafePath(problem);
}
