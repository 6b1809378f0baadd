// The host end of the facades: a message names a target (page, frame,
// locator chain, keyboard, mouse) by id, a method from the facade spec and
// JSON arguments; this resolves the Playwright object, checks the method
// against the spec, clamps timeouts to the run's budget and returns plain data.
import type { Frame, Locator } from "playwright-core";
import { BwError } from "../../../shared/protocol/errors.js";
import { clampTimeouts, decodeArgs, toWireResult } from "./args.js";
import { chainStep, isAllowed, type ChainKind, type FacadeTarget } from "./facade-spec.js";
import type { PageRegistry } from "../page-registry.js";
import { fromShallowStack } from "../playwright.js";
import { settlingNavigation } from "../failed-navigation.js";
import { frameList, urlWait } from "../url-waits.js";
import { webmcpFacadeCall } from "../webmcp/facade-calls.js";
import { EVALUATIONS, type IsolatedEvaluator } from "../stealth/isolated-eval.js";

const MAX_CHAIN_STEPS = 32;
/** Page and frame methods that navigate: a failure waits for its error page (failed-navigation.ts). */
const NAVIGATIONS = new Set(["goto", "reload", "goBack", "goForward"]);
const NAVIGABLE = /^(https?:|about:blank$|data:|blob:)/i;
/** Methods whose arguments Playwright only serialises into the page, where a RegExp among them is matched (decodeArg). */
const PAGE_SIDE_ARGS = new Set(["evaluate", "$eval", "$$eval", "evaluateAll", "waitForFunction", "dispatchEvent"]);

/** A scheme (`https:`), unless what precedes the colon is a host followed by a port (`localhost:3000`). */
const SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d+(?:[/?#]|$))/i;
/** Text that begins like a host name (a dotted name or localhost, maybe a port), so prefixing a scheme is a good guess. */
const HOST_FIRST = /^(localhost|\[[0-9a-f:.]+\]|[a-z0-9-]+(\.[a-z0-9-]+)+)(:\d+)?([/?#]|$)/i;
/** Loopback and IP literals are usually served over plain http; names over https. */
const PLAIN_HTTP_HOST = /^(localhost|\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])(:\d+)?([/?#]|$)/i;

export function assertNavigable(url: unknown): void {
  if (typeof url === "string" && url.trim() !== "" && !SCHEME.test(url.trim())) {
    const text = url.trim();
    const quoted = JSON.stringify(text.slice(0, 200));
    if (!HOST_FIRST.test(text)) throw new BwError("INVALID_ARGUMENT", `${quoted} has no scheme; give an absolute URL such as https://example.com/`);
    const guess = `${PLAIN_HTTP_HOST.test(text) ? "http" : "https"}://${text}`;
    throw new BwError("INVALID_ARGUMENT", `${quoted} has no scheme; did you mean ${JSON.stringify(guess.slice(0, 220))}?`);
  }
  if (typeof url !== "string" || !NAVIGABLE.test(url.trim())) {
    throw new BwError("BLOCKED_URL", `goto accepts http, https, about:blank, data: and blob: URLs only, not ${JSON.stringify(String(url)).slice(0, 200)}`);
  }
}

type Message = Record<string, unknown>;
type Callable = Record<string, (...args: unknown[]) => unknown>;

export class FacadeDispatch {
  constructor(
    private readonly pages: PageRegistry,
    /** File arguments (setInputFiles) are checked and rewritten to real paths inside the artifact folder. */
    private readonly checkFileArgs: (target: string, method: string, args: unknown[]) => unknown[] = (_t, _m, args) => args,
    /** Stealth mode: evaluations run in an isolated world instead of the page's main world. */
    private readonly isolated?: IsolatedEvaluator,
  ) {}

  /** page/frame sync methods (url(), name()…). */
  callSync(m: Message): unknown {
    const target = String(m.target);
    const method = String(m.method);
    if ((target !== "page" && target !== "frame") || !isAllowed(target, method, "sync")) {
      throw new BwError("INVALID_ARGUMENT", `${target}.${method} is not available to snippets`);
    }
    const receiver = target === "page" ? this.pages.get(m.pageId) : this.pages.frame(m.pageId, m.frameId);
    return toWireResult((receiver as unknown as Callable)[method]!(...this.decode(m.pageId, m.args)));
  }

  /** `guard` wraps the Playwright call (the network guard reports what it refused during it). */
  async call(m: Message, remainingMs: number, guard: <T>(action: () => Promise<T>) => Promise<T> = (action) => action()): Promise<unknown> {
    const target = String(m.target) as FacadeTarget;
    const method = String(m.method);
    // waitForURL is matched in the realm (url-waits.ts), never by Playwright on this thread.
    if (!["page", "frame", "locator", "keyboard", "mouse", "webmcp"].includes(target) || !isAllowed(target, method, "async") || method === "waitForURL") {
      throw new BwError("INVALID_ARGUMENT", `${target}.${method} is not available to snippets`);
    }
    const page = this.pages.get(m.pageId);
    // The bridge checks its own arguments (a tool's input is data, its `timeout` key no option of ours).
    if (target === "webmcp") return toWireResult(await guard(() => webmcpFacadeCall(page, String(m.pageId), method, this.decode(m.pageId, m.args), remainingMs)));
    page.setDefaultTimeout(remainingMs);
    page.setDefaultNavigationTimeout(remainingMs);
    let receiver: unknown = page;
    if (target === "frame") receiver = this.pages.frame(m.pageId, m.frameId);
    if (target === "keyboard") receiver = page.keyboard;
    if (target === "mouse") receiver = page.mouse;
    if (target === "locator") receiver = this.chain(String(m.pageId), m.frameId, m.steps, "locator");
    let args = clampTimeouts(this.decode(m.pageId, m.args, PAGE_SIDE_ARGS.has(method)), remainingMs);
    // Inside the guard, so that a refused scheme keeps its BLOCKED_URL code when the snippet lets it through.
    if (method === "goto") await guard(async () => assertNavigable(args[0]));
    args = this.checkFileArgs(target, method, args);
    if (method === "waitForTimeout") args = [Math.min(Math.max(0, Number(args[0]) || 0), remainingMs)];
    if (this.isolated && EVALUATIONS.has(method)) {
      const isolated = this.isolated;
      const frame = m.frameId === null || m.frameId === undefined ? page.mainFrame() : this.pages.frame(m.pageId, m.frameId);
      const evaluated = args;
      return toWireResult(await guard(() => isolated.run(page, frame, target, method, evaluated, m.steps, remainingMs)));
    }
    const fn = (receiver as Callable)[method];
    if (typeof fn !== "function") throw new BwError("INVALID_ARGUMENT", `${target}.${method} is not available in this Playwright version`);
    const call = () => fromShallowStack(() => fn.apply(receiver, args));
    const navigates = NAVIGATIONS.has(method) && (target === "page" || target === "frame");
    const frame = () => (target === "frame" ? receiver : page.mainFrame()) as Frame;
    return toWireResult(await guard(navigates ? () => settlingNavigation(frame(), remainingMs, call) : call));
  }

  /** Frame structure: all, main, find({name|url}), parent, children; answers frame ids. */
  frames(m: Message): unknown {
    const pageId = String(m.pageId);
    const page = this.pages.get(pageId);
    const id = (frame: Frame | null) => (frame ? this.pages.frameId(pageId, frame) : null);
    switch (m.which) {
      case "all":
        return page.frames().map(id);
      case "main":
        return id(page.mainFrame());
      case "list":
        // page.frame({ name, url }) matches these in the realm (url-waits.ts).
        return frameList(page, (frame) => this.pages.frameId(pageId, frame));
      case "parent":
        return id(this.pages.frame(pageId, m.frameId).parentFrame());
      case "children":
        return this.pages.frame(pageId, m.frameId).childFrames().map(id);
      default:
        throw new BwError("INVALID_ARGUMENT", `unknown frame query ${String(m.which)}`);
    }
  }

  /** One step of a realm's waitForURL on a page or a frame (url-waits.ts). */
  urlWait(m: Message, remainingMs: number): Promise<unknown> {
    const page = this.pages.get(m.pageId);
    const frame = m.frameId === undefined || m.frameId === null ? page.mainFrame() : this.pages.frame(m.pageId, m.frameId);
    return urlWait(page, frame, m, remainingMs);
  }

  /** `patterns`: the arguments may hold a RegExp, matched in the page (see decodeArg). */
  private decode(pageId: unknown, args: unknown, patterns = false): unknown[] {
    return decodeArgs(args, (descriptor) => {
      const d = (descriptor ?? {}) as { pageId?: unknown; frameId?: unknown; steps?: unknown };
      if (String(d.pageId) !== String(pageId)) throw new BwError("INVALID_ARGUMENT", "a locator from another page cannot be used here");
      return this.chain(String(d.pageId), d.frameId, d.steps, "locator");
    }, patterns);
  }

  /** Replays a chain of builder steps from a page or frame, checking each step against the spec. */
  private chain(pageId: string, frameId: unknown, steps: unknown, want: ChainKind): Locator {
    if (!Array.isArray(steps) || steps.length === 0 || steps.length > MAX_CHAIN_STEPS) throw new BwError("INVALID_ARGUMENT", "malformed locator");
    let current: unknown = frameId === null || frameId === undefined ? this.pages.get(pageId) : this.pages.frame(pageId, frameId);
    let kind: ChainKind | "root" = "root";
    for (const step of steps) {
      const { m, a } = (step ?? {}) as { m?: unknown; a?: unknown };
      const next: ChainKind | undefined = typeof m === "string" ? chainStep(kind, m) : undefined;
      if (!next) throw new BwError("INVALID_ARGUMENT", `locator step ${String(m)} is not available`);
      current = (current as Callable)[m as string]!(...this.decode(pageId, a, true));
      kind = next;
    }
    if (kind !== want) throw new BwError("INVALID_ARGUMENT", "a frame locator has no such method: pick an element in it with locator() or getBy*()");
    return current as Locator;
  }
}
