// The main thread's handle on one session's realm thread: starts it with its
// own heap limit, answers its calls (blocking ones through the sync port and
// the shared signal), hands it runs, events and ends, and stops it when it
// stops answering. What the realm says is checked (realm-messages.ts) and
// given to the session; a realm that dies says why, once.
import { statSync } from "node:fs";
import { MessageChannel, Worker } from "node:worker_threads";
import { checkFromRealm, checkHostRequest, type ErrorShape, type FromRealm, type HostRequest, type RealmInit, type Reply, type SyncAnswer, type ToRealm } from "./realm-messages.js";
import { toErrorReply } from "./context.js";
import type { LaneLimits } from "../../../shared/config-limits.js";

/** What retiring an idle realm would leave behind (daemon/browser-worker/realm/in-context/context-state.ts): `carry: false` when it must stay. */
export type Exported = { carry: false } | { carry: true; state?: string };

/** Why a realm is gone: its heap ran out, it would not stop when told, or it failed. */
export type RealmLoss = "heap" | "unresponsive" | "failed" | "closed";

export interface RealmHost {
  sync(m: HostRequest): unknown;
  async(m: HostRequest): Promise<unknown>;
  /** A call that needs no answer (`listen`). */
  note(m: HostRequest): void;
  console(token: string, type: string, text: string): void;
  limit(token: string, message: string): void;
  done(token: string, outcome: { ok: boolean; value?: unknown; error?: ErrorShape }): void;
  /** The realm is gone (not after close()). */
  lost(reason: RealmLoss): void;
}

export interface RealmOptions {
  session: string;
  scope: { async: string[]; sync: string[] };
  consoleCap: number;
  heapMb: number;
  limits: LaneLimits;
  /** The thread's script: the realm thread, or a stand-in in tests of this boundary. */
  thread?: URL;
  /** A thread started earlier with no session (startRealmThread), bound to this one instead of starting a thread. */
  spare?: Worker;
  /** Where a new thread's start waits its turn (realm-threads.ts); without it the thread starts at once. */
  startInTurn?: (start: () => void) => void;
}

const THREAD = new URL("./realm-thread.js", import.meta.url);
/** The same thread in one file (scripts/bundle-realm.mjs): cheaper to start. */
const THREAD_BUNDLE = new URL("./realm-thread.bundle.js", import.meta.url);

/** The bundle when the build made it from the current modules; the module itself after a `tsc` alone. */
function threadScript(): URL {
  try {
    return statSync(THREAD_BUNDLE).mtimeMs >= statSync(THREAD).mtimeMs ? THREAD_BUNDLE : THREAD;
  } catch {
    return THREAD;
  }
}

/** A realm thread with no session yet: it waits for the `bind` that makes it one session's (realm-thread.ts). */
export function startRealmThread(heapMb: number, script: URL = threadScript()): Worker {
  return new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: heapMb }, stdout: false, stderr: false });
}

export class Realm {
  /** Absent until the thread's start has had its turn. */
  private worker: Worker | undefined;
  /** What was posted before the thread existed, in order. */
  private early: ToRealm[] = [];
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly syncPort;
  private readonly endWaiters = new Map<string, (confirmed: boolean) => void>();
  private exportWaiters: ((exported: Exported) => void)[] = [];
  private gone = false;

  constructor(options: RealmOptions, private readonly host: RealmHost) {
    const { port1, port2 } = new MessageChannel();
    this.syncPort = port1;
    const init: RealmInit = { session: options.session, scope: options.scope, syncPort: port2, signal: this.signal.buffer as SharedArrayBuffer, consoleCap: options.consoleCap, limits: options.limits };
    const start = () => new Worker(options.thread ?? threadScript(), {
      workerData: init,
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
      stdout: false,
      stderr: false,
    });
    if (options.spare) {
      options.spare.postMessage({ t: "bind", init } satisfies ToRealm, [port2]);
      this.attach(options.spare);
    } else if (options.startInTurn) {
      options.startInTurn(() => {
        if (!this.gone) this.attach(start());
      });
    } else {
      this.attach(start());
    }
  }

  private attach(worker: Worker): void {
    this.worker = worker;
    worker.on("message", (raw: unknown) => {
      const message = checkFromRealm(raw);
      if (message) this.receive(message);
    });
    worker.on("error", (error: Error & { code?: string }) => this.lose(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "heap" : "failed"));
    worker.on("exit", () => this.lose("failed"));
    for (const message of this.early.splice(0)) worker.postMessage(message);
  }

  get alive(): boolean {
    return !this.gone;
  }

  private post(message: ToRealm): void {
    if (this.gone) return;
    if (this.worker) this.worker.postMessage(message);
    else this.early.push(message);
  }

  private receive(message: FromRealm): void {
    switch (message.t) {
      case "sync":
        this.answerSync(message.id, this.settle(() => this.host.sync(checkHostRequest(message.m))));
        break;
      case "async":
        // A refusal thrown at once (a run that is over) answers like any other.
        void new Promise((resolve) => resolve(this.host.async(checkHostRequest(message.m)))).then(
          (value) => this.post({ t: "reply", id: message.id, reply: { ok: true, value } }),
          (error: unknown) => this.post({ t: "reply", id: message.id, reply: { ok: false, error: toErrorReply(error) } }),
        );
        break;
      case "note":
        this.settle(() => this.host.note(checkHostRequest(message.m)));
        break;
      case "console":
        this.host.console(message.token, message.type, message.text);
        break;
      case "limit":
        this.host.limit(message.token, message.message);
        break;
      case "done":
        this.host.done(message.token, message.ok ? { ok: true, value: message.value } : { ok: false, ...(message.error ? { error: message.error } : {}) });
        break;
      case "ended":
        this.endWaiters.get(message.token)?.(true);
        break;
      case "exported": {
        const exported: Exported = !message.carry ? { carry: false } : message.state === undefined ? { carry: true } : { carry: true, state: message.state };
        for (const wake of this.exportWaiters.splice(0)) wake(exported);
        break;
      }
    }
  }

  private settle(call: () => unknown): Reply {
    try {
      return { ok: true, value: call() };
    } catch (error) {
      return { ok: false, error: toErrorReply(error) };
    }
  }

  private answerSync(id: number, reply: Reply): void {
    if (this.gone) return;
    const answer: SyncAnswer = { id, reply };
    try {
      this.syncPort.postMessage(answer);
    } catch (error) {
      // A value that does not clone (it never should) still answers, so the realm never waits for ever.
      this.syncPort.postMessage({ id, reply: { ok: false, error: toErrorReply(error) } } satisfies SyncAnswer);
    }
    Atomics.store(this.signal, 0, 1);
    Atomics.notify(this.signal, 0);
  }

  run(token: string, code: string, filename: string, active: string | null, argsJson?: string): void {
    this.post({ t: "run", token, code, filename, active, ...(argsJson === undefined ? {} : { argsJson }) });
  }

  /** The session's active page changed. */
  setActive(pageId: string | null): void {
    this.post({ t: "active", pageId });
  }

  emit(token: string, event: Record<string, unknown>): void {
    this.post({ t: "emit", token, event });
  }

  /**
   * Ends the run in the realm (a run that reported `done` has ended there already). True when the realm confirmed within `graceMs`;
   * false when it did not (a snippet holding its thread), and the realm is then stopped.
   */
  end(token: string, graceMs: number): Promise<boolean> {
    if (this.gone) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.lose("unresponsive"), graceMs);
      this.endWaiters.set(token, (confirmed) => {
        clearTimeout(timer);
        this.endWaiters.delete(token);
        resolve(confirmed);
      });
      this.post({ t: "end", token });
    });
  }

  /** What retiring the idle realm would leave behind, `state` as text of at most `maxChars`; `carry: false` if it does not say within `waitMs`. */
  exportState(maxChars: number, waitMs: number): Promise<Exported> {
    if (this.gone) return Promise.resolve({ carry: false });
    return new Promise((resolve) => {
      const timer = setTimeout(() => done({ carry: false }), waitMs);
      const done = (exported: Exported) => {
        clearTimeout(timer);
        this.exportWaiters = this.exportWaiters.filter((w) => w !== done);
        resolve(exported);
      };
      this.exportWaiters.push(done);
      this.post({ t: "export?", maxChars });
    });
  }

  /** Gives a fresh realm the `state` its session's retired realm left (before its first run). */
  importState(text: string): void {
    this.post({ t: "import", state: text });
  }

  /** Stops the thread; the host is told why unless `reason` is "closed". */
  private lose(reason: RealmLoss): void {
    if (this.gone) return;
    this.gone = true;
    for (const wake of [...this.endWaiters.values()]) wake(false);
    for (const wake of this.exportWaiters.splice(0)) wake({ carry: false });
    this.early = [];
    void this.worker?.terminate().catch(() => {});
    this.syncPort.close();
    if (reason !== "closed") this.host.lost(reason);
  }

  close(): void {
    this.lose("closed");
  }
}
