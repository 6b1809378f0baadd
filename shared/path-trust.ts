// Whether a place on disk can change under us, by OpenSSH's rule for its own
// files: every folder on the way is ours or root's and writable by nobody else
// (a root-owned sticky folder such as /tmp excepted), every link on the way is
// ours or root's, and the place itself is ours alone. Pure: the file system
// comes in as an FsView, so the rules are tested on stat results as data.
import path from "node:path";

export type NodeKind = "dir" | "file" | "symlink" | "socket" | "other";

export interface NodeInfo {
  kind: NodeKind;
  uid: number;
  /** Permission bits, sticky bit included (st_mode & 07777). */
  mode: number;
}

export interface FsView {
  /** undefined when nothing is there. */
  lstat(p: string): NodeInfo | undefined;
  readlink(p: string): string;
}

export interface PathProblem {
  path: string;
  /** What is wrong, in a clause: "is writable by group and others (mode 0777)". */
  reason: string;
  /** The command or step that fixes it. */
  fix: string;
}

export type ChainResult =
  | { status: "ok"; resolved: string }
  | { status: "unsafe"; problem: PathProblem }
  /** The first component that does not exist; everything before it passed. */
  | { status: "missing"; missing: string }
  /** A component is a file (or device) where a folder is needed. */
  | { status: "not-a-folder"; path: string };

/** The problem a walk found, if any (a missing component is none: it is made, or there is nothing to trust yet). */
export function problemOf(result: ChainResult): PathProblem | undefined {
  if (result.status === "unsafe") return result.problem;
  if (result.status === "not-a-folder") return { path: result.path, reason: "is not a folder", fix: `move ${result.path} out of the way` };
  return undefined;
}

export interface OwnRule {
  kind: "dir" | "file" | "socket";
  /** Bits nobody but the owner may have: 0o022 (not writable by others) or 0o077 (owner-only). */
  forbidden: number;
}

export const NOT_WRITABLE_BY_OTHERS = 0o022;
export const OWNER_ONLY = 0o077;
export const PRIVATE_DIR: OwnRule = { kind: "dir", forbidden: NOT_WRITABLE_BY_OTHERS };
export const PRIVATE_FILE: OwnRule = { kind: "file", forbidden: NOT_WRITABLE_BY_OTHERS };
export const PRIVATE_SOCKET: OwnRule = { kind: "socket", forbidden: NOT_WRITABLE_BY_OTHERS };

const STICKY = 0o1000;
/** Linux's own bound on links followed in one lookup. */
const MAX_LINK_HOPS = 40;
const HOME_HINT = "or choose a home of your own with --home DIR or BETTERWRIGHT_HOME";

function modeText(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, "0");
}

function whoElse(bits: number): string {
  const group = (bits & 0o070) !== 0;
  const others = (bits & 0o007) !== 0;
  return group && others ? "group and others" : group ? "its group" : "others";
}

/** A folder (or link) on the way to the place: anyone who can rename inside it could swap what follows. */
export function sharedProblem(p: string, info: NodeInfo, uid: number): PathProblem | undefined {
  if (info.uid !== uid && info.uid !== 0) {
    return { path: p, reason: `belongs to uid ${info.uid}, neither you (uid ${uid}) nor root, so its owner can replace what is inside it`, fix: `move the home out of ${p}, ${HOME_HINT}` };
  }
  if (info.kind !== "dir") return undefined;
  const writable = info.mode & NOT_WRITABLE_BY_OTHERS;
  if (writable !== 0 && !((info.mode & STICKY) !== 0 && info.uid === 0)) {
    return { path: p, reason: `is writable by ${whoElse(writable)} (mode ${modeText(info.mode)}), so they can rename what is inside it`, fix: `chmod go-w ${p}` };
  }
  return undefined;
}

const KIND_WORD: Record<OwnRule["kind"], string> = { dir: "folder", file: "file", socket: "socket" };

/** The place itself (the home, a folder or file in it, the socket): ours alone. */
export function ownProblem(p: string, info: NodeInfo, uid: number, rule: OwnRule): PathProblem | undefined {
  if (info.kind === "symlink") {
    return { path: p, reason: "is a symbolic link, and betterwright follows none inside its own folders", fix: `rm ${p} (it is made again as a ${KIND_WORD[rule.kind]})` };
  }
  if (info.kind !== rule.kind) {
    return { path: p, reason: `is not a ${KIND_WORD[rule.kind]}`, fix: `move ${p} out of the way` };
  }
  if (info.uid !== uid) {
    const risk = rule.kind === "socket" ? "another user may be listening on it" : "another user controls it";
    return { path: p, reason: `belongs to uid ${info.uid}, not to you (uid ${uid}): ${risk}`, fix: `remove it as root (rm -r ${p}), or chown ${uid} ${p} if it is yours, ${HOME_HINT}` };
  }
  const loose = info.mode & rule.forbidden;
  if (loose !== 0) {
    const tight = rule.kind === "dir" ? "700" : "600";
    const what = (loose & NOT_WRITABLE_BY_OTHERS) !== 0 ? "writable" : "readable";
    return { path: p, reason: `is ${what} by ${whoElse(loose)} (mode ${modeText(info.mode)})`, fix: `chmod ${tight} ${p}` };
  }
  return undefined;
}

function components(p: string): string[] {
  return p.split(path.sep).filter((part) => part !== "" && part !== ".");
}

/**
 * Walks `target` (absolute) as the kernel would resolve it, checking each
 * component: folders and links on the way by sharedProblem, the place it
 * leads to by ownProblem with `rule`. A link as the last component is followed
 * only when `finalMayBeLink` (a home may be a link; a socket folder may not).
 */
export function walkChain(fs: FsView, target: string, uid: number, rule: OwnRule, finalMayBeLink = true): ChainResult {
  let pending = components(target);
  let current: string = path.sep;
  const root = fs.lstat(current);
  if (root) {
    const problem = sharedProblem(current, root, uid);
    if (problem) return { status: "unsafe", problem };
  }
  let hops = 0;
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === "..") {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, name);
    const info = fs.lstat(next);
    if (!info) return { status: "missing", missing: next };
    const last = pending.length === 0;
    if (info.kind === "symlink" && (!last || finalMayBeLink)) {
      const problem = sharedProblem(next, info, uid);
      if (problem) return { status: "unsafe", problem };
      if (++hops > MAX_LINK_HOPS) return { status: "unsafe", problem: { path: target, reason: "goes through too many symbolic links", fix: `point ${target} at a real folder` } };
      const link = fs.readlink(next);
      if (path.isAbsolute(link)) current = path.sep;
      pending = [...components(link), ...pending];
      continue;
    }
    if (last) {
      if (info.kind !== rule.kind && info.kind !== "symlink") return { status: "not-a-folder", path: next };
      const problem = ownProblem(next, info, uid, rule);
      if (problem) return { status: "unsafe", problem };
      return { status: "ok", resolved: next };
    }
    if (info.kind !== "dir") return { status: "not-a-folder", path: next };
    const problem = sharedProblem(next, info, uid);
    if (problem) return { status: "unsafe", problem };
    current = next;
  }
  // Ended on ".." or on a link to a folder already walked: that folder is the place.
  const info = fs.lstat(current);
  if (!info) return { status: "missing", missing: current };
  const problem = ownProblem(current, info, uid, rule);
  return problem ? { status: "unsafe", problem } : { status: "ok", resolved: current };
}

/**
 * Folders below an already trusted `root` down to `dir`: each must be a real
 * folder (no link) of ours, by `rule`. Stops at the first missing one.
 */
export function walkBelow(fs: FsView, root: string, dir: string, uid: number, rule: OwnRule = PRIVATE_DIR): ChainResult {
  const rel = path.relative(root, dir);
  if (rel === "") return { status: "ok", resolved: dir };
  if (rel.startsWith("..") || path.isAbsolute(rel)) throw new Error(`${dir} is not inside ${root}`);
  let current: string = root;
  for (const name of components(rel)) {
    current = path.join(current, name);
    const info = fs.lstat(current);
    if (!info) return { status: "missing", missing: current };
    if (info.kind !== "dir" && info.kind !== "symlink") return { status: "not-a-folder", path: current };
    const problem = ownProblem(current, info, uid, rule);
    if (problem) return { status: "unsafe", problem };
  }
  return { status: "ok", resolved: current };
}
