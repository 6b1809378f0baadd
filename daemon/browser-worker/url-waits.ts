// The main thread's half of URL matching for snippets. A snippet's pattern
// (RegExp, glob, predicate) is matched in its realm, never here: a pattern
// that backtracks for ever would hold every session's calls. This side only
// turns a glob into Playwright's own pattern text (string work, bounded),
// reports a frame's URL as it changes, and waits for the load state once the
// realm found its match. Page.waitForURL and page.frame({ url }) are built on it.
import type { Frame, Page } from "playwright-core";
import { createRequire } from "node:module";
import { BwError } from "../../shared/protocol/errors.js";

/** The longest glob a snippet may give (its pattern is built in time quadratic in its length). */
export const MAX_GLOB_CHARS = 4_096;
const LOAD_STATES = new Set(["load", "domcontentloaded", "networkidle", "commit"]);

type GlobToPattern = (baseURL: string | undefined, glob: string) => string;

/** Playwright's own glob resolution (playwright-core exports it from its core bundle), so a glob means what it means there. */
function playwrightGlob(): GlobToPattern {
  const core = createRequire(import.meta.url)("playwright-core/lib/coreBundle") as { iso: { resolveGlobToRegexPattern: GlobToPattern } };
  return core.iso.resolveGlobToRegexPattern;
}

/** The RegExp source a glob stands for ("" matches every URL, as in Playwright). */
export function globPattern(glob: unknown): string {
  if (typeof glob !== "string") throw new BwError("INVALID_ARGUMENT", "a URL pattern is a string, a RegExp or a function");
  if (glob === "") return "";
  if (glob.length > MAX_GLOB_CHARS) throw new BwError("INVALID_ARGUMENT", `a URL glob may be at most ${MAX_GLOB_CHARS} characters`);
  try {
    return playwrightGlob()(undefined, glob);
  } catch (error) {
    throw new BwError("INVALID_ARGUMENT", (error as Error).message);
  }
}

function timeoutError(ms: number): Error {
  return Object.assign(new Error(`waitForURL: Timeout ${ms}ms exceeded.`), { name: "TimeoutError" });
}

/** Resolves when `frame`'s URL is no longer `after`, with its URL; rejects at `deadline`, or when the frame goes. */
function nextUrl(page: Page, frame: Frame, after: string, deadline: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const done = (settle: () => void) => {
      clearTimeout(timer);
      page.off("framenavigated", navigated).off("framedetached", detached).off("close", closed);
      settle();
    };
    const navigated = (f: Frame) => { if (f === frame && f.url() !== after) done(() => resolve(f.url())); };
    const detached = (f: Frame) => { if (f === frame) done(() => reject(new Error("waitForURL: the frame was detached"))); };
    const closed = () => done(() => reject(new Error("waitForURL: Target page, context or browser has been closed")));
    const timer = setTimeout(() => done(() => reject(timeoutError(timeoutMs))), Math.max(0, deadline - Date.now()));
    page.on("framenavigated", navigated).on("framedetached", detached).on("close", closed);
  });
}

export interface UrlWaitStep {
  url: string;
  /** When the whole wait ends (epoch ms), set by the first step and carried by the realm to the next. */
  deadline: number;
  /** The wait's timeout as the snippet gave it (for its error message). */
  timeoutMs: number;
}

/**
 * One step of a realm's waitForURL: `next` answers the frame's URL once it is not `after` (at once on the first step,
 * `after` null); `settle` waits for the load state the realm's match asked for.
 */
export async function urlWait(page: Page, frame: Frame, m: Record<string, unknown>, remainingMs: number): Promise<UrlWaitStep | null> {
  const now = Date.now();
  const first = typeof m.deadline !== "number";
  const asked = typeof m.timeout === "number" && m.timeout > 0 ? Math.min(m.timeout, remainingMs) : remainingMs;
  const deadline = first ? now + asked : Math.min(m.deadline as number, now + remainingMs);
  const timeoutMs = first ? asked : Number(m.timeoutMs) || remainingMs;
  if (m.phase === "settle") {
    const state = m.waitUntil === undefined || m.waitUntil === null ? "load" : String(m.waitUntil);
    if (!LOAD_STATES.has(state)) throw new BwError("INVALID_ARGUMENT", `waitUntil: expected one of (load|domcontentloaded|networkidle|commit), got ${state.slice(0, 40)}`);
    if (state !== "commit") await frame.waitForLoadState(state as "load", { timeout: Math.max(1, deadline - now) });
    return null;
  }
  const url = frame.url();
  if (first || url !== m.after) return { url, deadline, timeoutMs };
  return { url: await nextUrl(page, frame, String(m.after), deadline, timeoutMs), deadline, timeoutMs };
}

/** Every frame of a page with its name and URL, for page.frame({ name, url }) to match in the realm. */
export function frameList(page: Page, idOf: (frame: Frame) => string): { id: string; name: string; url: string }[] {
  return page.frames().map((frame) => ({ id: idOf(frame), name: frame.name(), url: frame.url() }));
}
