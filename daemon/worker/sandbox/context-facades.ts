// The snippet's view of pages, frames, locators, keyboard and mouse, made
// INSIDE the context: like the bootstrap, this function's source text is
// compiled there and must not refer to anything outside its body. Every
// facade is a frozen null-prototype object of context functions generated
// from the facade spec; each call becomes a strings-only host message naming
// the page (and frame) by id, and locators travel as chains of builder steps.
/* eslint-disable */
import type { Primordials } from "./context-primordials.js";
import type { ContextValues } from "./context-values.js";

export interface FacadeKit {
  P: Primordials;
  V: ContextValues;
  /** FACADE_SPEC, parsed inside the context (null-prototype data). */
  spec: any;
  callSync(message: object): any;
  callAsync(message: object): Promise<any>;
  makeError(name: string, message: string): Error;
}

export interface RunEventHooks {
  add(pageId: string, event: string, handler: (event: unknown) => unknown, once: boolean): void;
  remove(pageId: string, event: string, handler: (event: unknown) => unknown): void;
}

export interface RunFacades {
  page(pageId: string): object;
  frame(pageId: string, frameId: string): object;
}

export function contextFacades(kit: FacadeKit): { forRun(token: string, events: RunEventHooks): RunFacades } {
  "use strict";
  const { P, V, spec, callSync, callAsync, makeError } = kit;
  const { ObjectFreeze: freeze, ObjectCreate: create, JSONStringify: stringify, String: toStr, MapCtor, MapPrototypeGet, MapPrototypeSet } = P;
  const { StringPrototypeSlice: slice, ArrayPrototypePush: push, ArrayPrototypeIndexOf: indexOf, ArrayPrototypeJoin: join } = P;
  const { record, encodeArgs, tag } = V;

  type Root = { pageId: string; frameId: string | null };
  type Step = { m: string; a: unknown[] };

  function describeSteps(steps: Step[]): string {
    let out = "";
    for (let i = 0; i < steps.length; i++) out += `.${steps[i]!.m}(${slice(slice(toStr(stringify(steps[i]!.a)), 1, -1), 0, 80)})`;
    return out;
  }

  /** A copy of the chain with one more step (no spread: it would use the iterator a snippet can replace). */
  function withStep(steps: Step[], m: string, args: unknown[]): Step[] {
    const out: Step[] = record([]);
    for (let i = 0; i < steps.length; i++) push(out, steps[i]);
    push(out, record({ m, a: encodeArgs(args) }));
    return out;
  }

  /** Calls `each(name)` for every method name in a spec list. */
  function eachName(names: string[], each: (name: string) => void): void {
    for (let i = 0; i < names.length; i++) each(names[i]!);
  }

  function forRun(token: string, events: RunEventHooks): RunFacades {
    const message = (fields: object, op: string, method: string, args: unknown[]) => {
      const m = create(null);
      const keys = P.ObjectKeys(fields);
      for (let i = 0; i < keys.length; i++) m[keys[i]!] = (fields as Record<string, unknown>)[keys[i]!];
      m.op = op;
      m.token = token;
      m.method = method;
      m.args = encodeArgs(args);
      return m;
    };
    const call = (fields: object, method: string, args: unknown[]) => callAsync(message(fields, "call", method, args));
    const callNow = (fields: object, method: string, args: unknown[]) => callSync(message(fields, "callSync", method, args));
    const frames = (pageId: string, which: string, extra?: { frameId?: string; selector?: unknown }) => {
      const m = record({ op: "frames", token, pageId, which }) as Record<string, unknown>;
      if (extra?.frameId !== undefined) m.frameId = extra.frameId;
      if (extra && "selector" in extra) m.selector = extra.selector;
      return callSync(m);
    };

    function chain(root: Root, steps: Step[], kind: "locator" | "frameLocator"): object {
      const f = create(null);
      const group = kind === "locator" ? spec.locator : spec.frameLocator;
      eachName(group.builders, (m) => { f[m] = (...args: unknown[]) => chain(root, withStep(steps, m, args), "locator"); });
      eachName(group.toFrameLocator, (m) => { f[m] = (...args: unknown[]) => chain(root, withStep(steps, m, args), "frameLocator"); });
      if (kind === "locator") {
        const target = record({ target: "locator", pageId: root.pageId, frameId: root.frameId, steps });
        eachName(spec.locator.async, (m) => { f[m] = (...args: unknown[]) => call(target, m, args); });
      }
      freeze(f);
      const where = root.frameId === null ? root.pageId : `${root.pageId}/${root.frameId}`;
      tag(f, `[${kind === "locator" ? "Locator" : "FrameLocator"} ${where}${describeSteps(steps)}]`, record({ __bwLocator: record({ pageId: root.pageId, frameId: root.frameId, steps }) }));
      return f;
    }

    function addRoots(target: Record<string, unknown>, root: Root): void {
      eachName(spec.page.roots, (m) => {
        target[m] = (...args: unknown[]) => chain(root, withStep(record([]), m, args), m === "frameLocator" ? "frameLocator" : "locator");
      });
    }

    const frameFacades = new MapCtor<string, object>();
    function frameFacade(pageId: string, frameId: string): object {
      const key = `${pageId}/${frameId}`;
      const known = MapPrototypeGet(frameFacades, key);
      if (known) return known;
      const f = create(null);
      const fields = record({ target: "frame", pageId, frameId });
      eachName(spec.frame.async, (m) => { f[m] = (...args: unknown[]) => call(fields, m, args); });
      eachName(spec.frame.sync, (m) => { f[m] = (...args: unknown[]) => callNow(fields, m, args); });
      addRoots(f, record({ pageId, frameId }));
      f.parentFrame = () => {
        const id = frames(pageId, "parent", record({ frameId }));
        return id === null ? null : frameFacade(pageId, id);
      };
      f.childFrames = () => frameList(pageId, frames(pageId, "children", record({ frameId })));
      f.page = () => pageFacade(pageId);
      f.pageId = pageId;
      f.frameId = frameId;
      freeze(f);
      tag(f, `[Frame ${pageId}/${frameId}]`);
      MapPrototypeSet(frameFacades, key, f);
      return f;
    }

    function frameList(pageId: string, ids: string[]): object[] {
      const out: object[] = [];
      for (let i = 0; i < ids.length; i++) push(out, frameFacade(pageId, ids[i]!));
      return out;
    }

    function checkHandler(event: unknown, handler: unknown): string {
      const name = toStr(event);
      if (indexOf(spec.page.events, name) === -1) {
        throw makeError("Error", `page.on(${stringify(name)}) is not available to snippets: only ${join(spec.page.events, ", ")}`);
      }
      if (typeof handler !== "function") throw makeError("TypeError", "the event handler must be a function");
      return name;
    }

    const pageFacades = new MapCtor<string, object>();
    function pageFacade(pageId: string): object {
      const known = MapPrototypeGet(pageFacades, pageId);
      if (known) return known;
      const p = create(null);
      const fields = record({ target: "page", pageId });
      eachName(spec.page.async, (m) => { p[m] = (...args: unknown[]) => call(fields, m, args); });
      eachName(spec.page.sync, (m) => { p[m] = (...args: unknown[]) => callNow(fields, m, args); });
      addRoots(p, record({ pageId, frameId: null }));
      const keyboard = create(null), mouse = create(null);
      const keyboardFields = record({ target: "keyboard", pageId }), mouseFields = record({ target: "mouse", pageId });
      eachName(spec.keyboard.async, (m) => { keyboard[m] = (...args: unknown[]) => call(keyboardFields, m, args); });
      eachName(spec.mouse.async, (m) => { mouse[m] = (...args: unknown[]) => call(mouseFields, m, args); });
      p.keyboard = freeze(keyboard);
      p.mouse = freeze(mouse);
      tag(p.keyboard, `[Keyboard ${pageId}]`);
      tag(p.mouse, `[Mouse ${pageId}]`);
      p.on = (event: unknown, handler: (e: unknown) => unknown) => { events.add(pageId, checkHandler(event, handler), handler, false); return p; };
      p.once = (event: unknown, handler: (e: unknown) => unknown) => { events.add(pageId, checkHandler(event, handler), handler, true); return p; };
      p.off = (event: unknown, handler: (e: unknown) => unknown) => { events.remove(pageId, toStr(event), handler); return p; };
      p.frames = () => frameList(pageId, frames(pageId, "all"));
      p.mainFrame = () => frameFacade(pageId, frames(pageId, "main"));
      p.frame = (selector: unknown) => {
        const id = frames(pageId, "find", record({ selector: encodeArgs([selector])[0] }));
        return id === null ? null : frameFacade(pageId, id);
      };
      p.pageId = pageId;
      freeze(p);
      tag(p, `[Page ${pageId}]`);
      MapPrototypeSet(pageFacades, pageId, p);
      return p;
    }

    return freeze(record({ page: pageFacade, frame: frameFacade }));
  }

  return freeze(record({ forRun }));
}
