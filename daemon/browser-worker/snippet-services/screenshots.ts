// screenshot(opts?): the viewport (default), the full page, or one element;
// PNG or JPEG. Its pixel size is measured through Playwright and CDP (never
// through page script, which the page controls) and checked against a cap
// before anything is captured; the bytes are reserved before they are written.
import type { Page } from "playwright-core";
import { BwError } from "../../../shared/protocol/errors.js";
import type { CommitResult } from "../../../shared/protocol/methods/index.js";
import type { RunHandle } from "../facades/scope-functions.js";

/** Chromium's largest texture side; larger captures come back cropped or blank. */
export const MAX_SCREENSHOT_SIDE_PX = 16_384;
/** About 100 MB of raw pixels: the most a capture may decode in the worker. */
export const MAX_SCREENSHOT_PIXELS = 25_000_000;

export interface ScreenshotOptions {
  fullPage: boolean;
  selector: string | undefined;
  type: "png" | "jpeg";
  quality: number | undefined;
}

export interface ScreenshotInfo {
  kind: "screenshot";
  path: string;
  bytes: number;
  width: number;
  height: number;
  type: "png" | "jpeg";
}

const KNOWN = new Set(["fullPage", "selector", "type", "quality"]);

export function parseScreenshotOptions(raw: unknown): ScreenshotOptions {
  if (raw === undefined || raw === null) return { fullPage: false, selector: undefined, type: "png", quality: undefined };
  if (typeof raw !== "object" || Array.isArray(raw)) throw new BwError("INVALID_ARGUMENT", "screenshot(opts): opts must be an object");
  const o = raw as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!KNOWN.has(key)) throw new BwError("INVALID_ARGUMENT", `screenshot(opts): unknown option '${key}' (known: ${[...KNOWN].join(", ")}; the file always goes to the artifact folder)`);
  }
  const type = o.type ?? "png";
  if (type !== "png" && type !== "jpeg") throw new BwError("INVALID_ARGUMENT", "screenshot(opts): type is \"png\" or \"jpeg\"");
  if (o.quality !== undefined && (type !== "jpeg" || typeof o.quality !== "number" || !Number.isInteger(o.quality) || o.quality < 0 || o.quality > 100)) {
    throw new BwError("INVALID_ARGUMENT", "screenshot(opts): quality is an integer 0–100, for jpeg only");
  }
  if (o.selector !== undefined && (typeof o.selector !== "string" || o.selector === "" || o.selector.length > 2000)) {
    throw new BwError("INVALID_ARGUMENT", "screenshot(opts): selector is a non-empty string");
  }
  if (o.fullPage !== undefined && typeof o.fullPage !== "boolean") throw new BwError("INVALID_ARGUMENT", "screenshot(opts): fullPage is a boolean");
  if (o.fullPage && o.selector !== undefined) throw new BwError("INVALID_ARGUMENT", "screenshot(opts): give fullPage or selector, not both");
  return { fullPage: o.fullPage === true, selector: o.selector as string | undefined, type, quality: o.quality as number | undefined };
}

/** Width and height from a PNG's IHDR or a JPEG's SOF marker. */
export function imageSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.length >= 24 && data.readUInt32BE(0) === 0x89504e47 && data.toString("latin1", 12, 16) === "IHDR") {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) {
    let i = 2;
    while (i + 9 < data.length) {
      if (data[i] !== 0xff) return undefined;
      const marker = data[i + 1]!;
      const length = data.readUInt16BE(i + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: data.readUInt16BE(i + 7), height: data.readUInt16BE(i + 5) };
      }
      i += 2 + length;
    }
  }
  return undefined;
}

export function pixelProblem(width: number, height: number): string | undefined {
  if (width > MAX_SCREENSHOT_SIDE_PX || height > MAX_SCREENSHOT_SIDE_PX) return `a side is larger than ${MAX_SCREENSHOT_SIDE_PX} px`;
  if (width * height > MAX_SCREENSHOT_PIXELS) return `more than ${MAX_SCREENSHOT_PIXELS} pixels`;
  return undefined;
}

interface LayoutMetrics {
  cssContentSize?: { width: number; height: number };
  contentSize?: { width: number; height: number };
  cssVisualViewport?: { clientWidth: number; clientHeight: number };
  visualViewport?: { clientWidth: number; clientHeight: number };
}

async function layoutMetrics(page: Page): Promise<LayoutMetrics> {
  const cdp = await page.context().newCDPSession(page);
  try {
    return (await cdp.send("Page.getLayoutMetrics")) as LayoutMetrics;
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/** The capture's size in device pixels, before capturing. */
async function plannedSize(page: Page, options: ScreenshotOptions, timeoutMs: number): Promise<{ width: number; height: number }> {
  const metrics = await layoutMetrics(page);
  const css = metrics.cssVisualViewport;
  const device = metrics.visualViewport;
  const scale = css && device && css.clientWidth > 0 ? device.clientWidth / css.clientWidth : 1;
  let width: number;
  let height: number;
  if (options.selector !== undefined) {
    const box = await page.locator(options.selector).first().boundingBox({ timeout: timeoutMs });
    if (!box) throw new BwError("INVALID_ARGUMENT", `screenshot: no visible element matches ${JSON.stringify(options.selector).slice(0, 200)}`);
    ({ width, height } = box);
  } else if (options.fullPage) {
    const content = metrics.cssContentSize ?? metrics.contentSize ?? { width: 0, height: 0 };
    ({ width, height } = content);
  } else {
    const viewport = page.viewportSize();
    width = viewport?.width ?? css?.clientWidth ?? 0;
    height = viewport?.height ?? css?.clientHeight ?? 0;
  }
  return { width: Math.ceil(width * scale), height: Math.ceil(height * scale) };
}

export async function takeScreenshot(
  run: RunHandle,
  rawOptions: unknown,
  write: (extension: string, data: Buffer) => Promise<CommitResult>,
): Promise<ScreenshotInfo> {
  const options = parseScreenshotOptions(rawOptions);
  const page = run.activePage();
  const planned = await plannedSize(page, options, run.remainingMs());
  const before = pixelProblem(planned.width, planned.height);
  if (before) throw new BwError("LIMIT_EXCEEDED", `screenshot of ${planned.width}×${planned.height} px refused: ${before}`);
  run.assertLive();
  const shot = { type: options.type, timeout: run.remainingMs(), ...(options.quality !== undefined ? { quality: options.quality } : {}) };
  const data = options.selector !== undefined
    ? await page.locator(options.selector).first().screenshot(shot)
    : await page.screenshot({ ...shot, fullPage: options.fullPage });
  run.assertLive();
  const size = imageSize(data) ?? planned;
  // The page may have grown between measuring and capturing.
  const after = pixelProblem(size.width, size.height);
  if (after) throw new BwError("LIMIT_EXCEEDED", `screenshot of ${size.width}×${size.height} px discarded: ${after}`);
  const saved = await write(options.type === "jpeg" ? "jpg" : "png", data);
  const info: ScreenshotInfo = { kind: "screenshot", path: saved.path, bytes: saved.bytes, width: size.width, height: size.height, type: options.type };
  run.addArtifact({ ...info });
  return info;
}
