// `page.on/once/off` inside the context: the run's handlers, and the event
// objects they receive, made here from the plain data the host sends. Like
// the bootstrap, this function's source text is compiled in the context and
// must not refer to anything outside its body. Handlers start from a context
// promise job and only while their run is live.
/* eslint-disable */
import type { RunEventHooks, RunFacades } from "./context-facades.js";

export interface EventKit {
  callSync(message: object): any;
  callAsync(message: object): Promise<any>;
  makeError(shape: { name?: string; message?: string }): Error;
  /** The run's facades while it is live, else null. */
  facadesOf(token: string): RunFacades | null;
  /** Records a throwing handler in the run's console. */
  report(token: string, what: string, error: unknown): void;
}

export interface ContextEvents {
  hooks(token: string): RunEventHooks;
  /** Hands a host event (JSON) to the run's handlers; false when it has none for it. */
  emit(token: string, eventJson: string): boolean;
  drop(token: string): void;
}

export function contextEvents(kit: EventKit): ContextEvents {
  "use strict";
  const { callSync, callAsync, makeError, facadesOf, report } = kit;
  const { parse } = JSON;
  const freeze = Object.freeze;
  const create = Object.create;
  const defineProperty = Object.defineProperty;
  const apply = Reflect.apply;
  const PromiseCtor = Promise;
  const promiseThen = Promise.prototype.then;
  const resolved = Promise.resolve();
  const MapCtor = Map;
  const mapGet = Map.prototype.get, mapSet = Map.prototype.set, mapDelete = Map.prototype.delete;
  const then = (p: unknown, onOk: ((v: any) => unknown) | undefined, onErr?: (e: unknown) => unknown) => apply(promiseThen, p, [onOk, onErr]);

  interface Listener { fn: (event: unknown) => unknown; once: boolean }
  const byRun = new MapCtor<string, Map<string, Listener[]>>();

  function listenersOf(token: string, pageId: string, event: string): Listener[] {
    let run = apply(mapGet, byRun, [token]) as Map<string, Listener[]> | undefined;
    if (!run) { run = new MapCtor(); apply(mapSet, byRun, [token, run]); }
    const key = `${pageId}\n${event}`;
    let list = apply(mapGet, run, [key]) as Listener[] | undefined;
    if (!list) { list = []; apply(mapSet, run, [key, list]); }
    return list;
  }

  function hooks(token: string): RunEventHooks {
    return freeze({
      add(pageId: string, event: string, fn: (e: unknown) => unknown, once: boolean) {
        const list = listenersOf(token, pageId, event);
        if (list.length === 0) callSync({ op: "listen", token, pageId, event, on: true });
        list.push({ fn, once });
      },
      remove(pageId: string, event: string, fn: (e: unknown) => unknown) {
        const list = listenersOf(token, pageId, event);
        for (let i = 0; i < list.length; i++) {
          if (list[i]!.fn !== fn) continue;
          list.splice(i, 1);
          if (list.length === 0 && facadesOf(token)) callSync({ op: "listen", token, pageId, event, on: false });
          return;
        }
      },
    });
  }

  function eventObject(token: string, facades: RunFacades, ev: any): unknown {
    if (ev.event === "pageerror") {
      const error = makeError({ name: ev.name, message: ev.message });
      defineProperty(error, "stack", { value: String(ev.stack ?? ""), configurable: true, writable: true });
      return error;
    }
    const o = create(null);
    o.page = () => facades.page(String(ev.pageId));
    o.type = () => String(ev.type);
    if (ev.event === "console") {
      o.text = () => String(ev.text);
      o.location = () => ({ url: String(ev.location?.url ?? ""), lineNumber: Number(ev.location?.lineNumber ?? 0), columnNumber: Number(ev.location?.columnNumber ?? 0) });
    } else {
      const act = (action: string, promptText?: unknown) => callAsync({ op: "dialog", token, dialogId: ev.dialogId, action, promptText: promptText === undefined ? null : String(promptText) });
      o.message = () => String(ev.message);
      o.defaultValue = () => String(ev.defaultValue);
      o.accept = (promptText?: unknown) => act("accept", promptText);
      o.dismiss = () => act("dismiss");
    }
    return freeze(o);
  }

  function emit(token: string, eventJson: string): boolean {
    if (!facadesOf(token)) return false;
    const ev = parse(eventJson);
    const pageId = String(ev.pageId), name = String(ev.event);
    const list = listenersOf(token, pageId, name);
    if (list.length === 0) return false;
    const calls = list.slice();
    const h = hooks(token);
    for (const l of calls) if (l.once) h.remove(pageId, name, l.fn);
    then(resolved, () => {
      const facades = facadesOf(token);
      if (!facades) return;
      const event = eventObject(token, facades, ev);
      const pending: unknown[] = [];
      const what = `page.on("${name}") handler`;
      for (const l of calls) {
        try {
          pending.push(then(PromiseCtor.resolve(l.fn(event)), undefined, (e) => report(token, what, e)));
        } catch (e) {
          report(token, what, e);
        }
      }
      // A dialog no handler accepted or dismissed is dismissed, so the page never hangs.
      if (name === "dialog") {
        const settle = () => { then(callAsync({ op: "dialog", token, dialogId: ev.dialogId, action: "settle", promptText: null }), () => {}, () => {}); };
        then(PromiseCtor.all(pending), settle, settle);
      }
    });
    return true;
  }

  return freeze({
    hooks,
    emit,
    drop(token: string) { apply(mapDelete, byRun, [token]); },
  });
}
