// The daemon's handle on its worker: a child process started on the first
// call that needs a browser, spoken to over a private pipe (fd 3), with Node's
// IPC channel (fd 4) carrying the connections the daemon dials for its guard
// proxy. If it dies, the next call starts a new one; callers learn what was lost.
import type { ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import type { Socket } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Duplex } from "node:stream";
import { BwError } from "../../shared/protocol/errors.js";
import { GUARD_SOCKET_MESSAGE, WorkerInitialize, WorkerShutdown, type GuardSocketMessage, type MethodDecl, type WorkerInit } from "../../shared/protocol/methods/index.js";
import { RpcPeer, type MethodRegistry } from "../../shared/protocol/rpc.js";
import { ensurePrivateDir } from "../../shared/secure-fs.js";
import { sweepWorkerTmp, type SpawnedWorker } from "./spawn.js";

/** What a worker's methods may do to that worker besides answering it. */
export interface WorkerLink {
  /**
   * Hands a connected socket to the worker (the daemon closes its own copy); resolves with the ticket the worker knows it by.
   * The socket must have been paused before it connected, so the daemon never read from it.
   */
  sendSocket(socket: Socket): Promise<number>;
  /** Calls `listener` once the worker has exited (at once if it has). */
  whenExited(listener: () => void): void;
}

export interface WorkerProcessOptions {
  init: WorkerInit;
  /** What the worker may call on the daemon, made for this worker. */
  registry: (link: WorkerLink) => MethodRegistry<void>;
  /** Starts the process (contained where possible) when no early one is handed over. */
  spawn: () => SpawnedWorker;
  log: (line: string) => void;
  onExit: (info: { pid: number | undefined; code: number | null; signal: NodeJS.Signals | null }) => void;
  /** A process started before the profile lock was taken, still running and never initialised; otherwise one is spawned. */
  spawned?: SpawnedWorker;
}

export class WorkerProcess implements WorkerLink {
  private readonly child: ChildProcess;
  private nextTicket = 1;
  /** Started inside bwrap's namespaces. */
  readonly contained: boolean;
  private readonly inner: SpawnedWorker["inner"];
  private readonly peer: RpcPeer<void>;
  private readonly started: Promise<void>;
  private exited = false;
  private readonly exitListeners: (() => void)[] = [];

  constructor(options: WorkerProcessOptions) {
    // Temp files (Playwright's and Chromium's) stay inside the home; a killed
    // worker's leftovers are swept when the next one starts. The profile lock,
    // held by whoever constructs this, makes Chromium's folder ours alone.
    const chromiumTmp = path.join(options.init.browserEnvDir, "tmp");
    rmSync(chromiumTmp, { recursive: true, force: true });
    mkdirSync(chromiumTmp, { recursive: true, mode: 0o700 });
    sweepWorkerTmp(options.init.browserEnvDir, options.spawned?.tmpDir);
    // A lock holder's sweep while an early worker's daemon waited for the lock may have taken its folder.
    if (options.spawned) ensurePrivateDir(options.spawned.tmpDir);
    const { child, tmpDir, contained, inner } = options.spawned ?? options.spawn();
    this.child = child;
    this.contained = contained;
    this.inner = inner;
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (stream) createInterface({ input: stream }).on("line", (line) => options.log(line));
    }
    this.peer = new RpcPeer<void>(this.child.stdio[3] as Duplex, {
      registry: options.registry(this), context: undefined, log: options.log,
      // Our worker checks every frame's size before sending it: one past the bound is not our worker's, and the reply it held is lost.
      onOversize: () => {
        options.log("the worker sent a frame past the bound; it is ended, and its runs fail");
        this.kill();
      },
    });
    // Nothing the worker sends on the IPC channel is read: it exists to carry sockets to the worker.
    this.child.on("message", () => {});
    this.child.on("exit", (code, signal) => {
      this.exited = true;
      this.peer.close();
      rmSync(tmpDir, { recursive: true, force: true });
      options.onExit({ pid: this.child.pid, code, signal });
      for (const listener of this.exitListeners.splice(0)) listener();
    });
    this.child.on("error", (error) => options.log(`worker spawn error: ${error.message}`));
    this.started = this.peer.call(WorkerInitialize, options.init).then(() => undefined);
    this.started.catch(() => {});
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Contained, also false once the worker's own process is gone, before bwrap around it has exited. */
  get alive(): boolean {
    return !this.exited && (this.inner?.alive() ?? true);
  }

  async call<P, R>(decl: MethodDecl<P, R>, params: P, timeoutMs?: number): Promise<R> {
    try {
      await this.started;
      return await this.peer.call(decl, params, timeoutMs);
    } catch (error) {
      if (this.exited || (error instanceof BwError && error.code === "DAEMON_UNAVAILABLE")) {
        throw new BwError("SESSION_RESET", "the worker stopped during the call; the session's pages were lost", { retryable: false });
      }
      throw error;
    }
  }

  whenExited(listener: () => void): void {
    if (this.exited) listener();
    else this.exitListeners.push(listener);
  }

  sendSocket(socket: Socket): Promise<number> {
    const ticket = this.nextTicket++;
    return new Promise((resolve, reject) => {
      if (this.exited || !this.child.connected) {
        socket.destroy();
        reject(new BwError("SESSION_RESET", "the worker is gone"));
        return;
      }
      // The daemon's copy stays open until the worker acknowledges the socket; a copy that
      // reads meanwhile takes (and drops) bytes the worker never sees. Only a socket paused
      // since before it connected has never read.
      if (!socket.isPaused() || socket.bytesRead > 0) {
        socket.destroy();
        reject(new BwError("INTERNAL_ERROR", "a socket for the worker was read by the daemon"));
        return;
      }
      const message: GuardSocketMessage = { type: GUARD_SOCKET_MESSAGE, ticket };
      const failed = (error: unknown): void => {
        socket.destroy();
        reject(error);
      };
      try {
        this.child.send(message, socket, (error) => (error ? failed(error) : resolve(ticket)));
      } catch (error) {
        failed(error);
      }
    });
  }

  kill(): void {
    if (this.exited) return;
    this.inner?.kill();
    this.child.kill("SIGKILL");
  }

  async shutdown(deadlineMs: number): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    await this.peer.call(WorkerShutdown, {}, deadlineMs).catch(() => {});
    const timer = setTimeout(() => this.kill(), deadlineMs);
    await gone;
    clearTimeout(timer);
  }
}
