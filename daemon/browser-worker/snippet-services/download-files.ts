// A download's file as Chromium and Playwright keep it: where it is written,
// how a refused one is cancelled and removed, how a kept one is moved out.
import { copyFileSync, createWriteStream, renameSync, rmSync } from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Download } from "playwright-core";

const DISCARD_WAIT_MS = 5_000;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** Where Chromium writes this download (`<guid>.crdownload` while in progress, then `<guid>`); Playwright keeps it on its artifact. */
export function downloadFileOf(download: Download): string | undefined {
  const p = (download as unknown as { _artifact?: { _initializer?: { absolutePath?: unknown } } })._artifact?._initializer?.absolutePath;
  return typeof p === "string" ? p : undefined;
}

/**
 * Cancels the download and removes what it wrote; bounded, and never throws. `local`: the file a
 * remote download was being copied to (a remote browser's own path names a file on its host, never here).
 */
export async function discardDownload(download: Download, local?: { file: string; stop(): void }): Promise<void> {
  local?.stop();
  const file = local ? local.file : downloadFileOf(download);
  await Promise.race([(async () => {
    await download.cancel().catch(() => {});
    // Settled (cancelled, or finished before the cancel landed): Chromium renames nothing any more.
    await download.failure().catch(() => {});
    await download.delete().catch(() => {});
  })(), sleep(DISCARD_WAIT_MS)]);
  if (file) for (const f of [file, `${file}.crdownload`]) rmSync(f, { force: true });
}

export function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    copyFileSync(from, to);
    rmSync(from, { force: true });
  }
}

/**
 * A remote browser's download, copied here over Playwright's artifact stream once it has finished
 * there, into `file` in the incoming folder (where the meter counts it against the caps as it grows).
 */
export function copyRemoteDownload(download: Download, file: string, onBytes: (total: number) => void): { done: Promise<string>; stop(): void } {
  const aborter = new AbortController();
  let total = 0;
  // Told of every chunk before it is written, so a cap stops the copy within a chunk of it.
  const count = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      total += chunk.length;
      onBytes(total);
      callback(null, chunk);
    },
  });
  const done = (async () => {
    const failure = await download.failure();
    if (failure) throw new Error(failure);
    const stream = await download.createReadStream();
    await pipeline(stream, count, createWriteStream(file, { flags: "wx", mode: 0o600 }), { signal: aborter.signal });
    return file;
  })();
  done.catch(() => {});
  return { done, stop: () => aborter.abort() };
}
