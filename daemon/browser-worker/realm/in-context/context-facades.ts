// The snippet's view of pages, frames, locators, keyboard and mouse, made
// INSIDE the context: like the bootstrap, this function's source text is
// compiled there and must not refer to anything outside its body. Each kind
// of facade has one frozen null-prototype object of methods, generated once
// per context from the facade spec; a facade is a frozen object on it that
// the methods know through a WeakMap (its run, page, frame or locator chain),
// so a run makes a few small objects instead of a closure per method. As on
// Playwright's own objects, a method called without its object throws. Each
// call becomes a strings-only host message naming the page (and frame) by id
// and carrying its run's token; locators travel as chains of builder steps.
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
  /** One page call's arguments at most (maxCallArgBytes), refused here before they are copied again. */
  argsCap?: { max: number; error(): Error };
  /** The context's URL (context-builtins.ts), as it was before any snippet ran: what a waitForURL predicate gets. */
  URLCtor: new (url: string) => object;
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
  const { P, V, spec, callSync, callAsync, makeError, URLCtor, argsCap } = kit;
  const { ObjectFreeze: freeze, ObjectCreate: create, JSONStringify: stringify, String: toStr, MapCtor, MapPrototypeGet, MapPrototypeSet } = P;
  const { StringPrototypeSlice: slice, ArrayPrototypePush: push, ArrayPrototypeIndexOf: indexOf, ArrayPrototypeJoin: join } = P;
  const { WeakMapCtor, WeakMapPrototypeGet: wmGet, WeakMapPrototypeSet: wmSet } = P;
  const { record, encodeArgs, tag } = V;

  type Root = { pageId: string; frameId: string | null };
  type Step = { m: string; a: unknown[] };
  interface Run {
    token: string;
    events: RunEventHooks;
    pages: Map<string, object>;
    frames: Map<string, object>;
  }
  /** What a facade stands for: its run, and the host message fields that name its target. */
  interface Owner {
    /** The kind of facade it is: a method of one kind never acts for another. */
    kind: string;
    run: Run;
    fields: Record<string, unknown>;
    root: Root;
    steps: Step[];
    /** A page's keyboard and mouse, made when first read. */
    parts?: Record<string, object>;
  }

  const owners = new WeakMapCtor<object, Owner>();
  function ownerOf(self: unknown, kind: string, method: string): Owner {
    const owner = self !== null && typeof self === "object" ? wmGet(owners, self) : undefined;
    if (owner === undefined || owner.kind !== kind) throw makeError("TypeError", `${kind}.${method}() must be called on a ${kind} (as ${kind}.${method}(...))`);
    return owner;
  }
  function facade(proto: object, owner: Owner): Record<string, unknown> {
    const f = create(proto);
    wmSet(owners, f, owner);
    return f;
  }

  function describeSteps(steps: Step[]): string {
    let out = "";
    for (let i = 0; i < steps.length; i++) out += `.${steps[i]!.m}(${slice(slice(toStr(stringify(steps[i]!.a)), 1, -1), 0, 80)})`;
    return out;
  }

  /** A copy of the chain with one more step (no spread: it would use the iterator a snippet can replace). */
  function withStep(steps: Step[], m: string, args: unknown[]): Step[] {
    const out: Step[] = record([]);
    for (let i = 0; i < steps.length; i++) push(out, steps[i]);
    push(out, record({ m, a: encodeArgs(args, argsCap) }));
    return out;
  }

  function message(run: Run, fields: Record<string, unknown>, ask: string, method: string, args: unknown[]): object {
    const m = create(null);
    const keys = P.ObjectKeys(fields);
    for (let i = 0; i < keys.length; i++) m[keys[i]!] = fields[keys[i]!];
    m.ask = ask;
    m.token = run.token;
    m.method = method;
    m.args = encodeArgs(args, argsCap);
    return m;
  }
  // Async, so that a refusal while encoding (argsCap) rejects the call's promise like any other.
  const call = async (o: Owner, method: string, args: unknown[]) => callAsync(message(o.run, o.fields, "call", method, args));
  const callNow = (o: Owner, method: string, args: unknown[]) => callSync(message(o.run, o.fields, "callSync", method, args));
  function frames(run: Run, pageId: string, which: string, extra?: { frameId?: string; selector?: unknown }): any {
    const m = record({ ask: "frames", token: run.token, pageId, which }) as Record<string, unknown>;
    if (extra?.frameId !== undefined) m.frameId = extra.frameId;
    if (extra && "selector" in extra) m.selector = extra.selector;
    return callSync(m);
  }

  /**
   * Puts one method per name on `proto`: it finds its facade's owner and hands it to `act`. Shared by every run of the
   * context, so each is frozen (nothing a snippet puts on one outlives its run) and, as a method, has no `prototype`.
   */
  function methods(proto: Record<string, unknown>, kind: string, names: string[], act: (o: Owner, m: string, args: unknown[]) => unknown): void {
    for (let i = 0; i < names.length; i++) {
      const m = names[i]!;
      const holder = { [m](this: unknown, ...args: unknown[]) { return act(ownerOf(this, kind, m), m, args); } };
      proto[m] = freeze(holder[m]);
    }
  }

  function chain(run: Run, root: Root, steps: Step[], kind: "locator" | "frameLocator"): object {
    const fields = kind === "locator" ? record({ target: "locator", pageId: root.pageId, frameId: root.frameId, steps }) : record({});
    const f = facade(kind === "locator" ? locatorProto : frameLocatorProto, { kind, run, fields, root, steps });
    freeze(f);
    const where = root.frameId === null ? root.pageId : `${root.pageId}/${root.frameId}`;
    tag(f, `[${kind === "locator" ? "Locator" : "FrameLocator"} ${where}${describeSteps(steps)}]`, record({ __bwLocator: record({ pageId: root.pageId, frameId: root.frameId, steps }) }));
    return f;
  }
  const extend = (kind: "locator" | "frameLocator") => (o: Owner, m: string, args: unknown[]) => chain(o.run, o.root, withStep(o.steps, m, args), kind);
  const start = (o: Owner, m: string, args: unknown[]) => chain(o.run, o.root, withStep(record([]), m, args), m === "frameLocator" ? "frameLocator" : "locator");

  const locatorProto = create(null);
  methods(locatorProto, "locator", spec.locator.builders, extend("locator"));
  methods(locatorProto, "locator", spec.locator.toFrameLocator, extend("frameLocator"));
  methods(locatorProto, "locator", spec.locator.async, call);
  freeze(locatorProto);
  const frameLocatorProto = create(null);
  methods(frameLocatorProto, "frameLocator", spec.frameLocator.builders, extend("locator"));
  methods(frameLocatorProto, "frameLocator", spec.frameLocator.toFrameLocator, extend("frameLocator"));
  freeze(frameLocatorProto);
  const keyboardProto = create(null);
  methods(keyboardProto, "keyboard", spec.keyboard.async, call);
  freeze(keyboardProto);
  const mouseProto = create(null);
  methods(mouseProto, "mouse", spec.mouse.async, call);
  freeze(mouseProto);
  const webmcpProto = create(null);
  methods(webmcpProto, "webmcp", spec.webmcp.async, call);
  freeze(webmcpProto);

  const frameProto = create(null);
  methods(frameProto, "frame", spec.frame.async, call);
  methods(frameProto, "frame", spec.frame.sync, callNow);
  methods(frameProto, "frame", spec.frame.roots, start);
  methods(frameProto, "frame", ["parentFrame"], (o) => {
    const id = frames(o.run, o.root.pageId, "parent", record({ frameId: o.root.frameId! }));
    return id === null ? null : frameFacade(o.run, o.root.pageId, id);
  });
  methods(frameProto, "frame", ["childFrames"], (o) => frameList(o.run, o.root.pageId, frames(o.run, o.root.pageId, "children", record({ frameId: o.root.frameId! }))));
  methods(frameProto, "frame", ["page"], (o) => pageFacade(o.run, o.root.pageId));
  methods(frameProto, "frame", ["waitForURL"], waitForURL);
  freeze(frameProto);

  function checkHandler(event: unknown, handler: unknown): string {
    const name = toStr(event);
    if (indexOf(spec.page.events, name) === -1) {
      throw makeError("Error", `page.on(${stringify(name)}) is not available to snippets: only ${join(spec.page.events, ", ")}`);
    }
    if (typeof handler !== "function") throw makeError("TypeError", "the event handler must be a function");
    return name;
  }

  // URL patterns are matched here, in the session's realm: one that backtracks for ever stops this realm at its
  // deadline and nothing else. The main thread only reports URLs (url-waits.ts) and turns globs into their pattern.
  const regexpExec = (P.RegExpPrototype as { exec: (input: string) => unknown }).exec;
  const isRegExp = (v: unknown) => {
    try { P.RegExpPrototypeGetSource(v); return true; } catch { return false; }
  };
  function urlTest(run: Run, url: unknown): (u: string) => boolean {
    if (typeof url === "string") {
      const re = new P.RegExpCtor(callSync(record({ ask: "urlPattern", token: run.token, glob: url })) as string);
      return (u) => P.apply(regexpExec, re, [u]) !== null;
    }
    if (isRegExp(url)) return (u) => { (url as RegExp).lastIndex = 0; return P.apply(regexpExec, url, [u]) !== null; };
    if (typeof url === "function") {
      return (u) => {
        let parsed: object;
        try { parsed = new URLCtor(u); } catch { return false; }
        return !!(url as (u: object) => unknown)(parsed);
      };
    }
    throw makeError("TypeError", "the url should be a string, a RegExp or a function");
  }
  /** page/frame.waitForURL: the main thread says each URL the frame commits, the realm's test picks one, then the load state is awaited. */
  async function waitForURL(o: Owner, _m: string, args: unknown[]): Promise<void> {
    const test = urlTest(o.run, args[0]);
    const options: Record<string, unknown> = args[1] !== null && typeof args[1] === "object" ? args[1] as Record<string, unknown> : record({});
    const step = (fields: Record<string, unknown>): Promise<{ url: string; deadline: number; timeoutMs: number }> => {
      const m = message(o.run, o.fields, "urlWait", "waitForURL", record([])) as Record<string, unknown>;
      const keys = P.ObjectKeys(fields);
      for (let i = 0; i < keys.length; i++) m[keys[i]!] = fields[keys[i]!];
      return callAsync(m);
    };
    let at = await step(record({ phase: "next", after: null, timeout: typeof options.timeout === "number" ? options.timeout : null }));
    while (!test(at.url)) at = await step(record({ phase: "next", after: at.url, deadline: at.deadline, timeoutMs: at.timeoutMs }));
    await step(record({ phase: "settle", waitUntil: typeof options.waitUntil === "string" ? options.waitUntil : null, deadline: at.deadline, timeoutMs: at.timeoutMs }));
  }
  const pageProto = create(null);
  methods(pageProto, "page", spec.page.async, call);
  methods(pageProto, "page", spec.page.sync, callNow);
  methods(pageProto, "page", spec.page.roots, start);
  methods(pageProto, "page", ["on", "once"], (o, m, [event, handler]) => {
    o.run.events.add(o.root.pageId, checkHandler(event, handler), handler as (e: unknown) => unknown, m === "once");
    return pageFacade(o.run, o.root.pageId);
  });
  methods(pageProto, "page", ["off"], (o, _m, [event, handler]) => {
    o.run.events.remove(o.root.pageId, toStr(event), handler as (e: unknown) => unknown);
    return pageFacade(o.run, o.root.pageId);
  });
  methods(pageProto, "page", ["frames"], (o) => frameList(o.run, o.root.pageId, frames(o.run, o.root.pageId, "all")));
  methods(pageProto, "page", ["mainFrame"], (o) => frameFacade(o.run, o.root.pageId, frames(o.run, o.root.pageId, "main")));
  methods(pageProto, "page", ["waitForURL"], waitForURL);
  // As in Playwright: a name wins over a url.
  methods(pageProto, "page", ["frame"], (o, _m, [selector]) => {
    let name: string | undefined;
    let test: ((u: string) => boolean) | undefined;
    if (typeof selector === "string") name = selector;
    else if (selector !== null && typeof selector === "object") {
      const s = selector as Record<string, unknown>;
      if (s.name !== undefined) name = toStr(s.name);
      else if (s.url !== undefined) test = urlTest(o.run, s.url);
    }
    if (name === undefined && test === undefined) throw makeError("TypeError", "page.frame() takes a frame name or { name, url }");
    const list = frames(o.run, o.root.pageId, "list") as { id: string; name: string; url: string }[];
    for (let i = 0; i < list.length; i++) {
      const f = list[i]!;
      if (name !== undefined ? f.name === name : test!(f.url)) return frameFacade(o.run, o.root.pageId, f.id);
    }
    return null;
  });
  // `page.keyboard`, `page.mouse` and `page.webmcp`: made for their page on first read, then the same object each time.
  const PARTS: [string, object][] = [["keyboard", keyboardProto], ["mouse", mouseProto], ["webmcp", webmcpProto]];
  for (let i = 0; i < PARTS.length; i++) {
    const [name, proto] = PARTS[i]!;
    P.ObjectDefineProperty(pageProto, name, {
      get(this: unknown) {
        const o = ownerOf(this, "page", name);
        const parts = (o.parts ??= create(null) as Record<string, object>);
        if (parts[name]) return parts[name];
        const part = freeze(facade(proto, { kind: name, run: o.run, fields: record({ target: name, pageId: o.root.pageId }), root: o.root, steps: o.steps }));
        tag(part, `[${name === "keyboard" ? "Keyboard" : name === "mouse" ? "Mouse" : "WebMCP"} ${o.root.pageId}]`);
        return (parts[name] = part);
      },
      enumerable: true,
    });
  }
  freeze(pageProto);

  function frameFacade(run: Run, pageId: string, frameId: string): object {
    const key = `${pageId}/${frameId}`;
    const known = MapPrototypeGet(run.frames, key);
    if (known) return known;
    const root = record({ pageId, frameId });
    const f = facade(frameProto, { kind: "frame", run, fields: record({ target: "frame", pageId, frameId }), root, steps: record([]) });
    f.pageId = pageId;
    f.frameId = frameId;
    freeze(f);
    tag(f, `[Frame ${pageId}/${frameId}]`);
    MapPrototypeSet(run.frames, key, f);
    return f;
  }

  function frameList(run: Run, pageId: string, ids: string[]): object[] {
    const out: object[] = [];
    for (let i = 0; i < ids.length; i++) push(out, frameFacade(run, pageId, ids[i]!));
    return out;
  }

  function pageFacade(run: Run, pageId: string): object {
    const known = MapPrototypeGet(run.pages, pageId);
    if (known) return known;
    const root = record({ pageId, frameId: null });
    const none: Step[] = record([]);
    const p = facade(pageProto, { kind: "page", run, fields: record({ target: "page", pageId }), root, steps: none });
    p.pageId = pageId;
    freeze(p);
    tag(p, `[Page ${pageId}]`);
    MapPrototypeSet(run.pages, pageId, p);
    return p;
  }

  function forRun(token: string, events: RunEventHooks): RunFacades {
    const run: Run = record({ token, events, pages: new MapCtor<string, object>(), frames: new MapCtor<string, object>() });
    return freeze(record({ page: (pageId: string) => pageFacade(run, pageId), frame: (pageId: string, frameId: string) => frameFacade(run, pageId, frameId) }));
  }

  return freeze(record({ forRun }));
}
