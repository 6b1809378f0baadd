// A session's realm: a worker thread of the worker process that holds the
// session's vm context (daemon/browser-worker/realm/context.ts, unchanged inside it), its timers
// and its console. Pages live on the main thread; facade calls cross as
// messages, and the few synchronous ones (`page.url()`, `frames()`…) block
// this thread only, until the main thread answers on the sync port. A snippet
// that loops or exhausts its heap stops this thread; the main thread ends it
// and nothing else of the worker notices.
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { isOwnRealmError } from "../../../shared/protocol/error-text.js";
import { BwError } from "../../../shared/protocol/errors.js";
import { argsRefusal, LaneBudget } from "../lane-budget.js";
import { callKind, heldSlot, RUNNING_PER_LANE } from "../lanes.js";
import { RunTimers } from "../run-timers.js";
import { SnippetContext, toErrorReply } from "./context.js";
import type { FromRealm, HostRequest, RealmInit, Reply, SyncAnswer, ToRealm } from "./realm-messages.js";

/** How long one wait for a sync answer lasts before it looks again (terminate() ends the thread between waits). */
const SYNC_WAIT_SLICE_MS = 1_000;

interface RealmRun {
  token: string;
  /** Made when the run first sets a timer. */
  timers?: RunTimers;
  /** The refusals of its page calls the main thread has been told. */
  refused?: Set<string>;
}

function startRealm(init: RealmInit): void {
  const port = parentPort!;
  const signal = new Int32Array(init.signal);
  const post = (message: FromRealm) => port.postMessage(message);
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void; size: number; slot: boolean; release?: () => void }>();
  // The session's lane starts here: at most RUNNING_PER_LANE of its calls (waits aside) are on the main thread at
  // once, the rest wait in this thread, so a burst of thousands never lands on the main thread's event loop.
  const held: { id: number; m: HostRequest }[] = [];
  let posted = 0;
  const send = (id: number, m: HostRequest, slot: boolean) => {
    if (slot) {
      posted++;
      pending.get(id)!.release = heldSlot(() => {
        posted--;
        pump();
      });
    }
    post({ t: "async", id, m });
  };
  const pump = () => {
    while (posted < RUNNING_PER_LANE && held.length > 0) {
      const next = held.shift()!;
      send(next.id, next.m, true);
    }
  };
  const budget = new LaneBudget(init.limits);
  let nextCallId = 1;
  let nextTimerId = 1;
  let run: RealmRun | undefined;
  /** The active page as the main thread last said; `page` reads it without a round trip. */
  let active: string | null = null;

  const fail = (error: { name: string; message: string; code?: string }) =>
    Object.assign(new Error(error.message), { name: error.name, ...(error.code ? { code: error.code } : {}) });
  const unwrap = (reply: Reply) => {
    if (reply.ok) return reply.value;
    throw fail(reply.error);
  };

  /** A call the main thread must answer before the snippet goes on. */
  function blockingCall(m: HostRequest): unknown {
    const id = nextCallId++;
    post({ t: "sync", id, m });
    while (Atomics.load(signal, 0) === 0) Atomics.wait(signal, 0, 0, SYNC_WAIT_SLICE_MS);
    Atomics.store(signal, 0, 0);
    const answer = receiveMessageOnPort(init.syncPort)?.message as SyncAnswer | undefined;
    if (!answer || answer.id !== id) throw new BwError("INTERNAL_ERROR", "the worker answered another call");
    return unwrap(answer.reply);
  }

  function liveRun(token: unknown): RealmRun {
    if (!run || run.token !== token) throw new BwError("SNIPPET_TIMEOUT", "this run is over: its budget ran out or it finished");
    return run;
  }

  const context = new SnippetContext(init.session, {
    sync(m) {
      switch (m.ask) {
        case "done":
          if (run && run.token === m.token) {
            post({ t: "done", token: run.token, ok: m.ok, ...(m.ok ? { value: m.value } : { error: m.error ?? { name: "Error", message: "unknown error" } }) });
            // A finished run ends here at once: none of its timers or handlers runs again, and the main thread need not ask.
            end(run.token, false);
          }
          return null;
        case "console":
          liveRun(m.token);
          post({ t: "console", token: m.token, type: m.type, text: m.text });
          return null;
        case "setTimeout":
        case "setInterval":
          return timersOf(liveRun(m.token)).set(m.ask, m.ms);
        case "clearTimeout":
          liveRun(m.token).timers?.clear(m.id);
          return null;
        case "listen":
          liveRun(m.token);
          post({ t: "note", m });
          return null;
        case "activePage":
          liveRun(m.token);
          return active ?? blockingCall(m);
        case "usePage":
          active = blockingCall(m) as string;
          return active;
        default:
          return blockingCall(m);
      }
    },
    async(m) {
      // Refused here, a call past its session's caps is never copied to the main thread (which checks again).
      let size: number;
      try {
        size = budget.admit(m);
      } catch (error) {
        const message = (error as Error).message;
        // Said once per run and bound: a loop of refused calls costs the main thread nothing.
        const current = run;
        if (current !== undefined && current.token === m.token && !(current.refused ??= new Set()).has(message)) {
          current.refused.add(message);
          post({ t: "limit", token: current.token, message });
        }
        return Promise.reject(fail({ name: "Error", message, code: "LIMIT_EXCEEDED" }));
      }
      return new Promise((resolve, reject) => {
        const id = nextCallId++;
        const slot = callKind(m) !== "waits";
        pending.set(id, { resolve, reject, size, slot });
        if (!slot || posted < RUNNING_PER_LANE) send(id, m, slot);
        else held.push({ id, m });
      });
    },
  }, { scope: init.scope, consoleCap: init.consoleCap, argsCap: { max: init.limits.maxCallArgBytes, message: argsRefusal(init.limits).message } });

  function start(token: string, code: string, filename: string, activePage: string | null, argsJson: string | undefined): void {
    active = activePage;
    let compiled;
    try {
      compiled = context.compile(code, filename);
    } catch (error) {
      post({ t: "done", token, ok: false, error: toErrorReply(error) });
      return;
    }
    run = { token };
    if (!context.run(compiled, token, argsJson)) post({ t: "done", token, ok: false, error: { name: "Error", message: "the snippet could not be started in its context" } });
  }

  function timersOf(r: RealmRun): RunTimers {
    const token = r.token;
    return (r.timers ??= new RunTimers(() => nextTimerId++, (id) => context.fireTimer(id), (message) => post({ t: "limit", token, message })));
  }

  function end(token: string, confirm: boolean): void {
    if (run?.token === token) {
      run.timers?.end();
      run = undefined;
    }
    context.endRun(token);
    if (confirm) post({ t: "ended", token });
  }

  port.on("message", (message: ToRealm) => {
    switch (message.t) {
      case "run":
        start(message.token, message.code, message.filename, message.active, message.argsJson);
        break;
      case "end":
        end(message.token, true);
        break;
      case "active":
        active = message.pageId;
        break;
      case "export?":
        post(run === undefined ? { t: "exported", ...context.exportState(message.maxChars) } : { t: "exported", carry: false });
        break;
      case "import":
        // Text our export wrote: one that does not rebuild ends this realm, and the session's next run is told its state was reset.
        if (!context.importState(message.state)) process.exit(1);
        break;
      case "emit":
        if (run?.token === message.token) context.emit(message.token, message.event);
        break;
      case "reply": {
        const call = pending.get(message.id);
        if (!call) break;
        pending.delete(message.id);
        budget.release(call.size);
        call.release?.();
        if (message.reply.ok) call.resolve(message.reply.value);
        else call.reject(fail(message.reply.error));
        break;
      }
    }
  });
}

// A snippet's promise nobody awaited is its own affair, as in a browser; only an error of this thread's own
// code ends the realm (the session then gets a new one). Neither is ever read (shared/protocol/error-text.ts).
process.on("unhandledRejection", () => {});
process.on("uncaughtException", (error) => {
  if (isOwnRealmError(error)) process.exit(1);
});

// A spare thread (spare-thread.ts) starts with no session, and becomes one's with its first message.
if (workerData) startRealm(workerData as RealmInit);
else parentPort!.once("message", (message: ToRealm) => { if (message.t === "bind") startRealm(message.init); });
