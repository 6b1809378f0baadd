// The snippet's view of pages, frames, locators, keyboard and mouse, made
// INSIDE the context: like the bootstrap, this function's source text is
// compiled there and must not refer to anything outside its body. Every
// facade is a frozen null-prototype object of context functions generated
// from the facade spec; each call becomes a strings-only host message naming
// the page (and frame) by id, and locators travel as chains of builder steps.
/* eslint-disable */

export interface FacadeKit {
  /** FACADE_SPEC, parsed inside the context. */
  spec: any;
  callSync(message: object): any;
  callAsync(message: object): Promise<any>;
  encodeArgs(args: unknown[]): unknown[];
  /** Records what a facade stands for: a label for results, a descriptor when passed as an argument. */
  tag(facade: object, label: string, descriptor?: object): void;
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
  const { spec, callSync, callAsync, encodeArgs, tag, makeError } = kit;
  const freeze = Object.freeze;
  const create = Object.create;
  const stringify = JSON.stringify;
  const MapCtor = Map;
  const apply = Reflect.apply;
  const mapGet = Map.prototype.get, mapSet = Map.prototype.set;

  type Root = { pageId: string; frameId: string | null };
  type Step = { m: string; a: unknown[] };

  function describeSteps(steps: Step[]): string {
    let out = "";
    for (const s of steps) out += `.${s.m}(${stringify(s.a).slice(1, -1).slice(0, 80)})`;
    return out;
  }

  function forRun(token: string, events: RunEventHooks): RunFacades {
    const call = (fields: object, method: string, args: unknown[]) =>
      callAsync({ ...fields, op: "call", token, method, args: encodeArgs(args) });
    const callNow = (fields: object, method: string, args: unknown[]) =>
      callSync({ ...fields, op: "callSync", token, method, args: encodeArgs(args) });
    const frames = (pageId: string, which: string, extra: object = {}) => callSync({ ...extra, op: "frames", token, pageId, which });

    function chain(root: Root, steps: Step[], kind: "locator" | "frameLocator"): object {
      const f = create(null);
      const group = kind === "locator" ? spec.locator : spec.frameLocator;
      for (const m of group.builders as string[]) f[m] = (...args: unknown[]) => chain(root, [...steps, { m, a: encodeArgs(args) }], "locator");
      for (const m of group.toFrameLocator as string[]) f[m] = (...args: unknown[]) => chain(root, [...steps, { m, a: encodeArgs(args) }], "frameLocator");
      if (kind === "locator") {
        for (const m of spec.locator.async as string[]) {
          f[m] = (...args: unknown[]) => call({ target: "locator", pageId: root.pageId, frameId: root.frameId, steps }, m, args);
        }
      }
      freeze(f);
      const where = root.frameId === null ? root.pageId : `${root.pageId}/${root.frameId}`;
      tag(f, `[${kind === "locator" ? "Locator" : "FrameLocator"} ${where}${describeSteps(steps)}]`, { __bwLocator: { pageId: root.pageId, frameId: root.frameId, steps } });
      return f;
    }

    function addRoots(target: Record<string, unknown>, root: Root): void {
      for (const m of spec.page.roots as string[]) {
        target[m] = (...args: unknown[]) => chain(root, [{ m, a: encodeArgs(args) }], m === "frameLocator" ? "frameLocator" : "locator");
      }
    }

    const frameFacades = new MapCtor<string, object>();
    function frameFacade(pageId: string, frameId: string): object {
      const key = `${pageId}/${frameId}`;
      const known = apply(mapGet, frameFacades, [key]);
      if (known) return known as object;
      const f = create(null);
      const fields = { target: "frame", pageId, frameId };
      for (const m of spec.frame.async as string[]) f[m] = (...args: unknown[]) => call(fields, m, args);
      for (const m of spec.frame.sync as string[]) f[m] = (...args: unknown[]) => callNow(fields, m, args);
      addRoots(f, { pageId, frameId });
      f.parentFrame = () => {
        const id = frames(pageId, "parent", { frameId });
        return id === null ? null : frameFacade(pageId, id);
      };
      f.childFrames = () => frameList(pageId, frames(pageId, "children", { frameId }));
      f.page = () => pageFacade(pageId);
      f.pageId = pageId;
      f.frameId = frameId;
      freeze(f);
      tag(f, `[Frame ${pageId}/${frameId}]`);
      apply(mapSet, frameFacades, [key, f]);
      return f;
    }

    function frameList(pageId: string, ids: string[]): object[] {
      const out: object[] = [];
      for (const id of ids) out.push(frameFacade(pageId, id));
      return out;
    }

    function checkHandler(event: unknown, handler: unknown): string {
      const name = String(event);
      if ((spec.page.events as string[]).indexOf(name) === -1) {
        throw makeError("Error", `page.on(${stringify(name)}) is not available to snippets: only ${(spec.page.events as string[]).join(", ")}`);
      }
      if (typeof handler !== "function") throw makeError("TypeError", "the event handler must be a function");
      return name;
    }

    const pageFacades = new MapCtor<string, object>();
    function pageFacade(pageId: string): object {
      const known = apply(mapGet, pageFacades, [pageId]);
      if (known) return known as object;
      const p = create(null);
      const fields = { target: "page", pageId };
      for (const m of spec.page.async as string[]) p[m] = (...args: unknown[]) => call(fields, m, args);
      for (const m of spec.page.sync as string[]) p[m] = (...args: unknown[]) => callNow(fields, m, args);
      addRoots(p, { pageId, frameId: null });
      const keyboard = create(null), mouse = create(null);
      for (const m of spec.keyboard.async as string[]) keyboard[m] = (...args: unknown[]) => call({ target: "keyboard", pageId }, m, args);
      for (const m of spec.mouse.async as string[]) mouse[m] = (...args: unknown[]) => call({ target: "mouse", pageId }, m, args);
      p.keyboard = freeze(keyboard);
      p.mouse = freeze(mouse);
      tag(p.keyboard, `[Keyboard ${pageId}]`);
      tag(p.mouse, `[Mouse ${pageId}]`);
      p.on = (event: unknown, handler: (e: unknown) => unknown) => { events.add(pageId, checkHandler(event, handler), handler, false); return p; };
      p.once = (event: unknown, handler: (e: unknown) => unknown) => { events.add(pageId, checkHandler(event, handler), handler, true); return p; };
      p.off = (event: unknown, handler: (e: unknown) => unknown) => { events.remove(pageId, String(event), handler); return p; };
      p.frames = () => frameList(pageId, frames(pageId, "all"));
      p.mainFrame = () => frameFacade(pageId, frames(pageId, "main"));
      p.frame = (selector: unknown) => {
        const id = frames(pageId, "find", { selector: encodeArgs([selector])[0] });
        return id === null ? null : frameFacade(pageId, id);
      };
      p.pageId = pageId;
      freeze(p);
      tag(p, `[Page ${pageId}]`);
      apply(mapSet, pageFacades, [pageId, p]);
      return p;
    }

    return freeze({ page: pageFacade, frame: frameFacade });
  }

  return freeze({ forRun });
}
