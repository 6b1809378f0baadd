// Crash-safe file replacement: readers see the old bytes or the new bytes,
// never a mix, and a power loss after return cannot undo the rename.
import { randomBytes } from "node:crypto";
import { link, open, readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { CREATE_NEW_NOFOLLOW } from "../../shared/secure-fs.js";

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

export interface AtomicWriteOptions {
  /** Test seam: runs after the temp file is durable and before the rename. */
  beforeRename?: (tempPath: string) => Promise<void> | void;
  /** Checked right before the rename; throwing aborts the write (e.g. the lock was lost). */
  assertStillOwner?: () => void;
}

/** Temp files are `<name>.<pid>.<random>.tmp` beside the target, so a crash leaves them recognisable. */
function tempPathFor(path: string): string {
  return join(dirname(path), `${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
}

async function writeDurableTemp(path: string, data: Uint8Array): Promise<string> {
  const temp = tempPathFor(path);
  const handle = await open(temp, CREATE_NEW_NOFOLLOW, FILE_MODE);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  return temp;
}

/** Replaces `path` with `data`: temp file (0600) in the same dir, fsync, rename, fsync the dir. */
export async function writeFileAtomic(path: string, data: Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const temp = await writeDurableTemp(path, data);
  try {
    await options.beforeRename?.(temp);
    options.assertStillOwner?.();
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await fsyncDir(dirname(path));
}

/**
 * Creates `path` with `data` only if it does not exist yet (link fails with
 * EEXIST instead of replacing), durably. Returns false when it already existed.
 */
export async function createFileExclusive(path: string, data: Uint8Array): Promise<boolean> {
  const temp = await writeDurableTemp(path, data);
  try {
    await link(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
  await fsyncDir(dirname(path));
  return true;
}

export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Removes temp files a killed writer left for any of `names`; call only while holding the lock. */
export async function removeStaleTemps(dir: string, names: readonly string[]): Promise<void> {
  let files: string[];
  try {
    files = await readdir(dir);
  } catch {
    return;
  }
  const stale = files.filter((file) => names.some((name) => file.startsWith(`${name}.`) && file.endsWith(".tmp")));
  await Promise.all(stale.map((file) => rm(join(dir, file), { force: true })));
}
