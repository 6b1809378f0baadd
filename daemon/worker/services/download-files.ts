// A download's file as Chromium and Playwright keep it: where it is written,
// how a refused one is cancelled and removed, how a kept one is moved out.
import { copyFileSync, renameSync, rmSync } from "node:fs";
import type { Download } from "playwright-core";

const DISCARD_WAIT_MS = 5_000;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/** Where Chromium writes this download (`<guid>.crdownload` while in progress, then `<guid>`); Playwright keeps it on its artifact. */
export function downloadFileOf(download: Download): string | undefined {
  const p = (download as unknown as { _artifact?: { _initializer?: { absolutePath?: unknown } } })._artifact?._initializer?.absolutePath;
  return typeof p === "string" ? p : undefined;
}

/** Cancels the download and removes what it wrote; bounded, and never throws. */
export async function discardDownload(download: Download): Promise<void> {
  const file = downloadFileOf(download);
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
