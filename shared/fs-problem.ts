// Filesystem failures a user can act on, in plain words: a full disk, a
// read-only mount, a path that runs through a file. Messages name the path
// and keep the errno code for searching.
import { BwError } from "./protocol/errors.js";

const PLAIN: Record<string, string> = {
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is used up",
  EROFS: "the file system is read-only",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOTDIR: "a part of the path is a file, not a folder",
  EEXIST: "something that is not a folder is in the way",
  EISDIR: "it is a folder",
  ENOENT: "it does not exist and cannot be created there",
  ENAMETOOLONG: "the path is too long",
  ELOOP: "too many symbolic links",
  EMFILE: "too many open files",
  ENFILE: "too many open files on the system",
  EIO: "an input/output error",
};

/** The errno code of a filesystem error, if it is one of the conditions above. */
export function storageCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && Object.hasOwn(PLAIN, code) ? code : undefined;
}

/** "cannot write /home/x/daemon.json: no space left on the device (ENOSPC)", or the raw message for anything else. */
export function describeFsError(error: unknown, action: string, target: string): string {
  const code = storageCode(error);
  if (code === undefined) return `cannot ${action} ${target}: ${error instanceof Error ? error.message : String(error)}`;
  return `cannot ${action} ${target}: ${PLAIN[code]} (${code})`;
}

/** The machine's fault, not the caller's or a defect: the disk is full, read-only or failing. */
export function isStorageFailure(error: unknown): boolean {
  return ["ENOSPC", "EDQUOT", "EROFS", "EIO", "EMFILE", "ENFILE"].includes(storageCode(error) ?? "");
}

/** The path and action a Node filesystem error names, for describeFsError. */
export function fsErrorTarget(error: unknown): { action: string; target: string } {
  const e = error as NodeJS.ErrnoException;
  return { action: typeof e.syscall === "string" ? e.syscall : "write", target: typeof e.path === "string" ? e.path : "a file under the home" };
}

/** A full or read-only disk is the machine's condition, not a defect: it gets its own code and plain words. */
export function storageError(error: unknown): BwError {
  const { action, target } = fsErrorTarget(error);
  return new BwError("STORAGE_UNAVAILABLE", describeFsError(error, action, target), { cause: error });
}
