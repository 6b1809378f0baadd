// Stealth mode's page evaluation: a snippet's `evaluate`, `$eval`, `$$eval`,
// `waitForFunction` and a locator's `evaluate`/`evaluateAll` run in an
// isolated world of the frame (its own JavaScript globals over the page's
// DOM) instead of the page's main world, so nothing the page defines or
// patches there can see or trap them. The cost: the snippet cannot read
// globals the page defines, and an evaluation on elements takes a CSS
// locator, which the world resolves itself.
import type { CDPSession, Frame, Page } from "playwright-core";
import { BwError } from "../../../shared/protocol/errors.js";

/** The facade methods that evaluate code in the page: what stealth mode moves out of the main world. */
export const EVALUATIONS = new Set(["evaluate", "$eval", "$$eval", "waitForFunction", "evaluateAll"]);

const WORLD_NAME = "betterwright";
const POLL_MS = 100;

interface CdpFrame {
  frame: { id: string; url: string; name?: string; parentId?: string };
  childFrames?: CdpFrame[];
}


/** A page function (its source, called with the arguments) or an expression (evaluated as it is). */
interface Code {
  source: string;
  isFunction: boolean;
}

const fn = (source: string): Code => ({ source, isFunction: true });

/** A step of a locator chain the world can resolve itself: a CSS query, or a pick by index. */
type ChainStep = { css: string } | { nth: number };

/**
 * A locator's builder steps as CSS queries and picks. Playwright's own engines (getByRole, text=, >>…) run
 * only in Playwright's worlds, so in stealth mode an element-bound evaluation takes a CSS locator.
 */
function cssChain(steps: unknown, method: string): ChainStep[] {
  const refuse = (): never => {
    throw new BwError("INVALID_ARGUMENT", `${method}: in stealth mode an evaluation on elements takes a CSS locator (locator("css"), first(), last(), nth()); read other locators with textContent(), getAttribute() and the like`);
  };
  if (!Array.isArray(steps) || steps.length === 0) refuse();
  return (steps as { m?: unknown; a?: unknown[] }[]).map((step) => {
    const arg = Array.isArray(step?.a) ? step.a : [];
    if (step?.m === "locator" && typeof arg[0] === "string" && arg.length === 1 && !/^\w+=|>>|^\/\/|^\.\.|internal:/.test(arg[0].trim())) return { css: arg[0] };
    if (step?.m === "first") return { nth: 0 };
    if (step?.m === "last") return { nth: -1 };
    if (step?.m === "nth" && Number.isInteger(arg[0])) return { nth: arg[0] as number };
    return refuse();
  });
}

function codeOf(fn: unknown, method: string): Code {
  if (typeof fn === "function") return { source: String(fn), isFunction: true };
  if (typeof fn === "string") return { source: fn, isFunction: false };
  throw new BwError("INVALID_ARGUMENT", `${method}: expected a function or an expression`);
}

function checkArg(arg: unknown, method: string): unknown {
  const text = JSON.stringify(arg, (_k, v: unknown) => {
    if (typeof v === "function") throw new BwError("INVALID_ARGUMENT", `${method}: in stealth mode the argument must be JSON data (a locator or handle cannot be passed)`);
    return v;
  });
  return text === undefined ? undefined : JSON.parse(text);
}

export class IsolatedEvaluator {
  private readonly sessions = new WeakMap<Page, Promise<CDPSession>>();
  /** The world of each frame (CDP frame id → execution context), per page; a navigation makes a new one. */
  private readonly worlds = new WeakMap<Page, Map<string, number>>();
  private readonly mainWorlds = new WeakMap<Page, number>();

  /** Runs one evaluation facade call in an isolated world; `steps` is a locator's chain of builder steps. */
  async run(page: Page, frame: Frame, target: string, method: string, args: unknown[], steps: unknown, remainingMs: number): Promise<unknown> {
    if (target === "locator") {
      const all = method === "evaluateAll";
      return this.onElements(page, frame, cssChain(steps, method), !all, all, codeOf(args[0], method), checkArg(args[1], method), method);
    }
    if (method === "$eval" || method === "$$eval") {
      const chain = cssChain([{ m: "locator", a: [args[0]] }], method);
      if (method === "$eval") chain.push({ nth: 0 });
      return this.onElements(page, frame, chain, false, method === "$$eval", codeOf(args[1], method), checkArg(args[2], method), method);
    }
    const code = codeOf(args[0], method);
    const arg = checkArg(args[1], method);
    if (method === "waitForFunction") return this.waitFor(page, frame, code, arg, args[2], remainingMs);
    return this.call(page, frame, code, [arg]);
  }

  private session(page: Page): Promise<CDPSession> {
    let session = this.sessions.get(page);
    if (!session) {
      session = page.context().newCDPSession(page);
      session.catch(() => this.sessions.delete(page));
      this.sessions.set(page, session);
    }
    return session;
  }

  private async frameId(cdp: CDPSession, page: Page, frame: Frame): Promise<string> {
    const { frameTree } = (await cdp.send("Page.getFrameTree")) as { frameTree: CdpFrame };
    if (frame === page.mainFrame()) return frameTree.frame.id;
    const found: string[] = [];
    const walk = (node: CdpFrame) => {
      if (node.frame.url === frame.url() && (node.frame.name ?? "") === frame.name()) found.push(node.frame.id);
      for (const child of node.childFrames ?? []) walk(child);
    };
    for (const child of frameTree.childFrames ?? []) walk(child);
    if (found.length !== 1) throw new BwError("OPERATION_FAILED", "in stealth mode, evaluation reaches the main frame and same-site frames only; this frame could not be told apart from another (or runs in a process of its own)");
    return found[0]!;
  }

  private async world(cdp: CDPSession, page: Page, frame: Frame, fresh: boolean): Promise<number> {
    // The main frame's world is kept by page, so a call on it costs one round trip; a stale one is made again (fresh).
    const main = frame === page.mainFrame();
    const kept = main && !fresh ? this.mainWorlds.get(page) : undefined;
    if (kept !== undefined) return kept;
    const id = await this.frameId(cdp, page, frame);
    let byFrame = this.worlds.get(page);
    if (!byFrame) this.worlds.set(page, (byFrame = new Map()));
    const known = byFrame.get(id);
    if (known !== undefined && !fresh) {
      if (main) this.mainWorlds.set(page, known);
      return known;
    }
    const { executionContextId } = await cdp.send("Page.createIsolatedWorld", { frameId: id, worldName: WORLD_NAME });
    byFrame.set(id, executionContextId);
    if (main) this.mainWorlds.set(page, executionContextId);
    return executionContextId;
  }

  /** Calls `source` with `args` in the frame's world; a world its document took along is made again, once. */
  private async call(page: Page, frame: Frame, code: Code, args: unknown[], fresh = false): Promise<unknown> {
    const cdp = await this.session(page);
    const contextId = await this.world(cdp, page, frame, fresh);
    const { source, isFunction } = code;
    try {
      const answer = isFunction
        ? await cdp.send("Runtime.callFunctionOn", { functionDeclaration: source, executionContextId: contextId, arguments: args.map((value) => (value === undefined ? {} : { value })), awaitPromise: true, returnByValue: true })
        : await cdp.send("Runtime.evaluate", { expression: source, contextId, awaitPromise: true, returnByValue: true });
      if (answer.exceptionDetails) {
        const description = answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text;
        throw new BwError("SNIPPET_ERROR", `page.evaluate: ${String(description).split("\n")[0]!.slice(0, 1_000)}`);
      }
      return answer.result.value;
    } catch (error) {
      if (!fresh && /Cannot find context|context was destroyed|Execution context|navigated/i.test((error as Error).message)) return this.call(page, frame, code, args, true);
      throw error;
    }
  }

  /**
   * `source(elements or the one element, arg)` on what a CSS locator chain matches, resolved inside the world
   * (Playwright resolves locators in the main world to act on them, which a trap there would see).
   */
  private async onElements(page: Page, frame: Frame, chain: ChainStep[], strict: boolean, all: boolean, code: Code, arg: unknown, method: string): Promise<unknown> {
    const call = code.isFunction ? `(${code.source})(all ? nodes : nodes[0], arg)` : `(${code.source})`;
    const run = `async (chain, arg, all, strict) => {
      let nodes = [document];
      for (const step of chain) {
        if (typeof step.css === "string") {
          const next = [];
          for (const node of nodes) for (const found of node.querySelectorAll(step.css)) if (!next.includes(found)) next.push(found);
          nodes = next;
        } else {
          const at = step.nth < 0 ? nodes.length + step.nth : step.nth;
          nodes = at >= 0 && at < nodes.length ? [nodes[at]] : [];
        }
      }
      if (!all && nodes.length === 0) throw new Error("no element matches the locator");
      if (strict && !all && nodes.length > 1) throw new Error("strict mode violation: the locator resolved to " + nodes.length + " elements");
      return await ${call};
    }`;
    try {
      return await this.call(page, frame, fn(run), [chain, arg, all, strict]);
    } catch (error) {
      const message = (error as Error).message;
      const count = /resolved to (\d+) elements/.exec(message);
      if (count) throw new BwError("LOCATOR_AMBIGUOUS", `${method}: the locator matches ${count[1]} elements; make it unique`, { details: { count: Number(count[1]) } });
      if (/no element matches/.test(message)) throw new BwError("OPERATION_FAILED", `${method}: no element matches the locator`);
      throw error;
    }
  }

  private async waitFor(page: Page, frame: Frame, code: Code, arg: unknown, options: unknown, remainingMs: number): Promise<unknown> {
    const requested = (options as { timeout?: unknown } | undefined)?.timeout;
    const limitMs = typeof requested === "number" && requested > 0 ? Math.min(requested, remainingMs) : remainingMs;
    const until = Date.now() + limitMs;
    for (;;) {
      const value = await this.call(page, frame, code, [arg]);
      if (value) return value;
      if (Date.now() + POLL_MS > until) throw new BwError("SNIPPET_TIMEOUT", `waitForFunction: not true within ${Math.round(limitMs)} ms`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
}
