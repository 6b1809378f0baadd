// `page.on/once/off` inside the context: the run's handlers, and the event
// objects they receive, made here from the plain data the host sends. Like
// the bootstrap, this function's source text is compiled in the context and
// must not refer to anything outside its body. Handlers start from a context
// promise job and only while their run is live.
/* eslint-disable */
import type { RunEventHooks, RunFacades } from "./context-facades.js";
import type { Primordials } from "./context-primordials.js";
import type { ContextValues } from "./context-values.js";

export interface EventKit {
  P: Primordials;
  V: ContextValues;
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
  const { P, V, callSync, callAsync, makeError, facadesOf, report } = kit;
  const { ObjectFreeze: freeze, ObjectCreate: create, ObjectDefineProperty: defineProperty, String: toStr, Number: toNum } = P;
  const { MapCtor, MapPrototypeGet, MapPrototypeSet, MapPrototypeDelete, ArrayPrototypePush: push } = P;
  const { record, parseData, later } = V;

  interface Listener { fn: (event: unknown) => unknown; once: boolean }
  const byRun = new MapCtor<string, Map<string, Listener[]>>();

  function listenersOf(token: string, pageId: string, event: string): Listener[] {
    let run = MapPrototypeGet(byRun, token);
    if (!run) { run = new MapCtor(); MapPrototypeSet(byRun, token, run); }
    const key = `${pageId}\n${event}`;
    let list = MapPrototypeGet(run, key);
    if (!list) { list = record([]); MapPrototypeSet(run, key, list); }
    return list;
  }

  /** Removes the first listener with `fn`; true when one was there. */
  function removeFrom(list: Listener[], fn: (e: unknown) => unknown): boolean {
    for (let i = 0; i < list.length; i++) {
      if (list[i]!.fn !== fn) continue;
      for (let j = i; j < list.length - 1; j++) list[j] = list[j + 1]!;
      list.length = list.length - 1;
      return true;
    }
    return false;
  }

  function hooks(token: string): RunEventHooks {
    return freeze(record({
      add(pageId: string, event: string, fn: (e: unknown) => unknown, once: boolean) {
        const list = listenersOf(token, pageId, event);
        if (list.length === 0) callSync(record({ ask: "listen", token, pageId, event, on: true }));
        push(list, record({ fn, once }));
      },
      remove(pageId: string, event: string, fn: (e: unknown) => unknown) {
        const list = listenersOf(token, pageId, event);
        if (removeFrom(list, fn) && list.length === 0 && facadesOf(token)) callSync(record({ ask: "listen", token, pageId, event, on: false }));
      },
    }));
  }

  function eventObject(token: string, facades: RunFacades, ev: any): unknown {
    if (ev.event === "pageerror") {
      const error = makeError(record({ name: toStr(ev.name), message: toStr(ev.message) }));
      defineProperty(error, "stack", { value: toStr(ev.stack ?? ""), configurable: true, writable: true });
      return error;
    }
    const o = create(null);
    o.page = () => facades.page(toStr(ev.pageId));
    o.type = () => toStr(ev.type);
    if (ev.event === "console") {
      o.text = () => toStr(ev.text);
      o.location = () => ({ url: toStr(ev.location?.url ?? ""), lineNumber: toNum(ev.location?.lineNumber ?? 0), columnNumber: toNum(ev.location?.columnNumber ?? 0) });
    } else {
      const act = (action: string, promptText?: unknown) => callAsync(record({ ask: "dialog", token, dialogId: ev.dialogId, action, promptText: promptText === undefined ? null : toStr(promptText) }));
      o.message = () => toStr(ev.message);
      o.defaultValue = () => toStr(ev.defaultValue);
      o.accept = (promptText?: unknown) => act("accept", promptText);
      o.dismiss = () => act("dismiss");
    }
    return freeze(o);
  }

  /** Runs the handlers from a context job; a dialog none of them answered is dismissed once they settle. */
  function deliver(token: string, name: string, calls: Listener[], ev: any): void {
    later(() => {
      const facades = facadesOf(token);
      if (!facades) return;
      const event = eventObject(token, facades, ev);
      const what = `page.on("${name}") handler`;
      let pending = calls.length + 1;
      const settled = () => {
        if (--pending !== 0 || name !== "dialog") return;
        // A dialog no handler accepted or dismissed is dismissed, so the page never hangs.
        later(async () => { try { await callAsync(record({ ask: "dialog", token, dialogId: ev.dialogId, action: "settle", promptText: null })); } catch { /* answered already */ } });
      };
      for (let i = 0; i < calls.length; i++) {
        const fn = calls[i]!.fn;
        later(async () => {
          try { await fn(event); } catch (e) { report(token, what, e); }
          settled();
        });
      }
      settled();
    });
  }

  function emit(token: string, eventJson: string): boolean {
    if (!facadesOf(token)) return false;
    const ev = parseData(eventJson);
    const pageId = toStr(ev.pageId), name = toStr(ev.event);
    const list = listenersOf(token, pageId, name);
    if (list.length === 0) return false;
    const calls: Listener[] = record([]);
    for (let i = 0; i < list.length; i++) push(calls, list[i]);
    const h = hooks(token);
    for (let i = 0; i < calls.length; i++) if (calls[i]!.once) h.remove(pageId, name, calls[i]!.fn);
    deliver(token, name, calls, ev);
    return true;
  }

  return freeze(record({
    hooks,
    emit,
    drop(token: string) { MapPrototypeDelete(byRun, token); },
  }));
}
