// What a contained worker sees of the file system, as bwrap arguments. The
// system (/usr, /etc) and the code it runs (betterwright, its node_modules,
// Node, the browser) read-only; its own folders (browser profile, env folder
// with its temp folder, the profile's artifacts) writable; nothing else: no
// vault, no other profile, no daemon socket, log or config.json, no /tmp, /run
// or home of anyone. Pure: the file system is asked through `ViewFs`.
import path from "node:path";

export interface ViewInput {
  /** Folders the worker writes: its Chromium profile, its env folder (Chromium's HOME and TMPDIR, its own temp folder), the profile's artifacts. */
  writable: string[];
  /** Read-only beyond the system: the package, its node_modules, Node's prefix, the browser's folder. */
  code: string[];
  /** Never visible even where a folder bound above holds them: the betterwright home, the short-socket folder, the daemon's temp folder. */
  hidden: string[];
  /** A per-worker host folder shown at `view` instead (downloads in progress: `<artifacts>/.incoming`). */
  overlays: { host: string; view: string }[];
  /** Headed mode: the X11 socket folder and the Xauthority file, read-only, when they exist. */
  display?: { x11Dir?: string; xauthority?: string };
}

export interface ViewFs {
  /** What is at `file`, without following a final link. */
  kind(file: string): "dir" | "file" | "link" | "other" | "missing";
  readlink(file: string): string;
}

/** System folders shown read-only; on merged-/usr systems the top-level ones are links into /usr. */
const SYSTEM_DIRS = ["/usr", "/etc"];
const TOP_LEVEL_LIBS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/** Shown when present: fontconfig's cache saves Chromium a font scan at every start. */
const OPTIONAL_DIRS = ["/var/cache/fontconfig"];
/** Machine secrets under /etc that root could otherwise read: blanked. */
const SECRET_FILES = ["/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-"];
const SECRET_DIRS = ["/etc/ssh", "/etc/ssl/private"];

export function isUnder(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Drops folders already inside another one of the list (and duplicates), keeping order. */
export function outermost(dirs: readonly string[]): string[] {
  const unique = [...new Set(dirs.map((d) => path.resolve(d)))];
  return unique.filter((dir) => !unique.some((other) => other !== dir && isUnder(dir, other)));
}

export function bwrapViewArgs(input: ViewInput, fs: ViewFs): string[] {
  const args: string[] = [];
  const readOnly: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    if (fs.kind(dir) === "dir") {
      args.push("--ro-bind", dir, dir);
      readOnly.push(dir);
    }
  }
  for (const dir of TOP_LEVEL_LIBS) {
    const kind = fs.kind(dir);
    if (kind === "link") args.push("--symlink", fs.readlink(dir), dir);
    else if (kind === "dir") {
      args.push("--ro-bind", dir, dir);
      readOnly.push(dir);
    }
  }
  for (const dir of OPTIONAL_DIRS) if (fs.kind(dir) === "dir") args.push("--ro-bind", dir, dir);
  for (const file of SECRET_FILES) if (fs.kind(file) === "file") args.push("--ro-bind", "/dev/null", file);
  for (const dir of SECRET_DIRS) if (fs.kind(dir) === "dir") args.push("--tmpfs", dir);
  args.push("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp");

  // The home, the socket folder and the temp folder become empty tmpfs mounts wherever they are; the worker's own
  // folders go back in below. One that holds code (Node under the home, say) is emptied before the code is bound
  // into it; one inside a folder of code (a home inside the package's folder) after that folder is bound.
  const code = outermost(input.code).filter((dir) => fs.kind(dir) === "dir" && !readOnly.some((shown) => isUnder(dir, shown)));
  const masks = outermost(input.hidden).filter((dir) => dir !== "/tmp" && fs.kind(dir) === "dir");
  const holdsCode = (mask: string) => code.some((dir) => isUnder(dir, mask));
  for (const dir of masks.filter(holdsCode)) args.push("--tmpfs", dir);
  for (const dir of code) args.push("--ro-bind", dir, dir);
  for (const file of [input.display?.x11Dir, input.display?.xauthority]) {
    if (file !== undefined && fs.kind(file) !== "missing") args.push("--ro-bind", file, file);
  }
  for (const dir of masks.filter((mask) => !holdsCode(mask))) args.push("--tmpfs", dir);
  for (const dir of outermost(input.writable)) args.push("--bind", dir, dir);
  for (const { host, view } of input.overlays) args.push("--bind", host, view);
  // Read-only once everything is mounted: the view's root (a tmpfs bwrap builds it on), /tmp and the masks take no
  // files, so nothing is written outside the worker's own folders, not even where only the worker would see it.
  for (const dir of ["/", "/tmp", ...masks]) args.push("--remount-ro", dir);
  args.push("--chdir", "/");
  return args;
}
