// Paths a snippet may name: `artifactPath(name)` and the file arguments it
// hands Playwright (`setInputFiles`). Every one must resolve, symlinks
// followed, to a regular file inside the session's own artifact folder and
// not to the store's dot-named metadata; anything else is INVALID_ARGUMENT
// before Playwright sees it.
import { lstatSync, mkdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { BwError } from "../../../shared/protocol/errors.js";
import { isStorageFailure, storageError } from "../../../shared/fs-problem.js";

export const MAX_ARTIFACT_NAME_CHARS = 128;
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._ -]*$/;

/** Facade methods whose arguments name files, and where the files are: [target, method, index of the files argument]. */
export const FILE_ARGUMENTS: readonly (readonly [string, string, number])[] = [
  ["page", "setInputFiles", 1],
  ["frame", "setInputFiles", 1],
  ["locator", "setInputFiles", 0],
];

/** Dot-names are the store's own metadata (`.downloads.jsonl`, `.incoming/`): never a snippet's to name or read. */
function metadataProblem(components: readonly string[]): string | undefined {
  return components.some((c) => c.startsWith(".")) ? "names starting with '.' are the artifact store's metadata" : undefined;
}

export function artifactNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string" || name === "") return "a name must be a non-empty string";
  if (name.length > MAX_ARTIFACT_NAME_CHARS) return `a name may hold at most ${MAX_ARTIFACT_NAME_CHARS} characters`;
  const metadata = metadataProblem([name]);
  if (metadata !== undefined) return metadata;
  if (!SAFE_NAME.test(name)) return "a name may hold letters, digits, '.', '-', '_' and spaces, and starts with a letter or digit (no folders)";
  if (name.includes("..")) return "a name must not contain '..'";
  if (/[. ]$/.test(name)) return "a name must not end with '.' or a space";
  return undefined;
}

/** The session's artifact folder, created 0700; it must be a plain folder at its canonical path (no symlink on the way). */
export function sessionArtifactDir(artifactsDir: string, session: string): string {
  const dir = path.join(artifactsDir, session);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    // A full or read-only disk (a folder takes a block on most file systems) is the machine's, not the snippet's.
    throw isStorageFailure(error) ? storageError(error) : error;
  }
  let real: string;
  try {
    real = realpathSync(dir);
  } catch (error) {
    throw new BwError("INVALID_ARGUMENT", `the artifact folder ${dir} is unusable: ${(error as Error).message}`);
  }
  if (real !== dir || !lstatSync(dir).isDirectory()) {
    throw new BwError("INVALID_ARGUMENT", `the artifact folder ${dir} is not a plain folder (it resolves to ${real})`);
  }
  return dir;
}

export function safeArtifactPath(artifactsDir: string, session: string, name: unknown): string {
  const problem = artifactNameProblem(name);
  if (problem !== undefined) throw new BwError("INVALID_ARGUMENT", `artifactPath(${JSON.stringify(name)?.slice(0, 200)}): ${problem}`);
  return path.join(sessionArtifactDir(artifactsDir, session), name as string);
}

/** A file argument, relative to the folder or absolute, resolved to its real path; it must be a regular file inside `dir`. */
export function resolveInside(dir: string, candidate: unknown): string {
  if (typeof candidate !== "string" || candidate === "" || candidate.includes("\0")) {
    throw new BwError("INVALID_ARGUMENT", "file arguments must be paths (strings) inside the session's artifact folder; see artifactPath(name)");
  }
  const shown = JSON.stringify(candidate).slice(0, 200);
  let real: string;
  try {
    real = realpathSync(path.resolve(dir, candidate));
  } catch {
    throw new BwError("INVALID_ARGUMENT", `${shown} does not exist inside the session's artifact folder ${dir}`);
  }
  const rel = path.relative(dir, real);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) {
    throw new BwError("INVALID_ARGUMENT", `${shown} resolves outside the session's artifact folder ${dir}; only files there may be passed to the browser`);
  }
  const metadata = metadataProblem(rel.split(path.sep));
  if (metadata !== undefined) throw new BwError("INVALID_ARGUMENT", `${shown} resolves to ${rel}: ${metadata}`);
  if (!statSync(real).isFile()) throw new BwError("INVALID_ARGUMENT", `${shown} is not a regular file`);
  return real;
}

/** A session's check on facade arguments, applied before Playwright sees them. */
export type FileArgumentCheck = (target: string, method: string, args: unknown[]) => unknown[];

/** Without an artifact folder, no call may name a file. */
export const refuseFileArguments: FileArgumentCheck = (target, method, args) => {
  if (FILE_ARGUMENTS.some(([t, m]) => t === target && m === method)) {
    throw new BwError("INVALID_ARGUMENT", `${target}.${method} needs the artifact store, which this worker does not have`);
  }
  return args;
};

/** Rewrites the file argument of a file-taking call to checked real paths; other calls pass through. */
export function checkFileArguments(dirOf: () => string, target: string, method: string, args: unknown[]): unknown[] {
  const spec = FILE_ARGUMENTS.find(([t, m]) => t === target && m === method);
  if (!spec) return args;
  const index = spec[2];
  const files = args[index];
  const list = Array.isArray(files) ? files : [files];
  const dir = dirOf();
  const resolved = list.map((f) => resolveInside(dir, f));
  const out = [...args];
  out[index] = Array.isArray(files) ? resolved : resolved[0];
  return out;
}
